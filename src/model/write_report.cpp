// The report from one binding (write_report): where oracle_report binds the layer for
// every slot, op and activation (about thirty times), this evaluates each
// slot's entries once (SlotSums) and prices every mask from them.
#include <algorithm>
#include <optional>
#include <variant>

#include "eval/slot_sums.h"
#include "model/report.h"

namespace oprec {

namespace {

using Priced = std::variant<Value, EvalError>;

template <class F>
Priced attempt(F&& f) {
    try {
        return f();
    } catch (const EvalError& e) {
        return e;
    }
}

// A value priced before, or its error, written without raising it again:
// a layer that cannot be priced raises in every slot, and a throw costs
// more than the pricing.
void write(ReportWriter& out, std::string_view key, const Priced& p) {
    if (const EvalError* e = std::get_if<EvalError>(&p)) return out.error(key, *e);
    out.value(key, std::get<Value>(p));
}

// Python's routed + shared + router, evaluated as Python does: routed,
// shared, their sum, then router and the last sum; the first error met wins.
Priced moe_sum(const Priced& routed, const Priced& shared, const Priced& router) {
    for (const Priced* p : {&routed, &shared})
        if (std::holds_alternative<EvalError>(*p)) return *p;
    const Priced both = attempt([&] { return std::get<Value>(routed) + std::get<Value>(shared); });
    if (std::holds_alternative<EvalError>(both)) return both;
    if (std::holds_alternative<EvalError>(router)) return router;
    return attempt([&] { return std::get<Value>(both) + std::get<Value>(router); });
}

// layer_bytes from what the report priced anyway, in its order: the first
// `when` that raises, else each held slot in the records' order added to
// its part, the first that raises (in its pricing or its sum) raising for
// the layer. Pricing the layer again would raise its error again, and a
// throw costs more than the pricing.
std::variant<PartSums, EvalError> layer_parts(const Program& p, const std::optional<EvalError>& held_error,
                                              const std::vector<std::uint8_t>& held,
                                              const std::vector<Priced>& slot_values) {
    if (held_error) return *held_error;
    PartSums sums;
    for (SlotId s = 0; s < p.slots.size(); ++s) {
        if (!held[s]) continue;
        if (const EvalError* e = std::get_if<EvalError>(&slot_values[s])) return *e;
        try {
            sums.add(p.slots[s].layer_part, std::get<Value>(slot_values[s]));
        } catch (const EvalError& e) {
            return e;
        }
    }
    return sums;
}

}  // namespace

ReportText write_report(const RecordsEvaluator& records, const LayerDoc& layer, const Bindings& names,
                        const KeepMask& keep, const ReportQuery& options) {
    const Program& p = records.program();
    ReportWriter out(&p.sources, options.indent);
    JsonWriter& json = out.json();

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
    for (SlotId s = 0; s < p.slots.size(); ++s) slot_values.push_back(sums[s].try_price(keep, names));

    json.begin_object();
    json.key("slots");
    json.begin_object();
    for (SlotId s = 0; s < p.slots.size(); ++s) {
        json.key(p.slots[s].name);
        json.begin_object();
        json.key("part");
        json.string(p.layer_parts[p.slots[s].layer_part]);
        if (held_error) {
            out.error("held", *held_error);
        } else {
            json.key("held");
            json.boolean(held[s] != 0);
        }
        write(out, "bytes", slot_values[s]);
        json.end_object();
    }
    json.end_object();

    const auto parts = layer_parts(p, held_error, held, slot_values);
    if (const EvalError* e = std::get_if<EvalError>(&parts)) {
        out.error("parts", *e);
    } else {
        json.key("parts");
        json.begin_object();
        for (const auto& [part, bytes] : std::get<PartSums>(parts).parts()) out.value(p.layer_parts[part], bytes);
        json.end_object();
    }

    json.key("ops");
    json.begin_object();
    std::vector<std::pair<SlotId, Value>> by_slot;
    for (RecordId r = 0; r < p.records.size(); ++r) {
        if (held_error) {
            out.error(p.records[r].name, *held_error);
            continue;
        }
        const KeepMask& mask = records.only_mask(r);
        by_slot.clear();
        std::optional<EvalError> failed;  // the first slot's error stands for the op
        for (SlotId s : records.keeping_slots(r)) {
            if (!held[s]) continue;
            Priced bytes = sums[s].try_price(mask, names);
            if (auto* e = std::get_if<EvalError>(&bytes)) {
                failed = std::move(*e);
                break;
            }
            by_slot.emplace_back(s, std::get<Value>(bytes));
        }
        if (failed) {
            out.error(p.records[r].name, *failed);
            continue;
        }
        json.key(p.records[r].name);
        json.begin_object();
        for (const auto& [s, bytes] : by_slot) out.value(p.slots[s].name, bytes);
        json.end_object();
    }
    json.end_object();

    if (options.only) {
        json.key("only");
        json.begin_object();
        const Priced record = attempt([&] { return Value::integer(records.record_id(*options.only)); });
        const KeepMask* mask = nullptr;
        if (const Value* id = std::get_if<Value>(&record)) mask = &records.only_mask(static_cast<RecordId>(id->i));
        for (SlotId s = 0; s < p.slots.size(); ++s) {
            if (mask) write(out, p.slots[s].name, sums[s].try_price(*mask, names));
            else write(out, p.slots[s].name, record);
        }
        json.end_object();
    }

    write_native_values(out, layer.fields);

    // The activation evaluators are one slot each (activations.h): the slot's price.
    const auto activation = [&](std::string_view slot) -> Priced {
        const auto id = p.find_slot(slot);
        if (!id) return attempt([&] { return Value::integer(records.slot_id(slot)); });  // its error
        return slot_values[*id];
    };
    const Priced routed = activation("routed"), shared = activation("shared"), router = activation("router");
    json.key("activations");
    json.begin_object();
    write(out, "qkv", activation("qkv"));
    write(out, "score", activation("score"));
    write(out, "proj", activation("proj"));
    write(out, "ffn", activation("ffn"));
    write(out, "router", router);
    write(out, "shared", shared);
    write(out, "routed", routed);
    write(out, "moe", moe_sum(routed, shared, router));
    write(out, "norm", activation("norm"));
    json.end_object();

    json.end_object();
    return out.finish();
}

ReportText write_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options) {
    const PreparedLayer prepared(records, layer, nullptr, nullptr, /*typed=*/false);
    return write_report(records, layer, prepared.names(), prepared.keep(), options);
}

}  // namespace oprec
