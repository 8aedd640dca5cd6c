#include "model/evaluator.h"

#include <algorithm>

#include <fmt/format.h>

#include "eval/code_dump.h"
#include "eval/register_types.h"
#include "model/attention.h"
#include "value/arith.h"

namespace oprec {

RecordsEvaluator::RecordsEvaluator(const Program& program)
    : program_(program), layer_code_(std::make_shared<const LayerCode>(compile_layer(program))) {
    sources_.reserve(program.names.size());
    for (NameId id = 0; id < program.names.size(); ++id) {
        const std::string& name = program.names[id];
        sources_.push_back(is_context_value(name) ? Source::Context
                           : name == "kv_shards"   ? Source::KvShards
                                                   : Source::Field);
        by_name_.emplace(name, id);
    }
    for (RecordId r = 0; r < program.records.size(); ++r) {
        only_masks_.push_back(oprec::only_mask(program, r));
        keeping_slots_.push_back(program.keeps(r));
    }
}

Bindings RecordsEvaluator::bind(const LayerDoc& layer, const Overrides* overrides) const {
    Bindings names(program_);
    // The layer's fields found once each by name (a config states a name at
    // most once), not every name searched for among them.
    std::vector<const FieldValue*> stated(program_.names.size(), nullptr);
    for (const auto& [field, value] : layer.fields.fields())
        if (auto it = by_name_.find(field); it != by_name_.end()) stated[it->second] = &value;
    for (NameId id = 0; id < program_.names.size(); ++id) {
        if (overrides != nullptr) {
            const std::string& name = program_.names[id];
            auto it = std::find_if(overrides->begin(), overrides->end(), [&](const auto& o) { return o.first == name; });
            if (it != overrides->end()) {
                names.set(id, it->second);
                continue;
            }
        }
        bind_stated(layer, id, stated[id], names);
    }
    return names;
}

void RecordsEvaluator::bind_one(const LayerDoc& layer, NameId id, Bindings& names) const {
    bind_stated(layer, id, layer.fields.find(program_.names[id]), names);
}

void RecordsEvaluator::bind_stated(const LayerDoc& layer, NameId id, const FieldValue* stated, Bindings& names) const {
    const std::string& name = program_.names[id];
    try {
        switch (sources_[id]) {
        case Source::Context: names.set(id, layer.context.value(name)); break;
        case Source::KvShards: names.set(id, kv_shards(layer.fields)); break;
        case Source::Field:
            if (const Value* v = stated != nullptr ? std::get_if<Value>(stated) : nullptr) {
                names.set(id, *v);
            } else if (program_.defaults[id] && stated == nullptr) {
                names.set(id, *program_.defaults[id]);
            } else if (stated == nullptr) {
                // Absent: no exception to make (a records file with whole-rank
                // names binds dozens the layer never states).
                names.set_missing_field(id);
            } else {
                names.set(id, layer.fields.number(name));  // raises what reading it raises
            }
            break;
        }
    } catch (const EvalError& e) {
        // Reading the name raises this, if a formula ever reads it.
        names.set_error(id, e.kind(), e.what());
    }
}

std::vector<NameId> RecordsEvaluator::names_of_field(std::string_view field) const {
    std::vector<NameId> out;
    if (auto it = by_name_.find(field); it != by_name_.end()) out.push_back(it->second);
    if (kv_shards_reads(field))
        if (auto it = by_name_.find("kv_shards"); it != by_name_.end()) out.push_back(it->second);
    return out;
}

KeepMask RecordsEvaluator::keep_mask(const LayerDoc& layer, const SwitchMap* switches) const {
    const bool selective = layer.context.node == NodeKind::SelRec;
    const SwitchMap& stated = switches != nullptr ? *switches : effective_switches(layer.context, layer.switches);
    KeepMask keep(program_.records.size(), 1);
    if (!selective) return keep;
    for (RecordId r = 0; r < program_.records.size(); ++r) {
        const auto& sw = program_.records[r].switch_id;
        if (!sw) continue;
        auto it = stated.find(program_.switches[*sw]);
        keep[r] = it == stated.end() || it->second.truthy() ? 1 : 0;
    }
    return keep;
}

SlotId RecordsEvaluator::slot_id(std::string_view slot) const {
    if (auto id = program_.find_slot(slot)) return *id;
    throw EvalError(ErrorKind::UnknownSlot, fmt::format("no slot `{}` in the records", slot));
}

RecordId RecordsEvaluator::record_id(std::string_view op) const {
    if (auto id = program_.find_record(op)) return *id;
    throw EvalError(ErrorKind::UnknownOp, fmt::format("no op or part `{}` in the records", op));
}

Value RecordsEvaluator::slot_bytes(const LayerDoc& layer, std::string_view slot, const SlotQuery& query) const {
    const SlotId id = slot_id(slot);
    const KeepMask keep = query.only ? only_mask(record_id(*query.only)) : keep_mask(layer, query.switches);
    return price_slot(program_, id, bind(layer, query.overrides), keep);
}

namespace {
Named<std::string> held_slots(const Program& p, const Bindings& names) {
    Named<std::string> out;
    for (SlotId s = 0; s < p.slots.size(); ++s)
        if (slot_holds(p, s, names)) out.emplace_back(p.slots[s].name, p.layer_parts[p.slots[s].layer_part]);
    return out;
}

Named<Value> by_part_name(const Program& p, const PartBytes& priced) {
    Named<Value> out;
    out.reserve(priced.parts.size());
    for (std::size_t k = 0; k < priced.parts.size(); ++k) out.emplace_back(p.layer_parts[priced.parts[k]], priced.bytes[k]);
    return out;
}
}  // namespace

Named<std::string> RecordsEvaluator::layer_slots(const LayerDoc& layer) const {
    return held_slots(program_, bind(layer));
}

Named<Value> RecordsEvaluator::op_bytes(const LayerDoc& layer, std::string_view op) const {
    const RecordId record = record_id(op);
    const Bindings names = bind(layer);
    const Named<std::string> held = held_slots(program_, names);
    const KeepMask& keep = only_mask(record);
    Named<Value> out;
    for (SlotId s : keeping_slots(record)) {
        const std::string& name = program_.slots[s].name;
        if (std::any_of(held.begin(), held.end(), [&](const auto& h) { return h.first == name; }))
            out.emplace_back(name, price_slot(program_, s, names, keep));
    }
    return out;
}

Named<Value> RecordsEvaluator::layer_bytes(const LayerDoc& layer, const SwitchMap* switches) const {
    // As the reference: every `when` first, then each held slot priced.
    PartBytes priced;
    price_layer(*layer_code_, program_, bind(layer), keep_mask(layer, switches), priced, nullptr, tier_);
    return by_part_name(program_, priced);
}

PreparedLayer::PreparedLayer(const RecordsEvaluator& records, const LayerDoc& layer, const SwitchMap* switches,
                             const Overrides* overrides, bool typed)
    : program_(&records.program()),
      layer_code_(records.layer_code_),
      tier_(records.tier()),
      names_(records.bind(layer, overrides)),
      keep_(records.keep_mask(layer, switches)) {
    if (typed) make_typed();
}

void PreparedLayer::make_typed() {
    typed_.reset();
    pins_held_ = true;
    if (layer_code_->registers && names_.all_bound()) {
        typed_ = specialise(*layer_code_->registers, names_.values(), keep_.data(), /*pin=*/true);
        typed_for_ = names_.type_changes();
        typed_keep_ = keep_;
        pinned_.assign(program_->names.size(), 0);
        if (typed_)
            for (const RegisterPin& pin : typed_->pins) pinned_[pin.name] = 1;
    }
}

void PreparedLayer::set_name(NameId name, Value v) {
    names_.set(name, v);
    if (name < pinned_.size() && pinned_[name]) pins_held_ = pins_hold(*typed_, names_.values());
}

void PreparedLayer::rebind(const RecordsEvaluator& records, const LayerDoc& layer, NameId name) {
    records.bind_one(layer, name, names_);
    if (typed_ && name < pinned_.size() && pinned_[name]) pins_held_ = names_.all_bound() && pins_hold(*typed_, names_.values());
}

Named<Value> PreparedLayer::layer_bytes() const {
    PartBytes priced;
    price(priced);
    return by_part_name(*program_, priced);
}

std::string PreparedLayer::dump_code() const {
    return dump_layer_code(*layer_code_, *program_, typed_ ? &*typed_ : nullptr);
}

}  // namespace oprec
