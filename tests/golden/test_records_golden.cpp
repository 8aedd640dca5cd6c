// Every in-scope case of records_cases.json through the library, bit for
// bit: slot bytes (under the case's switches, explicit switches, one op
// alone), the slots held, op and layer bytes, the activation evaluators.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "golden/golden_support.h"
#include "golden/records_fixture.h"
#include "model/activations.h"
#include "model/evaluator.h"
#include "value/format.h"

using nlohmann::json;
using namespace oprec;

namespace {

const json& records_cases() {
    static const json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    return cases;
}

// Compares a dict outcome ({"type": "dict", "items": [[k, v], ...]} or an error).
template <class T, class Compute>
std::string check_dict(const json& expected, Compute&& compute) {
    try {
        const Named<T> got = compute();
        if (!expected.contains("items")) return "expected " + golden::describe(expected) + ", got a dict";
        const json& items = expected["items"];
        if (items.size() != got.size()) return fmt::format("expected {} items, got {}", items.size(), got.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (items[i][0] != got[i].first) return fmt::format("item {}: expected key {}, got {}", i, items[i][0].dump(), got[i].first);
            if constexpr (std::is_same_v<T, std::string>) {
                if (items[i][1]["repr"] != got[i].second) return "value of " + got[i].first + " differs";
            } else if (!golden::matches(items[i][1], got[i].second)) {
                return fmt::format("{}: expected {}, got {}", got[i].first, golden::describe(items[i][1]),
                                   golden::describe(got[i].second));
            }
        }
        return "";
    } catch (const EvalError& e) {
        if (golden::error_matches(expected, e)) return "";
        return "expected " + golden::describe(expected) + ", got " + golden::describe(e);
    }
}

// Another op or part than those counting in `slot`.
std::string absent_op(const Program& p, const std::string& slot) {
    const SlotId s = *p.find_slot(slot);
    for (RecordId r = 0; r < p.records.size(); ++r) {
        const auto& entries = p.slots[s].entries;
        bool counts = std::any_of(entries.begin(), entries.end(), [&](const SlotEntryInfo& e) { return p.counts_for(e.record, r); });
        if (!counts) return p.records[r].name;
    }
    return "";
}

}  // namespace

TEST_CASE("records golden cases match the reference bit for bit", "[golden][records]") {
    const RecordsEvaluator records(testing::shipped_records());
    int cases = 0;
    for (const json& c : records_cases()["cases"]) {
        if (c["context"]["switches_in"] == "ctx_object_ignored") continue;  // out of scope (tests/golden/FORMAT.md)
        const LayerDoc layer = golden::layer_doc(c);
        const SwitchMap explicit_switches = golden::switch_map(c["explicit_switches"]);
        const json& out = c["outputs"];
        const std::string id = c["id"];
        ++cases;

        CHECK(check_dict<std::string>(out["layer_slots"], [&] { return records.layer_slots(layer); }) == "");
        for (const auto& item : out["slot_bytes"].items()) {
            const std::string& slot = item.key();  // not a structured binding: the lambdas capture it
            const json& expected = item.value();
            INFO(id << " slot " << slot);
            CHECK(golden::check_outcome(expected, [&] { return records.slot_bytes(layer, slot); }) == "");
            SlotQuery q;
            q.switches = &explicit_switches;
            CHECK(golden::check_outcome(out["slot_bytes_explicit"][slot], [&] { return records.slot_bytes(layer, slot, q); }) == "");
            for (const auto& [op, only_expected] : out["slot_bytes_only"][slot].items()) {
                INFO("only " << op);
                SlotQuery only;
                only.only = op;
                CHECK(golden::check_outcome(only_expected, [&] { return records.slot_bytes(layer, slot, only); }) == "");
            }
            SlotQuery absent;
            absent.only = absent_op(records.program(), slot);
            CHECK(golden::check_outcome(out["slot_bytes_only_absent"][slot], [&] { return records.slot_bytes(layer, slot, absent); }) == "");
        }
        INFO(id);
        CHECK(check_dict<Value>(out["layer_bytes"], [&] { return records.layer_bytes(layer); }) == "");
        CHECK(check_dict<Value>(out["layer_bytes_explicit"], [&] { return records.layer_bytes(layer, &explicit_switches); }) == "");
        for (const auto& item : out["op_bytes"].items()) {
            const std::string& op = item.key();  // not a structured binding: the lambda captures it
            const json& expected = item.value();
            INFO("op " << op);
            CHECK(check_dict<Value>(expected, [&] { return records.op_bytes(layer, op); }) == "");
        }
        CHECK(check_dict<Value>(out["op_bytes_unknown_op"], [&] { return records.op_bytes(layer, "noSuchOp"); }) == "");
        CHECK(golden::check_outcome(out["slot_bytes_unknown_slot"], [&] { return records.slot_bytes(layer, "noSuchSlot"); }) == "");

        const json& act = out["activations"];
        namespace A = activations;
        CHECK(golden::check_outcome(act["attn_qkv_activations"], [&] { return A::attn_qkv(records, layer); }) == "");
        CHECK(golden::check_outcome(act["attn_score_activations"], [&] { return A::attn_score(records, layer); }) == "");
        CHECK(golden::check_outcome(act["attn_proj_activations"], [&] { return A::attn_proj(records, layer); }) == "");
        CHECK(golden::check_outcome(act["ffn_activations"], [&] { return A::ffn(records, layer); }) == "");
        CHECK(golden::check_outcome(act["ffn_activations_width"], [&] { return A::ffn(records, layer, golden::ffn_width(c)); }) == "");
        CHECK(golden::check_outcome(act["ffn_router_and_concat_activations"], [&] { return A::ffn_router(records, layer); }) == "");
        CHECK(golden::check_outcome(act["shared_exp_activations"], [&] { return A::shared_experts(records, layer); }) == "");
        CHECK(golden::check_outcome(act["routed_exp_activations"], [&] { return A::routed_experts(records, layer); }) == "");
        CHECK(golden::check_outcome(act["ffn_moe_activations"], [&] { return A::ffn_moe(records, layer); }) == "");
        CHECK(golden::check_outcome(act["norm_activations"], [&] { return A::norm(records, layer); }) == "");
    }
    CHECK(cases >= 140);
}
