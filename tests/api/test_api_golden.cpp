// The public API against the tree walk: over every golden layer, the report
// a bound Layer gives is oracle_report's, to the bit (and error for error);
// a Layer changed in place prices as the same layer bound anew.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "golden/golden_support.h"
#include "golden/records_fixture.h"
#include "model/layer_json.h"
#include "model/report.h"
#include "api/debug.h"
#include "oprec/oprec.h"

namespace {

using nlohmann::ordered_json;

const nlohmann::json& cases() {
    static const nlohmann::json all = oprec::golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    return all;
}

// The shipped records from the path the tree walk's tests load them from,
// so that messages name the same file.
oprec::Records shipped() {
    oprec::RecordsOptions options;
    options.data_dir = OPREC_TEST_DATA "/..";
    static const oprec::Records records = oprec::Records::load(OPREC_TEST_DATA "/../records/op_records.rec", options);
    return records;
}

std::string doc_text(const nlohmann::json& golden_case) {
    return oprec::layer_doc_json(oprec::golden::layer_doc(golden_case)).dump();
}

// The parts, or the error's kind: what a pricing gives, comparable.
std::string parts_text(const oprec::Layer& layer) {
    try {
        std::string out;
        for (const auto& [part, bytes] : layer.parts()) out += fmt::format("{}={} ", part, bytes.repr());
        return out;
    } catch (const oprec::PricingError& e) {
        return std::string("error ") + e.kind_name();
    }
}

oprec::Value value_of(const oprec::Number& n) {
    return n.is_float() ? oprec::Value::real(n.f) : oprec::Value::integer(n.i);
}

}  // namespace

TEST_CASE("the API's report is oracle_report's over every golden layer", "[api][golden]") {
    const oprec::RecordsEvaluator evaluator(oprec::testing::shipped_records());
    const oprec::Records records = shipped();
    std::size_t compared = 0;
    for (const auto& c : cases()["cases"]) {
        const std::string text = doc_text(c);
        const oprec::LayerDoc doc = oprec::parse_layer_doc_text(text, "case");
        oprec::Layer layer = records.layer(text, "case");
        INFO(c.value("id", std::string("?")));
        CHECK(layer.report_json() == oprec::oracle_report(evaluator, doc).json);
        // Priced again (the typed run from the second pricing on): the same.
        CHECK(layer.report_json() == oprec::oracle_report(evaluator, doc).json);
        for (const std::string op : {"attMM", "softmax", "attUp", "ffAct"}) {
            oprec::ReportQuery q;
            q.only = op;
            oprec::ReportOptions o;
            o.only = op;
            CHECK(layer.report_json(o) == oprec::oracle_report(evaluator, doc, q).json);
        }
        // An op the records lack is refused, as slot(s, only) refuses it, not
        // an error in every slot's place (the oracle's report still says so).
        oprec::ReportOptions unknown;
        unknown.only = "nosuch";
        CHECK_THROWS_AS(layer.report_json(unknown), oprec::PricingError);
        ++compared;
    }
    CHECK(compared >= 150);
}

TEST_CASE("a layer changed in place prices as the layer bound anew", "[api][golden]") {
    const oprec::Records records = shipped();
    std::size_t changed = 0;
    for (const auto& c : cases()["cases"]) {
        oprec::LayerDoc doc = oprec::golden::layer_doc(c);
        oprec::Layer layer = records.layer(oprec::layer_doc_json(doc).dump(), "case");
        (void)parts_text(layer);
        (void)parts_text(layer);  // typed from here
        INFO(c.value("id", std::string("?")));
        // A strategy's names, a shape's, a switch and the context, one after another.
        const std::vector<std::pair<std::string, oprec::Field>> edits{
            {"t", oprec::Number::integer(8)},           {"cp", oprec::Number::integer(4)},
            {"cp_algo", std::string("ulysses_cp")},     {"b", oprec::Number::real(2.5)},
            {"n_exp", oprec::Number::integer(0)},       {"micro_factor", oprec::Number::integer(3)},
            {"dh", std::monostate{}},                   {"t", oprec::Number::integer(1)},
        };
        for (const auto& [field, value] : edits) {
            layer.set(field, value);
            if (field == "micro_factor")
                doc.context.micro_factor = oprec::Value::integer(3);
            else
                doc.fields.set(field, std::holds_alternative<oprec::Number>(value)
                                          ? oprec::FieldValue(value_of(std::get<oprec::Number>(value)))
                                      : std::holds_alternative<std::string>(value) ? oprec::FieldValue(std::get<std::string>(value))
                                                                                  : oprec::FieldValue(std::monostate{}));
            const oprec::Layer fresh = records.layer(oprec::layer_doc_json(doc).dump(), "fresh");
            INFO(field);
            CHECK(parts_text(layer) == parts_text(fresh));
            CHECK(layer.report_json() == fresh.report_json());
        }
        layer.set_recompute(oprec::Recompute::Selective);
        layer.set_switch("softmax", false);
        doc.context.node = oprec::NodeKind::SelRec;
        (doc.context.switches ? *doc.context.switches : doc.switches)["softmax"] = oprec::Value::integer(0);
        CHECK(parts_text(layer) == parts_text(records.layer(oprec::layer_doc_json(doc).dump(), "fresh")));
        ++changed;
    }
    CHECK(changed >= 150);
}

