// One layer priced under many recompute switch settings: its names bound
// once, every held slot's entries evaluated once (SlotSums), and each held
// slot priced once for each way of keeping its own entries (a slot has a few
// entries, so a few prices; the layer has 2^8 settings). A setting is then a
// table lookup per slot and the parts' sums. Each setting gets exactly what
// RecordsEvaluator::layer_bytes gives it, to the bit: every price is the
// interpreter's on the same total, not an estimate from single switches' effects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

    // The same for the selective setting `keep_bits`, with no allocation once
    // `out` has grown: out[k] is the bytes of part_names()[k].
    void selective_parts(std::uint32_t keep_bits, std::vector<Value>& out) const;
    Value selective_total(std::uint32_t keep_bits) const;
    const std::vector<std::string>& part_names() const { return parts_; }

private:
    // Slots with more entries than this are priced per setting, not tabled.
    static constexpr std::size_t kMaxTabled = 10;
    // Layers with at most this many parts sum them on the stack.
    static constexpr std::size_t kPartsOnStack = 8;

    struct Held {
        SlotSums sums;
        std::size_t part;                // index into parts_
        std::uint64_t unswitched = 0;    // entries whose record has no switch: kept in every selective setting
        std::vector<std::pair<std::uint32_t, std::uint32_t>> switched;  // (switch, entry) for the others
        // By kept entries (bit j: entry j): the slot's price, or where it
        // raises, the error (raised only by a setting that keeps what raises).
        // Empty: too many entries to table; priced per setting.
        std::vector<Value> prices;
        std::vector<std::optional<EvalError>> raises;
    };

    Value price(const Held& h, std::uint64_t kept_entries) const;
    template <class Acc>
    void sum_parts(std::uint32_t keep_bits, Acc& acc) const;
    std::uint64_t kept_entries(const Held& h, const KeepMask& keep) const;
    static std::uint64_t kept_entries(const Held& h, std::uint32_t keep_bits) {
        std::uint64_t kept = h.unswitched;
        for (const auto& [sw, entry] : h.switched) kept |= std::uint64_t((keep_bits >> sw) & 1u) << entry;
        return kept;
    }

    const Program* program_;
    Bindings names_;
    std::vector<Held> held_;          // the held slots, in the records' order
    std::vector<std::string> parts_;  // in order of first appearance
};

}  // namespace oprec
