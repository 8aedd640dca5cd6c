#include "model/layer_settings.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "code/fast_arith.h"
#include "value/arith.h"

namespace oprec {

LayerSettings::LayerSettings(const RecordsEvaluator& records, const LayerDoc& layer, Tables tables)
    : program_(&records.program()), names_(records.bind(layer)) {
    if (program_->switches.size() > 31) throw std::length_error("more than 31 switches: settings are numbered in 32 bits");
    // As layer_bytes: every `when` first, then each held slot (names bound once).
    std::vector<SlotId> held;
    for (SlotId id = 0; id < program_->slots.size(); ++id)
        if (slot_holds(*program_, id, names_)) held.push_back(id);
    for (const SlotId id : held) {
        const std::string& part = program_->layer_parts[program_->slots[id].layer_part];
        auto it = std::find(parts_.begin(), parts_.end(), part);
        if (it == parts_.end()) it = parts_.insert(parts_.end(), part);
        Held h{SlotSums(*program_, id, names_), static_cast<std::size_t>(it - parts_.begin()), 0, {}, {}};
        const auto& entries = program_->slots[id].entries;
        for (std::size_t j = 0; j < entries.size() && j < 64; ++j) {
            if (const auto& sw = program_->records[entries[j].record].switch_id)
                h.switched.emplace_back(static_cast<std::uint32_t>(*sw), static_cast<std::uint32_t>(j));
            else
                h.unswitched |= std::uint64_t(1) << j;
        }
        if (tables != Tables::None && entries.size() <= 64 && h.switched.size() <= kMaxTabled) {
            const std::size_t ways = std::size_t(1) << h.switched.size();
            h.prices.resize(ways);
            for (std::size_t index = 0; index < ways; ++index) {
                std::uint64_t kept = h.unswitched;
                for (std::size_t m = 0; m < h.switched.size(); ++m)
                    if ((index >> m) & 1u) kept |= std::uint64_t(1) << h.switched[m].second;
                try {
                    // The part sums start from 0.0: each adds the bytes as a
                    // float, an int or a bool converted as Python converts it.
                    h.prices[index] = h.sums.price_entries(kept, names_).as_double();
                } catch (const EvalError&) {  // raised again, in place, by the settings that reach it
                    h.prices.clear();
                    break;
                }
            }
        }
        held_.push_back(std::move(h));
    }
    by_part_.resize(parts_.size());
    for (std::size_t i = 0; i < held_.size(); ++i) by_part_[held_[i].part].push_back(i);
    tabled_ = parts_.size() <= kPartsOnStack &&
              std::all_of(held_.begin(), held_.end(), [](const Held& h) { return !h.prices.empty(); });
    if (tabled_ && tables == Tables::PartSums && switch_count() <= kMaxPartTableSwitches) tabulate_parts();
}

// A part's sum depends only on the switches its slots use: summed once for
// each setting of those (every subset of the mask), slot by slot in order,
// as sum_parts would for any setting that agrees on them.
void LayerSettings::tabulate_parts() {
    part_tables_.resize(parts_.size());
    for (std::size_t k = 0; k < parts_.size(); ++k) {
        PartTable& t = part_tables_[k];
        for (const std::size_t i : by_part_[k])
            for (const auto& [sw, entry] : held_[i].switched) t.mask |= std::uint32_t(1) << sw;
        t.sums.resize(std::size_t(t.mask) + 1);
        for (std::uint32_t bits = 0;; bits = (bits - t.mask) & t.mask) {  // every subset of the mask
            double sum = 0.0;  // parts.get(part, 0.0)
            for (const std::size_t i : by_part_[k]) sum += held_[i].prices[table_index(held_[i], bits)];
            t.sums[bits] = sum;
            if (bits == t.mask) break;
        }
    }
}

std::uint64_t LayerSettings::kept_entries(const Held& h, const KeepMask& keep) const {
    const auto& entries = program_->slots[h.sums.slot()].entries;
    std::uint64_t kept = 0;
    for (std::size_t j = 0; j < entries.size() && j < 64; ++j)
        if (keep[entries[j].record]) kept |= std::uint64_t(1) << j;
    return kept;
}

KeepMask LayerSettings::selective(std::uint32_t keep_bits) const {
    KeepMask keep(program_->records.size(), 1);
    for (RecordId r = 0; r < program_->records.size(); ++r)
        if (const auto& sw = program_->records[r].switch_id) keep[r] = (keep_bits >> *sw) & 1u;
    return keep;
}

// The reference's summing rule, as every pricing keeps it (PartSums): held
// slots in order, each added to its part from 0.0. parts_ lists the parts
// in order of first held slot, the order PartSums keeps them in.
Named<Value> LayerSettings::parts(const KeepMask& keep) const {
    PartSums sums;
    for (const Held& h : held_)
        sums.add(static_cast<std::uint32_t>(h.part), h.sums.price_entries(kept_entries(h, keep), names_));
    Named<Value> out;
    out.reserve(parts_.size());
    for (const auto& [part, bytes] : sums.parts()) out.emplace_back(parts_[part], bytes);
    return out;
}

Value LayerSettings::total(const KeepMask& keep) const {
    std::vector<Value> bytes;
    for (const auto& [part, value] : parts(keep)) bytes.push_back(value);
    return PartSums::layer(bytes.data(), bytes.size());
}

// The hot loop of a sweep. Tabled: a lookup per held slot and the parts
// summed as doubles in registers, which is Python's float addition exactly.
// Else each slot priced on its kept entries, Python's arithmetic throughout.
template <class Acc>
void LayerSettings::sum_parts(std::uint32_t keep_bits, Acc& acc) const {
    if (!part_tables_.empty()) {
        for (std::size_t k = 0; k < parts_.size(); ++k)
            acc[k] = Value::real(part_tables_[k].sums[keep_bits & part_tables_[k].mask]);
        return;
    }
    if (tabled_) {
        // A part at a time, its sum in a register: the same additions in the
        // same order as slot by slot (a part's slots keep their order).
        for (std::size_t k = 0; k < parts_.size(); ++k) {
            double sum = 0.0;  // parts.get(part, 0.0)
            for (const std::size_t i : by_part_[k]) sum += held_[i].prices[table_index(held_[i], keep_bits)];
            acc[k] = Value::real(sum);
        }
        return;
    }
    for (std::size_t k = 0; k < parts_.size(); ++k) acc[k] = Value::real(0.0);
    for (const Held& h : held_)
        acc[h.part] = fast::add(acc[h.part], h.sums.price_entries(kept_entries(h, keep_bits), names_));
}

void LayerSettings::selective_parts(std::uint32_t keep_bits, std::vector<Value>& out) const {
    out.resize(parts_.size());
    sum_parts(keep_bits, out);
}

Value LayerSettings::selective_total(std::uint32_t keep_bits) const {
    if (parts_.size() > kPartsOnStack) {
        std::vector<Value> parts(parts_.size());
        sum_parts(keep_bits, parts);
        return PartSums::layer(parts.data(), parts.size());
    }
    std::array<Value, kPartsOnStack> acc;
    sum_parts(keep_bits, acc);
    return PartSums::layer(acc.data(), parts_.size());
}

}  // namespace oprec