TEST_CASE("the API's errors say what and where", "[api]") {
    const oprec::Records records = shipped();
    SECTION("records that do not check") {
        try {
            (void)oprec::Records::from_text("slot qkv { part attention\n  = total * nosuch }\n", "bad.rec");
            FAIL("loaded");
        } catch (const oprec::RecordsError& e) {
            REQUIRE(!e.problems().empty());
            CHECK(e.problems().front().where.file == "bad.rec");
            CHECK(e.problems().front().where.line >= 1);
            CHECK(std::string(e.what()).find("bad.rec:") != std::string::npos);
        }
    }
    SECTION("a layer document that is not JSON") {
        CHECK_THROWS_WITH(records.layer("{\"fields\": {\"t\": }", "l.json"), Catch::Contains("l.json:1:"));
    }
    SECTION("an unknown switch, with a suggestion") {
        oprec::Layer layer = records.layer("{}", "empty");
        CHECK_THROWS_WITH(layer.set_switch("sofmax", true), Catch::Contains("did you mean `softmax`"));
    }
    SECTION("a pricing that reads a field the layer lacks") {
        const oprec::Layer layer = records.layer("{}", "empty");
        try {
            (void)layer.parts();
            FAIL("priced");
        } catch (const oprec::PricingError& e) {
            CHECK(e.kind() == oprec::PricingError::Kind::MissingField);
            CHECK(e.where().file.find("op_records.rec") != std::string::npos);
        }
    }
    SECTION("a report says whether every value was priced") {
        CHECK_FALSE(records.layer("{}", "empty").report().complete);
        CHECK(records.layer_file(OPREC_TEST_DATA "/../examples/llama2-7b.json").report().complete);
    }
    SECTION("a shipped record set by name, and one that is not there") {
        CHECK(oprec::Records::load("op_records").slots() == oprec::Records::shipped().slots());
        CHECK_THROWS_AS(oprec::Records::load("no-such-records"), oprec::RecordsError);
    }
}

TEST_CASE("every golden layer prices the same under each tier", "[api][golden][tier]") {
    using oprec::debug::Tier;
    const auto load = [](Tier tier) {
        oprec::RecordsOptions options;
        options.data_dir = OPREC_TEST_DATA "/..";
        return oprec::debug::load(OPREC_TEST_DATA "/../records/op_records.rec", options, tier);
    };
    const std::vector<std::pair<Tier, oprec::Records>> tiers = {
        {Tier::Auto, load(Tier::Auto)},
        {Tier::Tree, load(Tier::Tree)},
        {Tier::Registers, load(Tier::Registers)}};
    CHECK(oprec::debug::parse_tier("registers") == Tier::Registers);
    CHECK_FALSE(oprec::debug::parse_tier("straight-line"));
    CHECK_FALSE(oprec::debug::parse_tier("fast"));
    std::size_t compared = 0;
    for (const auto& c : cases()["cases"]) {
        const std::string text = doc_text(c);
        INFO(c.value("id", std::string("?")));
        std::string first;
        for (const auto& [tier, records] : tiers) {
            INFO("tier " << static_cast<int>(tier));
            oprec::Layer layer = records.layer(text, "case");
            // Three pricings: the untyped run, then (Auto) the typed one, then with t changed.
            std::string priced = parts_text(layer) + "| " + parts_text(layer);
            if (layer.field("t")) {
                layer.set("t", std::int64_t{3});
                priced += "| " + parts_text(layer);
            }
            if (first.empty()) first = priced;
            else CHECK(priced == first);
        }
        ++compared;
    }
    CHECK(compared >= 150);
}
