// One layer priced under many recompute switch settings: its names bound
// once, every held slot's entries evaluated once (SlotSums), and each held
// slot priced once for each way of keeping its own entries (a slot has a few
// entries, so a few prices; the layer has 2^8 settings), then each part's sum
// for each setting of the switches its slots use. A setting is then a table
// lookup per part. Each setting gets exactly what
// RecordsEvaluator::layer_bytes gives it, to the bit: every price is the
// interpreter's on the same total, not an estimate from single switches' effects.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "eval/slot_sums.h"
#include "model/evaluator.h"

namespace oprec {

class LayerSettings {
public:
    // How much is priced ahead: nothing (each slot priced per setting), each
    // slot's prices by its own switches, or also each part's sums. Each gives
    // the same bits; the default is the fastest the layer allows, the others
    // are there for the tests to compare.
    enum class Tables { None, SlotPrices, PartSums };

    // Throws what layer_slots throws (a `when` that cannot be evaluated).
    LayerSettings(const RecordsEvaluator& records, const LayerDoc& layer, Tables tables = Tables::PartSums);

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
    // Slots with more switched entries than this are priced per setting.
    static constexpr std::size_t kMaxTabled = 10;
    // Layers with at most this many parts sum them on the stack.
    static constexpr std::size_t kPartsOnStack = 8;

    struct Held {
        SlotSums sums;
        std::size_t part;                // index into parts_
        std::uint64_t unswitched = 0;    // entries whose record has no switch: kept in every selective setting
        std::vector<std::pair<std::uint32_t, std::uint32_t>> switched;  // (switch, entry) for the others
        // By the setting of the slot's own switches (bit m: switched[m]'s
        // switch on): the slot's bytes as the part sums add them, a float.
        // Empty: not tabled (too many switches, or a setting that raises).
        std::vector<double> prices;
    };

    template <class Acc>
    void sum_parts(std::uint32_t keep_bits, Acc& acc) const;
    std::uint64_t kept_entries(const Held& h, const KeepMask& keep) const;
    static std::uint64_t kept_entries(const Held& h, std::uint32_t keep_bits) {
        std::uint64_t kept = h.unswitched;
        for (const auto& [sw, entry] : h.switched) kept |= std::uint64_t((keep_bits >> sw) & 1u) << entry;
        return kept;
    }
    static std::size_t table_index(const Held& h, std::uint32_t keep_bits) {
        std::size_t index = 0;
        for (std::size_t m = 0; m < h.switched.size(); ++m) index |= std::size_t((keep_bits >> h.switched[m].first) & 1u) << m;
        return index;
    }

    // The float fast path goes further when there are few switches: each
    // part's sum, in its slots' order, for every setting of the switches its
    // slots use, found by the setting's bits masked to those switches.
    static constexpr std::size_t kMaxPartTableSwitches = 10;
    struct PartTable {
        std::uint32_t mask = 0;    // the switches the part's slots use
        std::vector<double> sums;  // by keep_bits & mask
    };
    void tabulate_parts();

    const Program* program_;
    Bindings names_;
    std::vector<Held> held_;          // the held slots, in the records' order
    std::vector<std::string> parts_;  // in order of first appearance
    std::vector<std::vector<std::size_t>> by_part_;  // indices into held_ of each part's slots, in order
    bool tabled_ = false;             // every held slot tabled, few parts: the float fast path
    std::vector<PartTable> part_tables_;  // by part, where tabled_ and few switches
};

}  // namespace oprec
