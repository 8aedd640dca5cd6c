#include "yaml/golden_layers.h"

#include <algorithm>

#include <fmt/format.h>

#include "golden/golden_support.h"
#include "model/activations.h"
#include "model/evaluator.h"

using nlohmann::json;

namespace oprec::testing {

namespace {

template <class Compute>
std::string dict_outcome(const json& expected, Compute&& compute) {
    try {
        const Named<Value> got = compute();
        if (!expected.contains("items")) return "expected " + golden::describe(expected) + ", got a dict";
        const json& items = expected["items"];
        if (items.size() != got.size()) return fmt::format("expected {} items, got {}", items.size(), got.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            if (items[i][0] != got[i].first || !golden::matches(items[i][1], got[i].second))
                return fmt::format("{}: expected {}, got {}", got[i].first, golden::describe(items[i][1]),
                                   golden::describe(got[i].second));
        return "";
    } catch (const EvalError& e) {
        return golden::error_matches(expected, e) ? "" : "expected " + golden::describe(expected) + ", got " + golden::describe(e);
    }
}

}  // namespace

GoldenRun price_golden_layers(const Program& program) {
    static const json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    const RecordsEvaluator records(program);
    GoldenRun run;
    auto check = [&](const std::string& where, const std::string& differs) {
        ++run.checks;
        if (!differs.empty()) run.mismatches.push_back(where + ": " + differs);
    };
    for (const json& c : cases["cases"]) {
        if (c["context"]["switches_in"] == "ctx_object_ignored") continue;  // out of scope (FORMAT.md)
        ++run.cases;
        const LayerDoc layer = golden::layer_doc(c);
        const SwitchMap explicit_switches = golden::switch_map(c["explicit_switches"]);
        const json& out = c["outputs"];
        const std::string id = c["id"];
        for (const auto& [slot, expected] : out["slot_bytes"].items()) {
            check(id + " " + slot, golden::check_outcome(expected, [&, &slot = slot] { return records.slot_bytes(layer, slot); }));
            SlotQuery q;
            q.switches = &explicit_switches;
            check(id + " " + slot + " explicit",
                  golden::check_outcome(out["slot_bytes_explicit"][slot], [&, &slot = slot] { return records.slot_bytes(layer, slot, q); }));
            for (const auto& [op, only_expected] : out["slot_bytes_only"][slot].items()) {
                SlotQuery only;
                only.only = op;
                check(id + " " + slot + " only " + op,
                      golden::check_outcome(only_expected, [&, &slot = slot] { return records.slot_bytes(layer, slot, only); }));
            }
        }
        check(id + " layer", dict_outcome(out["layer_bytes"], [&] { return records.layer_bytes(layer); }));
        check(id + " layer explicit",
              dict_outcome(out["layer_bytes_explicit"], [&] { return records.layer_bytes(layer, &explicit_switches); }));
        for (const auto& [op, expected] : out["op_bytes"].items())
            check(id + " op " + op, dict_outcome(expected, [&, &op = op] { return records.op_bytes(layer, op); }));
        const json& act = out["activations"];
        namespace A = activations;
        check(id + " qkv", golden::check_outcome(act["attn_qkv_activations"], [&] { return A::attn_qkv(records, layer); }));
        check(id + " score", golden::check_outcome(act["attn_score_activations"], [&] { return A::attn_score(records, layer); }));
        check(id + " proj", golden::check_outcome(act["attn_proj_activations"], [&] { return A::attn_proj(records, layer); }));
        check(id + " ffn", golden::check_outcome(act["ffn_activations"], [&] { return A::ffn(records, layer); }));
        check(id + " ffn width",
              golden::check_outcome(act["ffn_activations_width"], [&] { return A::ffn(records, layer, golden::ffn_width(c)); }));
        check(id + " router", golden::check_outcome(act["ffn_router_and_concat_activations"], [&] { return A::ffn_router(records, layer); }));
        check(id + " shared", golden::check_outcome(act["shared_exp_activations"], [&] { return A::shared_experts(records, layer); }));
        check(id + " routed", golden::check_outcome(act["routed_exp_activations"], [&] { return A::routed_experts(records, layer); }));
        check(id + " moe", golden::check_outcome(act["ffn_moe_activations"], [&] { return A::ffn_moe(records, layer); }));
        check(id + " norm", golden::check_outcome(act["norm_activations"], [&] { return A::norm(records, layer); }));
    }
    return run;
}

}  // namespace oprec::testing
