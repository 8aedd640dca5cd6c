// The reference's YAML op records: loaded into the same program as .rec,
// priced to the same bits, and refused, at the YAML's line:col, where the
// reference's loader refuses them (and where .rec would).
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "check/loader.h"
#include "golden/golden_support.h"
#include "golden/records_fixture.h"
#include "model/evaluator.h"
#include "support/temp_dir.h"
#include "yaml/golden_layers.h"

using namespace oprec;

namespace {

const std::string& reference_yaml() {
    static const std::string text = testing::read_text(OPREC_TEST_DATA "/yaml/op_records.yaml");
    return text;
}

// The reference's records with `from` replaced by `to` (which must be there).
std::string edited(const std::string& from, const std::string& to) {
    std::string text = reference_yaml();
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::string first_error(const std::string& text) {
    LoadResult r = load_text(text, "records.yaml", testing::shipped_options());
    REQUIRE_FALSE(r.ok());
    REQUIRE_FALSE(r.diagnostics.empty());
    const Diagnostic& d = r.diagnostics.front();
    return r.sources.where(d.span) + " " + d.code;
}

}  // namespace

TEST_CASE("the reference's YAML prices the golden layers to the bit", "[yaml][golden]") {
    const Program records = load_records_file(OPREC_TEST_DATA "/yaml/op_records.yaml", testing::shipped_options());
    const testing::GoldenRun run = testing::price_golden_layers(records);
    INFO((run.mismatches.empty() ? "" : run.mismatches.front()));
    CHECK(run.mismatches.empty());
    CHECK(run.cases >= 140);
    CHECK(run.checks > 5000);
}

TEST_CASE("the YAML loads to the shipped records' program", "[yaml]") {
    const Program yaml = load_records_file(OPREC_TEST_DATA "/yaml/op_records.yaml", testing::shipped_options());
    const Program& rec = testing::shipped_records();
    REQUIRE(yaml.records.size() == rec.records.size());
    for (std::size_t i = 0; i < rec.records.size(); ++i) {
        CHECK(yaml.records[i].name == rec.records[i].name);
        CHECK(yaml.records[i].switch_id == rec.records[i].switch_id);
        CHECK(yaml.records[i].needs == rec.records[i].needs);
        CHECK(yaml.records[i].comm == rec.records[i].comm);
        CHECK(yaml.records[i].part_of == rec.records[i].part_of);
    }
    REQUIRE(yaml.slots.size() == rec.slots.size());
    for (std::size_t i = 0; i < rec.slots.size(); ++i) {
        CHECK(yaml.slots[i].name == rec.slots[i].name);
        CHECK(yaml.slots[i].entries.size() == rec.slots[i].entries.size());
    }
    // Spans point into the YAML: the attUp part at its key.
    const RecordInfo& att_up = yaml.records[*yaml.find_record("attUp")];
    CHECK(yaml.sources.where(att_up.span) == OPREC_TEST_DATA "/yaml/op_records.yaml:61:3");
}

TEST_CASE("a YAML without parts (no attUp) loads and prices", "[yaml]") {
    const Program old = load_records_file(OPREC_TEST_DATA "/yaml/op_records_no_parts.yaml", testing::shipped_options());
    CHECK_FALSE(old.find_record("attUp"));
    CHECK(old.records.size() == 10);
    const RecordsEvaluator priced(old), shipped(testing::shipped_records());
    const auto cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    int same = 0, differ = 0;
    for (const auto& c : cases["cases"]) {
        if (c["context"]["switches_in"] == "ctx_object_ignored") continue;
        const LayerDoc layer = golden::layer_doc(c);
        std::string a, b;
        try {
            for (const auto& [part, v] : priced.layer_bytes(layer)) a += part + golden::describe(v);
            for (const auto& [part, v] : shipped.layer_bytes(layer)) b += part + golden::describe(v);
        } catch (const EvalError&) {
            continue;
        }
        // Only an MLA layer's up-projected heads (attUp) tell the two apart.
        const bool mla = c["config"].value("dc_kv", 0) != 0;
        if (!mla) CHECK(a == b);
        (a == b ? same : differ) += 1;
    }
    CHECK(same > 50);
    CHECK(differ > 0);
}

TEST_CASE("YAML the reference's loader refuses, at its line:col", "[yaml][diagnostics]") {
    // Each: what is edited into the reference's records, and the first error.
    struct Refusal {
        const char* from;
        const char* to;
        const char* error;
    };
    const Refusal refusals[] = {
        // an extra top-level key ("unknown keys")
        {"defaults:\n", "extra: 1\ndefaults:\n", "records.yaml:24:1 E0151"},
        // an unknown key in an op
        {"  attMM:\n    needs: []", "  attMM:\n    needz: []", "records.yaml:28:5 E0151"},
        // a file missing an op ("missing"): said at `ops:`
        {"  linrec:\n    needs: [attMM]\n", "", "records.yaml:26:1 E0104"},
        // an op the op vector does not have
        {"  linrec:\n    needs: [attMM]\n", "  linrec:\n    needs: [attMM]\n  brain:\n    needs: []\n",
         "records.yaml:55:3 E0103"},
        // attMM naming switch attMM ("switch")
        {"  attMM:\n    needs: []", "  attMM:\n    switch: attMM\n    needs: []", "records.yaml:28:13 E0105"},
        // a formula not reading total ("total")
        {"formula: micro_factor * total / (t * cp)", "formula: micro_factor / (t * cp)", "records.yaml:141:14 E0109"},
        // attribute access ("Attribute")
        {"attBMM: n_attBMM * dh", "attBMM: n_attBMM * ccfg.dh", "records.yaml:85:30 E0001"},
        // a call of other than max or min ("max or min")
        {"attBMM: n_attBMM * dh", "attBMM: open(dh)", "records.yaml:85:15 E0111"},
        // a string constant ("not a number")
        {"attBMM: n_attBMM * dh", "attBMM: n_attBMM * 'x'", "records.yaml:85:26 E0110"},
        // a string inside a folded formula, on its second line
        {"n_exp * dropless_tok_factor)", "n_exp * 'x')", "records.yaml:120:54 E0110"},
        // a default that is not a number: a quoted string, a name
        {"n_qknorm: 0", "n_qknorm: '0'", "records.yaml:25:13 E0115"},
        {"n_qknorm: 0", "n_qknorm: h", "records.yaml:25:13 E0115"},
        // part "brain" ("part")
        {"part: norm", "part: brain", "records.yaml:146:11 E0106"},
        // not YAML
        {"  attMM:\n    needs: []", "  attMM:\n    needs: [attMM", "records.yaml:29:9 E0150"},
        // the wrong shape: needs not a list, comm not a bool, a slot with no formula
        {"    switch: attBMM\n    needs: [attMM]", "    switch: attBMM\n    needs: attMM", "records.yaml:31:12 E0152"},
        {"    comm: true", "    comm: maybe", "records.yaml:47:11 E0152"},
        {"    formula: micro_factor * (s * b * bytes_norm * total) / (t * cp)\n", "", "records.yaml:145:3 E0152"},
        // where .rec would refuse too: a key twice, a part of no op, a name that is not one
        {"  attBMM:\n    switch: attBMM", "  attBMM:\n    switch: attBMM\n    switch: attBMM", "records.yaml:31:5 E0101"},
        {"    part_of: attMM", "    part_of: attNN", "records.yaml:62:14 E0107"},
        {"  headCast:\n", "  head-Cast:\n", "records.yaml:38:3 E0152"},
    };
    for (const Refusal& r : refusals) {
        INFO(r.from << " -> " << r.to);
        CHECK(first_error(edited(r.from, r.to)) == r.error);
    }
}

TEST_CASE("a misspelt YAML key is offered the right one", "[yaml][diagnostics]") {
    LoadResult r = load_text(edited("    formula: micro_factor * total / (t * cp)", "    formla: micro_factor * total / (t * cp)"),
                             "records.yaml", testing::shipped_options());
    REQUIRE_FALSE(r.diagnostics.empty());
    REQUIRE(r.diagnostics.front().fix);
    CHECK(r.diagnostics.front().fix->replacement == "formula");
}

TEST_CASE("YAML records: a second document is refused where it starts", "[yaml][limits]") {
    // The reference's loader reads one document; the second was silently ignored.
    const std::string text = reference_yaml() + "---\nops:\n  extra: {}\n";
    const auto lines = std::count(reference_yaml().begin(), reference_yaml().end(), '\n');
    CHECK(first_error(text) == "records.yaml:" + std::to_string(lines + 1) + ":1 E0152");
    // A leading `---` opens the first document, not a second.
    LoadResult one = load_text("---\n" + reference_yaml(), "records.yaml", testing::shipped_options());
    CHECK(one.ok());
}

TEST_CASE("YAML records: .nan and .inf are named, not a syntax error", "[yaml][limits]") {
    const std::string text = edited("  n_qknorm: 0", "  n_qknorm: .nan");
    LoadResult r = load_text(text, "records.yaml", testing::shipped_options());
    REQUIRE_FALSE(r.ok());
    const Diagnostic& d = r.diagnostics.front();
    CHECK(d.message == "`.nan` is YAML's not-a-number: a default must be a finite number or a formula");
    CHECK(r.sources.where(d.span) == "records.yaml:25:13");
    CHECK(first_error(edited("  n_qknorm: 0", "  n_qknorm: -.inf")) == "records.yaml:25:13 E0152");
}

TEST_CASE("YAML records: a stray `,` is refused where it is, not a hang", "[yaml][limits]") {
    // yaml-cpp 0.7 loops for ever, growing, on a `,` where a node starts
    // outside a flow collection (found by fuzz/run: yaml_records).
    const std::vector<std::pair<std::string, std::string>> stalls{
        {",", "records.yaml:1:1"},
        {"- a\n,", "records.yaml:2:1"},
        {"{a: 1},", "records.yaml:1:7"},
        {edited("defaults:", ",# a comma before the records\ndefaults:"), "records.yaml:24:1"},
    };
    for (const auto& [text, where] : stalls) {
        INFO(text.substr(0, 40));
        LoadResult r = load_text(text, "records.yaml", testing::shipped_options());
        REQUIRE_FALSE(r.ok());
        const Diagnostic& d = r.diagnostics.front();
        CHECK(d.code == std::string("E0150"));
        CHECK(d.message == "not YAML: a `,` outside a flow collection (`[...]` or `{...}`), where a value should start");
        CHECK(r.sources.where(d.span) == where);
    }
    // A comma inside a flow collection, or inside a plain scalar, is YAML.
    CHECK(load_text(edited("    needs: [attBMM]", "    needs: [attBMM, ]"), "records.yaml", testing::shipped_options()).ok());
}

TEST_CASE("YAML records: .inf is named infinity, a default past a float's range refused", "[yaml][limits]") {
    LoadResult inf = load_text(edited("  n_qknorm: 0", "  n_qknorm: .inf"), "records.yaml", testing::shipped_options());
    REQUIRE_FALSE(inf.ok());
    CHECK(inf.diagnostics.front().message == "`.inf` is YAML's infinity: a default must be a finite number or a formula");
    // Python reads it as inf, which export could not write back.
    LoadResult big = load_text(edited("  n_qknorm: 0", "  n_qknorm: 1.0e+400"), "records.yaml", testing::shipped_options());
    REQUIRE_FALSE(big.ok());
    CHECK(big.diagnostics.front().message == "`1.0e+400` is beyond a float's range: a default must be a finite number");
    CHECK(big.sources.where(big.diagnostics.front().span) == "records.yaml:25:13");
}
