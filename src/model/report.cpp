#include "model/report.h"

#include "model/activations.h"
#include "model/attention.h"
#include "model/params.h"

namespace oprec {

std::string describe_error(const EvalError& e, const SourceMap* sources) {
    std::string out;
    if (sources != nullptr && e.span().known()) out += sources->where(e.span()) + ": ";
    if (!e.context().empty()) out += "in " + e.context() + ": ";
    return out + e.what();
}

void ReportWriter::error(const EvalError& e) {
    complete_ = false;
    out_.begin_object();
    out_.key("error");
    out_.begin_object();
    out_.key("kind");
    out_.string(error_kind_name(e.kind()));
    out_.key("message");
    out_.string(describe_error(e, sources_));
    out_.end_object();
    out_.end_object();
}

void write_native_values(ReportWriter& out, const LayerConfig& f) {
    JsonWriter& json = out.json();
    json.key("params");
    json.begin_object();
    out.attempt("attn", [&] { return num_params_attn(f); });
    out.attempt("mla", [&] { return num_params_mla(f); });
    out.attempt("ffn", [&] { return num_params_ffn(f); });
    out.attempt("routed_expert", [&] { return num_params_routed_expert(f); });
    out.attempt("router", [&] { return num_params_router(f); });
    out.attempt("shared_expert", [&] { return num_params_shared_expert(f); });
    out.attempt("norm", [&] { return num_params_norm(f); });
    json.end_object();
    out.attempt("kv_shards", [&] { return kv_shards(f); });
    out.attempt("gathered_kv_bytes", [&] { return gathered_kv_bytes(f); });
    out.attempt("head_dim", [&] { return head_dim(f); });
}

ReportText oracle_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options) {
    const Program& p = records.program();
    ReportWriter out(&p.sources, options.indent);
    JsonWriter& json = out.json();
    json.begin_object();

    std::vector<std::string> held;
    std::optional<EvalError> held_error;
    try {
        for (const auto& [slot, part] : records.layer_slots(layer)) held.push_back(slot);
    } catch (const EvalError& e) {
        held_error = e;
    }

    json.key("slots");
    json.begin_object();
    for (const SlotInfo& s : p.slots) {
        json.key(s.name);
        json.begin_object();
        json.key("part");
        json.string(p.layer_parts[s.layer_part]);
        if (held_error) {
            out.error("held", *held_error);
        } else {
            json.key("held");
            json.boolean(std::find(held.begin(), held.end(), s.name) != held.end());
        }
        out.attempt("bytes", [&] { return records.slot_bytes(layer, s.name); });
        json.end_object();
    }
    json.end_object();

    try {
        const Named<Value> parts = records.layer_bytes(layer);
        json.key("parts");
        json.begin_object();
        for (const auto& [part, bytes] : parts) out.value(part, bytes);
        json.end_object();
    } catch (const EvalError& e) {
        out.error("parts", e);
    }

    json.key("ops");
    json.begin_object();
    for (const RecordInfo& r : p.records) {
        try {
            const Named<Value> by_slot = records.op_bytes(layer, r.name);
            json.key(r.name);
            json.begin_object();
            for (const auto& [slot, bytes] : by_slot) out.value(slot, bytes);
            json.end_object();
        } catch (const EvalError& e) {
            out.error(r.name, e);
        }
    }
    json.end_object();

    if (options.only) {
        json.key("only");
        json.begin_object();
        for (const SlotInfo& s : p.slots) {
            SlotQuery q;
            q.only = options.only;
            out.attempt(s.name, [&] { return records.slot_bytes(layer, s.name, q); });
        }
        json.end_object();
    }

    write_native_values(out, layer.fields);

    namespace A = activations;
    json.key("activations");
    json.begin_object();
    out.attempt("qkv", [&] { return A::attn_qkv(records, layer); });
    out.attempt("score", [&] { return A::attn_score(records, layer); });
    out.attempt("proj", [&] { return A::attn_proj(records, layer); });
    out.attempt("ffn", [&] { return A::ffn(records, layer); });
    out.attempt("router", [&] { return A::ffn_router(records, layer); });
    out.attempt("shared", [&] { return A::shared_experts(records, layer); });
    out.attempt("routed", [&] { return A::routed_experts(records, layer); });
    out.attempt("moe", [&] { return A::ffn_moe(records, layer); });
    out.attempt("norm", [&] { return A::norm(records, layer); });
    json.end_object();

    json.end_object();
    return out.finish();
}

}  // namespace oprec
