#include "model/report.h"

#include <fmt/format.h>

#include "model/activations.h"
#include "model/attention.h"
#include "model/params.h"

namespace oprec {

using nlohmann::ordered_json;

std::string describe_error(const EvalError& e, const SourceMap* sources) {
    std::string out;
    if (sources != nullptr && e.span().known()) out += sources->where(e.span()) + ": ";
    if (!e.context().empty()) out += "in " + e.context() + ": ";
    return out + e.what();
}

bool has_error(const ordered_json& j) {
    if (!j.is_object()) return false;
    if (j.contains("error")) return true;
    for (const auto& [key, value] : j.items())
        if (has_error(value)) return true;
    return false;
}

ordered_json error_json(const EvalError& e, const SourceMap* sources) {
    return {{"error", {{"kind", error_kind_name(e.kind())}, {"message", describe_error(e, sources)}}}};
}

void add_native_values(ordered_json& doc, const LayerConfig& f) {
    doc["params"] = {
        {"attn", value_or_error([&] { return num_params_attn(f); })},
        {"mla", value_or_error([&] { return num_params_mla(f); })},
        {"ffn", value_or_error([&] { return num_params_ffn(f); })},
        {"routed_expert", value_or_error([&] { return num_params_routed_expert(f); })},
        {"router", value_or_error([&] { return num_params_router(f); })},
        {"shared_expert", value_or_error([&] { return num_params_shared_expert(f); })},
        {"norm", value_or_error([&] { return num_params_norm(f); })},
    };
    doc["kv_shards"] = value_or_error([&] { return kv_shards(f); });
    doc["gathered_kv_bytes"] = value_or_error([&] { return gathered_kv_bytes(f); });
    doc["head_dim"] = value_or_error([&] { return head_dim(f); });
}

ordered_json layer_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options) {
    const Program& p = records.program();
    const SourceMap* src = &p.sources;
    ordered_json doc;

    std::vector<std::string> held;
    ordered_json held_or_error = value_or_error([&] {
        for (const auto& [slot, part] : records.layer_slots(layer)) held.push_back(slot);
        return Value::boolean(true);
    }, src);

    ordered_json& slots = doc["slots"] = ordered_json::object();
    for (const SlotInfo& s : p.slots) {
        ordered_json entry;
        entry["part"] = p.layer_parts[s.layer_part];
        if (held_or_error.is_object())
            entry["held"] = held_or_error;
        else
            entry["held"] = std::find(held.begin(), held.end(), s.name) != held.end();
        entry["bytes"] = value_or_error([&] { return records.slot_bytes(layer, s.name); }, src);
        slots[s.name] = std::move(entry);
    }

    try {
        ordered_json parts = ordered_json::object();
        for (const auto& [part, bytes] : records.layer_bytes(layer)) parts[part] = to_json(bytes);
        doc["parts"] = std::move(parts);
    } catch (const EvalError& e) {
        doc["parts"] = error_json(e, src);
    }

    ordered_json& ops = doc["ops"] = ordered_json::object();
    for (const RecordInfo& r : p.records) {
        try {
            ordered_json by_slot = ordered_json::object();
            for (const auto& [slot, bytes] : records.op_bytes(layer, r.name)) by_slot[slot] = to_json(bytes);
            ops[r.name] = std::move(by_slot);
        } catch (const EvalError& e) {
            ops[r.name] = error_json(e, src);
        }
    }

    if (options.only) {
        ordered_json& only = doc["only"] = ordered_json::object();
        for (const SlotInfo& s : p.slots) {
            SlotQuery q;
            q.only = options.only;
            only[s.name] = value_or_error([&] { return records.slot_bytes(layer, s.name, q); }, src);
        }
    }

    add_native_values(doc, layer.fields);

    namespace A = activations;
    doc["activations"] = {
        {"qkv", value_or_error([&] { return A::attn_qkv(records, layer); }, src)},
        {"score", value_or_error([&] { return A::attn_score(records, layer); }, src)},
        {"proj", value_or_error([&] { return A::attn_proj(records, layer); }, src)},
        {"ffn", value_or_error([&] { return A::ffn(records, layer); }, src)},
        {"router", value_or_error([&] { return A::ffn_router(records, layer); }, src)},
        {"shared", value_or_error([&] { return A::shared_experts(records, layer); }, src)},
        {"routed", value_or_error([&] { return A::routed_experts(records, layer); }, src)},
        {"moe", value_or_error([&] { return A::ffn_moe(records, layer); }, src)},
        {"norm", value_or_error([&] { return A::norm(records, layer); }, src)},
    };
    return doc;
}

}  // namespace oprec
