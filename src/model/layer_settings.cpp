#include "model/layer_settings.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "eval/fast_arith.h"
#include "value/arith.h"

namespace oprec {

LayerSettings::LayerSettings(const RecordsEvaluator& records, const LayerDoc& layer)
    : program_(&records.program()), names_(records.bind(layer)) {
    if (program_->switches.size() > 31) throw std::length_error("more than 31 switches: settings are numbered in 32 bits");
    // As layer_bytes: every `when` first (layer_slots), then each held slot.
    for (const auto& [slot, part] : records.layer_slots(layer)) {
        const SlotId id = records.slot_id(slot);
        auto it = std::find(parts_.begin(), parts_.end(), part);
        if (it == parts_.end()) it = parts_.insert(parts_.end(), part);
        Held h{SlotSums(*program_, id, names_), static_cast<std::size_t>(it - parts_.begin()), 0, {}, {}, {}};
        const auto& entries = program_->slots[id].entries;
        for (std::size_t j = 0; j < entries.size() && j < 64; ++j) {
            if (const auto& sw = program_->records[entries[j].record].switch_id)
                h.switched.emplace_back(static_cast<std::uint32_t>(*sw), static_cast<std::uint32_t>(j));
            else
                h.unswitched |= std::uint64_t(1) << j;
        }
        if (entries.size() <= kMaxTabled) {
            const std::uint64_t ways = std::uint64_t(1) << entries.size();
            h.prices.assign(ways, Value::real(0.0));
            h.raises.resize(ways);
            for (std::uint64_t kept = 0; kept < ways; ++kept) {
                try {
                    h.prices[kept] = h.sums.price_entries(kept, names_);
                } catch (EvalError& e) {
                    h.raises[kept] = std::move(e);
                }
            }
        }
        held_.push_back(std::move(h));
    }
}

Value LayerSettings::price(const Held& h, std::uint64_t kept_entries) const {
    if (h.prices.empty()) [[unlikely]] return h.sums.price_entries(kept_entries, names_);
    if (h.raises[kept_entries]) [[unlikely]] throw *h.raises[kept_entries];
    return h.prices[kept_entries];
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

Named<Value> LayerSettings::parts(const KeepMask& keep) const {
    Named<Value> out;
    out.reserve(parts_.size());
    for (const std::string& p : parts_) out.emplace_back(p, Value::real(0.0));  // parts.get(part, 0.0)
    for (const Held& h : held_) {
        Value& acc = out[h.part].second;
        acc = py::add(acc, price(h, kept_entries(h, keep)));
    }
    return out;
}

Value LayerSettings::total(const KeepMask& keep) const {
    Value sum = Value::real(0.0);
    for (const auto& [part, bytes] : parts(keep)) sum = py::add(sum, bytes);
    return sum;
}

// The hot loop of a sweep: a table lookup per held slot, the parts summed in
// registers (an accumulator in memory would chain every add through a store).
template <class Acc>
void LayerSettings::sum_parts(std::uint32_t keep_bits, Acc& acc) const {
    for (std::size_t k = 0; k < parts_.size(); ++k) acc[k] = Value::real(0.0);  // parts.get(part, 0.0)
    for (const Held& h : held_) {
        const std::uint64_t kept = kept_entries(h, keep_bits);
        const Value bytes = h.prices.empty() || h.raises[kept] ? price(h, kept) : h.prices[kept];
        acc[h.part] = fast::add(acc[h.part], bytes);
    }
}

void LayerSettings::selective_parts(std::uint32_t keep_bits, std::vector<Value>& out) const {
    out.resize(parts_.size());
    if (parts_.size() > kPartsOnStack) return sum_parts(keep_bits, out);
    std::array<Value, kPartsOnStack> acc;
    sum_parts(keep_bits, acc);
    std::copy(acc.begin(), acc.begin() + static_cast<std::ptrdiff_t>(parts_.size()), out.begin());
}

Value LayerSettings::selective_total(std::uint32_t keep_bits) const {
    Value sum = Value::real(0.0);
    if (parts_.size() > kPartsOnStack) {
        std::vector<Value> parts(parts_.size());
        sum_parts(keep_bits, parts);
        for (const Value& v : parts) sum = fast::add(sum, v);
        return sum;
    }
    std::array<Value, kPartsOnStack> acc;
    sum_parts(keep_bits, acc);
    for (std::size_t k = 0; k < parts_.size(); ++k) sum = fast::add(sum, acc[k]);
    return sum;
}

}  // namespace oprec
