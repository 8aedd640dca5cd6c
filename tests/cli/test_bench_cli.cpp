// `oprec bench`: the layer's pricing, each held slot and every switch
// setting timed through the public API; a layer that cannot be priced is
// reported, not timed; bad input is refused before anything runs.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support/process.h"

using nlohmann::json;
using oprec::testing::run_oprec;

TEST_CASE("oprec bench: every held slot and all switch settings, as JSON", "[cli][bench]") {
    const auto r = run_oprec({"bench", OPREC_SOURCE_DIR "/examples/deepseek-v3-moe.json", "--time", "0.01",
                              "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const json doc = json::parse(r.out);
    CHECK(doc["layer_ns"].get<double>() > 0);
    // The MoE layer holds its experts' and router's slots, not the dense ffn.
    for (const char* slot : {"qkv", "score", "proj", "routed", "shared", "router", "norm"}) {
        INFO(slot);
        REQUIRE(doc["slots_ns"].contains(slot));
        CHECK(doc["slots_ns"][slot].get<double>() > 0);
    }
    CHECK_FALSE(doc["slots_ns"].contains("ffn"));
    CHECK(doc["switch_settings"] == 256);
    CHECK(doc["all_switch_settings_ns"].get<double>() > 0);
}

TEST_CASE("oprec bench: the table names the calls it times", "[cli][bench]") {
    const auto r = run_oprec({"bench", "--time", "0.01"});  // the bundled llama2-7b example
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("NOT_REC_LAYER layer, 5 slots held") != std::string::npos);
    CHECK(r.out.find("Layer::parts") != std::string::npos);
    CHECK(r.out.find("slot qkv") != std::string::npos);
    CHECK(r.out.find("all 256 switch settings") != std::string::npos);
}

TEST_CASE("oprec bench: a layer that cannot be priced, a bad document, a bad edit", "[cli][bench]") {
    // No `h`: the qkv slot reads it.
    const auto unpriced = run_oprec({"bench", "-", "--time", "0.01"}, R"({"fields": {"s": 4096}})");
    CHECK(unpriced.exit_code == 1);
    CHECK(unpriced.err.find("the layer cannot be priced") != std::string::npos);
    CHECK(unpriced.out.empty());

    const auto bad = run_oprec({"bench", "-"}, "{");
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("<stdin>:") != std::string::npos);

    const auto edit = run_oprec({"bench", "--set", "tt=8", "--time", "0.01"});
    CHECK(edit.exit_code == 2);
    CHECK(edit.err.find("did you mean `t`") != std::string::npos);
    // A value the schema or the context refuses names the edit.
    const auto value = run_oprec({"bench", "--set", "micro_factor=abc", "--time", "0.01"});
    CHECK(value.exit_code == 2);
    CHECK(value.err.find("oprec bench: --set micro_factor=abc: context.micro_factor:") == 0);
}
