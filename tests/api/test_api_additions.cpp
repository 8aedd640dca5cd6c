// What the public API offers callers that hold a layer elsewhere (the Python
// package): the names the records read, their defaults, the slots a layer
// holds, the records as YAML, and one expression on its own.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "oprec/oprec.h"

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST_CASE("the records' names and defaults", "[api]") {
    const oprec::Records records = oprec::Records::shipped();
    CHECK(contains(records.names(), "t"));
    CHECK(contains(records.names(), "kv_shards"));
    CHECK(contains(records.names(), "micro_factor"));
    CHECK_FALSE(contains(records.names(), "max"));
    const auto defaults = records.defaults();
    REQUIRE(defaults.size() == 1);
    CHECK(defaults[0].first == "n_qknorm");
    CHECK(defaults[0].second.identical(oprec::Number::integer(0)));
}

TEST_CASE("held_slots reads the whens and prices nothing", "[api]") {
    const oprec::Records records = oprec::Records::shipped();
    oprec::Layer layer = records.layer_file(OPREC_TEST_DATA "/../examples/llama2-7b.json");
    const auto held = layer.held_slots();
    std::vector<std::string> names;
    for (const auto& [slot, part] : held) names.push_back(slot);
    CHECK(names == std::vector<std::string>{"qkv", "score", "proj", "ffn", "norm"});
    CHECK(held[0].second == "attention");
    layer.set("t", std::int64_t{0});  // every slot divides by t: the whens still read
    CHECK(layer.held_slots().size() == held.size());
    CHECK_THROWS_AS(layer.parts(), oprec::PricingError);
}

TEST_CASE("the records as the reference's YAML load back to the same pricing", "[api]") {
    const oprec::Records records = oprec::Records::shipped();
    const std::string yaml = records.to_yaml();
    CHECK(yaml.find("slots:") != std::string::npos);
    CHECK(yaml.find("part_of: attMM") != std::string::npos);
}

TEST_CASE("an expression on its own", "[api]") {
    const oprec::Expression e = oprec::Expression::parse("a / b if c else missing");
    CHECK(e.source() == "a / b if c else missing");
    CHECK(e.names() == std::vector<std::string>{"a", "b", "c", "missing"});
    std::vector<std::string> asked;
    const auto lookup = [&](std::string_view name) -> std::optional<oprec::Number> {
        asked.emplace_back(name);
        if (name == "missing") return std::nullopt;
        return oprec::Number::integer(name == "b" ? 2 : 1);
    };
    std::vector<std::string> reads;
    CHECK(e.evaluate(lookup, &reads).identical(oprec::Number::real(0.5)));
    CHECK(reads == std::vector<std::string>{"c", "a", "b"});  // lazily: the branch taken
    CHECK(asked == reads);

    const oprec::Expression unbound = oprec::Expression::parse("missing + 1");
    try {
        (void)unbound.evaluate(lookup);
        FAIL("evaluated");
    } catch (const oprec::PricingError& err) {
        CHECK(err.kind() == oprec::PricingError::Kind::UnboundName);
    }
    try {
        (void)oprec::Expression::parse("a.b", "e.rec");
        FAIL("parsed");
    } catch (const oprec::RecordsError& err) {
        REQUIRE_FALSE(err.problems().empty());
        CHECK(err.problems()[0].where.file == "e.rec");
        CHECK(err.problems()[0].where.col >= 1);
    }
    CHECK_THROWS_AS(oprec::Expression::parse("f(1)"), oprec::RecordsError);
}

TEST_CASE("unknown_field: the one rule of the names a layer may state", "[api]") {
    const oprec::Records records = oprec::Records::shipped();
    oprec::Layer layer = records.layer(R"({"fields": {"h": 8, "total": 2}})");
    CHECK_FALSE(layer.unknown_field("h"));             // stated
    CHECK_FALSE(layer.unknown_field("t"));             // a formula reads it
    CHECK_FALSE(layer.unknown_field("qkv_bias"));      // the schema's (the parameter counts read it)
    CHECK_FALSE(layer.unknown_field("micro_factor"));  // the context's
    CHECK_FALSE(layer.unknown_field("total"));         // stated, whatever its name
    CHECK(layer.unknown_field("kv_shards") == std::string("`kv_shards` is computed, not stated"));
    CHECK(layer.unknown_field("tt") == std::string("no field `tt` in the records' schema (did you mean `t`?)"));
    // A tie goes to the schema's name first, as before the rule was one.
    CHECK(layer.unknown_field("n_attBM") ==
          std::string("no field `n_attBM` in the records' schema (did you mean `n_attMM`?)"));
    const oprec::Layer plain = records.layer("{}");
    CHECK(plain.unknown_field("total"));  // not stated: the slots' accumulator, no field
}

