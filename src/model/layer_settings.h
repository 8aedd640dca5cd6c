// One layer priced under many recompute switch settings: its names bound
// once, every held slot's entries evaluated once (SlotSums), then per setting
// the kept elements re-summed and the formulas evaluated. Each setting gets
// exactly what RecordsEvaluator::layer_bytes gives it, to the bit — not an
// estimate from single switches' effects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "eval/slot_sums.h"
#include "model/records_eval.h"

namespace oprec {

class LayerSettings {
public:
    // Throws what layer_slots throws (a `when` that cannot be evaluated).
    LayerSettings(const RecordsEvaluator& records, const LayerDoc& layer);

    // Settings are numbered by their kept switches: bit i of `keep_bits` keeps
    // program.switches[i]. There are 2^switch_count() of them.
    std::size_t switch_count() const { return program_->switches.size(); }
    // A selective layer's keep mask under the setting (a record with no switch is always kept).
    KeepMask selective(std::uint32_t keep_bits) const;
    // A plain layer's: everything kept.
    KeepMask plain() const { return KeepMask(program_->records.size(), 1); }

    // layer_bytes under `keep`: part -> bytes, in the order the held slots give.
    Named<Value> parts(const KeepMask& keep) const;
    // The parts summed in order, from 0.0.
    Value total(const KeepMask& keep) const;

private:
    const Program* program_;
    Bindings names_;
    std::vector<SlotSums> held_;           // the held slots, in the records' order
    std::vector<std::size_t> part_index_;  // by held slot: index into parts_
    std::vector<std::string> parts_;       // in order of first appearance
};

}  // namespace oprec
