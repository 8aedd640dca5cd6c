#include "model/layer_settings.h"

#include <algorithm>
#include <stdexcept>

#include "value/arith.h"

namespace oprec {

LayerSettings::LayerSettings(const RecordsEvaluator& records, const LayerDoc& layer)
    : program_(&records.program()), names_(records.bind(layer)) {
    if (program_->switches.size() > 31) throw std::length_error("more than 31 switches: settings are numbered in 32 bits");
    // As layer_bytes: every `when` first (layer_slots), then each held slot.
    for (const auto& [slot, part] : records.layer_slots(layer)) {
        held_.emplace_back(*program_, records.slot_id(slot), names_);
        auto it = std::find(parts_.begin(), parts_.end(), part);
        if (it == parts_.end()) it = parts_.insert(parts_.end(), part);
        part_index_.push_back(static_cast<std::size_t>(it - parts_.begin()));
    }
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
    for (std::size_t i = 0; i < held_.size(); ++i) {
        Value& acc = out[part_index_[i]].second;
        acc = py::add(acc, held_[i].price(keep, names_));
    }
    return out;
}

Value LayerSettings::total(const KeepMask& keep) const {
    Value sum = Value::real(0.0);
    for (const auto& [part, bytes] : parts(keep)) sum = py::add(sum, bytes);
    return sum;
}

}  // namespace oprec