TEST_CASE("doubtful_fields: a cp_algo that names no algorithm is priced as ring CP, and said", "[api]") {
    const oprec::Records records = oprec::Records::shipped();
    const auto doubts = [&](const std::string& cp_algo) {
        return records.layer(R"({"fields": {"h": 8, "cp": 4, "cp_algo": )" + cp_algo + "}}").doubtful_fields();
    };
    const std::string priced = ": priced as colossalai_cp, ring CP, as the reference does";
    const std::string known = "names no algorithm (colossalai_cp, hybrid_cp or ulysses_cp)";
    CHECK(doubts(R"("ulysess_cp")") ==
          oprec::Named<std::string>{{"cp_algo", "cp_algo 'ulysess_cp' " + known + priced + " (did you mean `ulysses_cp`?)"}});
    // The command line's names, which a document does not take, point to the document's.
    CHECK(doubts(R"("hybrid")").at(0).second == "cp_algo 'hybrid' " + known + priced + " (did you mean `hybrid_cp`?)");
    CHECK(doubts("3").at(0).second == "cp_algo 3 " + known + priced);
    for (const char* fine : {R"("ulysses_cp")", R"("hybrid_cp")", R"("hybird_cp")", R"("colossalai_cp")", R"("ring_cp")",
                             R"("ring")", "null"})
        CHECK(doubts(fine).empty());
    CHECK(records.layer(R"({"fields": {"h": 8}})").doubtful_fields().empty());
    // What it says is what the layer prices: the misspelt Ulysses as ring CP.
    oprec::Layer misspelt = records.layer(R"({"fields": {"h": 8, "cp": 4, "cp_algo": "ulysess_cp"}})");
    CHECK(misspelt.read("kv_shards")->i == 1);
    misspelt.set("cp_algo", std::string("ulysses_cp"));
    CHECK(misspelt.read("kv_shards")->i == 4);
    CHECK(misspelt.doubtful_fields().empty());
}

TEST_CASE("unread_fields: what a document states that nothing reads, by the same rule", "[api]") {
    const oprec::Records records = oprec::Records::shipped();
    const oprec::Layer layer = records.layer(
        R"({"fields": {"h": 8, "tt": 2, "qkv_bias": true, "micro_factor": 1, "kv_shards": 2, "total": 1, "zzz": 0}})");
    const oprec::Named<std::string> expected{
        {"tt", "no field `tt` in the records' schema (did you mean `t`?)"},
        {"kv_shards", "`kv_shards` is computed, not stated"},
        {"total", "no field `total` in the records' schema"},
        {"zzz", "no field `zzz` in the records' schema"}};
    CHECK(layer.unread_fields() == expected);  // in the document's order; a stated name is never its own suggestion
    // Switches the records do not have, the layer's own and the context's, by their place.
    const oprec::Layer switches = records.layer(
        R"({"switches": {"softmax": 0, "sofmax": 0}, "context": {"switches": {"attUp": 1, "zz": 1}}})");
    const oprec::Named<std::string> unknown{
        {"switches.sofmax", "no switch `sofmax` in the records (did you mean `softmax`?)"},
        {"context.switches.zz", "no switch `zz` in the records"}};
    CHECK(switches.unread_switches() == unknown);
    CHECK(layer.unread_switches().empty());
    // Records with no schema cannot tell a misspelt name: nothing is said.
    std::ifstream shipped(records.source());
    std::string text((std::istreambuf_iterator<char>(shipped)), std::istreambuf_iterator<char>());
    text.erase(text.find("import \"fields.rec\"\n"), 20);
    const oprec::Records bare = oprec::Records::from_text(text, records.source());
    CHECK(bare.layer(R"({"fields": {"h": 8, "tt": 2}})").unread_fields().empty());
}
