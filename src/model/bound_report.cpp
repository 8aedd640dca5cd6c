// layer_report from one binding: where layer_report binds the layer for
// every slot, op and activation (about thirty times), this evaluates each
// slot's entries once (SlotSums) and prices every mask from them.
#include <algorithm>
#include <optional>

#include "eval/slot_sums.h"
#include "model/report.h"

namespace oprec {

using nlohmann::ordered_json;

namespace {

using Priced = std::variant<Value, EvalError>;

ordered_json priced_json(const Priced& p, const SourceMap* src) {
    if (const Value* v = std::get_if<Value>(&p)) return to_json(*v);
    return error_json(std::get<EvalError>(p), src);
}

template <class F>
Priced attempt(F&& f) {
    try {
        return f();
    } catch (const EvalError& e) {
        return e;
    }
}

}  // namespace

ordered_json bound_report(const RecordsEvaluator& records, const LayerDoc& layer, const Bindings& names,
                          const KeepMask& keep, const PartsOrError& parts, const ReportQuery& options) {
    const Program& p = records.program();
    const SourceMap* src = &p.sources;

    // Which slots the layer holds: every `when` in order, the first that
    // raises standing for all (as layer_slots raises it).
    std::vector<std::uint8_t> held(p.slots.size(), 0);
    std::optional<EvalError> held_error;
    try {
        for (SlotId s = 0; s < p.slots.size(); ++s) held[s] = slot_holds(p, s, names) ? 1 : 0;
    } catch (const EvalError& e) {
        held_error = e;
    }

    std::vector<SlotSums> sums;
    sums.reserve(p.slots.size());
    for (SlotId s = 0; s < p.slots.size(); ++s) sums.emplace_back(p, s, names);
    std::vector<Priced> slot_values;
    slot_values.reserve(p.slots.size());
    for (SlotId s = 0; s < p.slots.size(); ++s) slot_values.push_back(attempt([&] { return sums[s].price(keep, names); }));

    ordered_json doc;
    ordered_json& slots = doc["slots"] = ordered_json::object();
    for (SlotId s = 0; s < p.slots.size(); ++s) {
        ordered_json entry;
        entry["part"] = p.layer_parts[p.slots[s].layer_part];
        entry["held"] = held_error ? error_json(*held_error, src) : ordered_json(held[s] != 0);
        entry["bytes"] = priced_json(slot_values[s], src);
        slots[p.slots[s].name] = std::move(entry);
    }

    if (const auto* named = std::get_if<Named<Value>>(&parts)) {
        ordered_json by_part = ordered_json::object();
        for (const auto& [part, bytes] : *named) by_part[part] = to_json(bytes);
        doc["parts"] = std::move(by_part);
    } else {
        doc["parts"] = error_json(std::get<EvalError>(parts), src);
    }

    ordered_json& ops = doc["ops"] = ordered_json::object();
    for (RecordId r = 0; r < p.records.size(); ++r) {
        if (held_error) {
            ops[p.records[r].name] = error_json(*held_error, src);
            continue;
        }
        try {
            const KeepMask mask = only_mask(p, r);
            ordered_json by_slot = ordered_json::object();
            for (SlotId s : p.keeps(r))
                if (held[s]) by_slot[p.slots[s].name] = to_json(sums[s].price(mask, names));
            ops[p.records[r].name] = std::move(by_slot);
        } catch (const EvalError& e) {
            ops[p.records[r].name] = error_json(e, src);
        }
    }

    if (options.only) {
        ordered_json& only = doc["only"] = ordered_json::object();
        const Priced record = attempt([&] { return Value::integer(records.record_id(*options.only)); });
        std::optional<KeepMask> mask;
        if (const Value* id = std::get_if<Value>(&record)) mask = only_mask(p, static_cast<RecordId>(id->i));
        for (SlotId s = 0; s < p.slots.size(); ++s)
            only[p.slots[s].name] = mask ? priced_json(attempt([&] { return sums[s].price(*mask, names); }), src)
                                         : priced_json(record, src);
    }

    add_native_values(doc, layer.fields);

    // The activation evaluators are one slot each (activations.h): the slot's price.
    const auto activation = [&](std::string_view slot) {
        return attempt([&] {
            const Priced& v = slot_values[records.slot_id(slot)];
            if (const EvalError* e = std::get_if<EvalError>(&v)) throw *e;
            return std::get<Value>(v);
        });
    };
    const Priced routed = activation("routed"), shared = activation("shared"), router = activation("router");
    const Priced moe = attempt([&] {
        const auto get = [](const Priced& v) {
            if (const EvalError* e = std::get_if<EvalError>(&v)) throw *e;
            return std::get<Value>(v);
        };
        const Value a = get(routed), b = get(shared);  // Python's order: ((a + b) + c)
        const Value both = a + b;
        return both + get(router);
    });
    doc["activations"] = {
        {"qkv", priced_json(activation("qkv"), src)},     {"score", priced_json(activation("score"), src)},
        {"proj", priced_json(activation("proj"), src)},   {"ffn", priced_json(activation("ffn"), src)},
        {"router", priced_json(router, src)},             {"shared", priced_json(shared, src)},
        {"routed", priced_json(routed, src)},             {"moe", priced_json(moe, src)},
        {"norm", priced_json(activation("norm"), src)},
    };
    return doc;
}

ordered_json bound_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options) {
    const PreparedLayer prepared(records, layer, nullptr, nullptr, /*typed=*/false);
    PartsOrError parts = Named<Value>{};
    try {
        parts = prepared.layer_bytes();
    } catch (const EvalError& e) {
        parts = e;
    }
    return bound_report(records, layer, prepared.names(), prepared.keep(), parts, options);
}

}  // namespace oprec
