#include "model/records_eval.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/attention.h"
#include "value/arith.h"

namespace oprec {

Bindings RecordsEvaluator::bind(const LayerDoc& layer, const Overrides* overrides) const {
    Bindings names(program_);
    for (NameId id = 0; id < program_.names.size(); ++id) {
        const std::string& name = program_.names[id];
        try {
            if (overrides != nullptr) {
                auto it = std::find_if(overrides->begin(), overrides->end(),
                                       [&](const auto& o) { return o.first == name; });
                if (it != overrides->end()) {
                    names.set(id, it->second);
                    continue;
                }
            }
            if (name == "micro_factor" || name == "dropless_tok_factor") {
                names.set(id, layer.context.value(name));
            } else if (name == "kv_shards") {
                names.set(id, kv_shards(layer.fields));
            } else if (program_.defaults[id] && !layer.fields.contains(name)) {
                names.set(id, *program_.defaults[id]);
            } else {
                names.set(id, layer.fields.number(name));
            }
        } catch (const EvalError& e) {
            // Reading the name raises this, if a formula ever reads it.
            names.set_error(id, e.kind(), e.what());
        }
    }
    return names;
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
    const KeepMask keep = query.only ? only_mask(program_, record_id(*query.only)) : keep_mask(layer, query.switches);
    return price_slot(program_, id, bind(layer, query.overrides), keep);
}

Named<std::string> RecordsEvaluator::layer_slots(const LayerDoc& layer) const {
    const Bindings names = bind(layer);
    Named<std::string> out;
    for (SlotId s = 0; s < program_.slots.size(); ++s)
        if (slot_holds(program_, s, names))
            out.emplace_back(program_.slots[s].name, program_.layer_parts[program_.slots[s].layer_part]);
    return out;
}

Named<Value> RecordsEvaluator::op_bytes(const LayerDoc& layer, std::string_view op) const {
    const RecordId record = record_id(op);
    const Named<std::string> held = layer_slots(layer);
    const Bindings names = bind(layer);
    const KeepMask keep = only_mask(program_, record);
    Named<Value> out;
    for (SlotId s : program_.keeps(record)) {
        const std::string& name = program_.slots[s].name;
        if (std::any_of(held.begin(), held.end(), [&](const auto& h) { return h.first == name; }))
            out.emplace_back(name, price_slot(program_, s, names, keep));
    }
    return out;
}

Named<Value> RecordsEvaluator::layer_bytes(const LayerDoc& layer, const SwitchMap* switches) const {
    // As the reference: every `when` first, then each held slot priced.
    const Named<std::string> held = layer_slots(layer);
    const Bindings names = bind(layer);
    const KeepMask keep = keep_mask(layer, switches);
    Named<Value> parts;
    for (const auto& [slot, part] : held) {
        const SlotId s = slot_id(slot);
        auto it = std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == part; });
        if (it == parts.end()) it = parts.insert(parts.end(), {part, Value::real(0.0)});  // parts.get(part, 0.0)
        it->second = py::add(it->second, price_slot(program_, s, names, keep));
    }
    return parts;
}

}  // namespace oprec
