// oprec import and export: the golden layers priced from the reference's
// YAML imported as .rec, and from the shipped records exported to YAML and
// imported back, identical to the bit; export(import(y)) loads to y's records.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "check/loader.h"
#include "format/format.h"
#include "format/print.h"
#include "golden/records_fixture.h"
#include "convert/convert.h"
#include "support/temp_dir.h"
#include "yaml/golden_layers.h"
#include "yaml/records_yaml.h"

using namespace oprec;

namespace {

// What `oprec import` writes for YAML records.
std::string imported(const std::string& yaml_text) {
    LoadResult r = load_text(yaml_text, "records.yaml", testing::shipped_options());
    REQUIRE(r.ok());
    const ast::Module& m = r.modules.back();
    const format::Formatted f = format::format_source(yaml::rec_from_yaml(m, r.sources.file(m.file)), "records.rec");
    REQUIRE(f.ok());
    return *f.text;
}

// What `oprec export` writes for .rec records.
std::string exported(const std::string& rec_text) {
    LoadResult r = load_text(rec_text, OPREC_SOURCE_DIR "/records/op_records.rec", testing::shipped_options());
    REQUIRE(r.ok());
    return yaml::yaml_from_rec(r.modules, *r.program, "op_records.rec");
}

Program loaded(const std::string& text, const std::string& name) {
    return load_records_text(text, name, testing::shipped_options());
}

// A YAML file's records as our AST, written canonically (spans aside).
std::string yaml_records(const std::string& text) {
    SourceMap sources;
    std::vector<Diagnostic> diags;
    const ast::Module m = yaml::read_records(sources, sources.add("r.yaml", text), diags);
    REQUIRE(diags.empty());
    return format::module_source(m);
}

void require_golden(const Program& p) {
    const testing::GoldenRun run = testing::price_golden_layers(p);
    INFO((run.mismatches.empty() ? "" : run.mismatches.front()));
    CHECK(run.mismatches.empty());
    CHECK(run.cases >= 140);
}

const std::string& reference_yaml() {
    static const std::string text = testing::read_text(OPREC_TEST_DATA "/yaml/op_records.yaml");
    return text;
}

}  // namespace

TEST_CASE("the reference's YAML imported as .rec prices the golden layers to the bit", "[yaml][golden][import]") {
    const std::string rec = imported(reference_yaml());
    require_golden(loaded(rec, "imported.rec"));
    // Laid out by fmt, the YAML's comments kept, declarations in the records' order.
    CHECK(format::format_source(rec, "imported.rec").text == rec);
    CHECK(rec.find("# The query heads and the key and value heads an MLA layer's\n") != std::string::npos);
    CHECK(rec.find("op attMM\nop attBMM switch attBMM needs attMM\n") != std::string::npos);
    CHECK(rec.find("slot qkv") < rec.find("slot score"));
}

TEST_CASE("the shipped records exported and imported back price the golden layers to the bit", "[yaml][golden][export]") {
    const std::string yaml_text = exported(testing::read_text(OPREC_SOURCE_DIR "/records/op_records.rec"));
    CHECK(yaml_text.find("ffn_elements") == std::string::npos);  // the fn written out inline
    CHECK(yaml_text.find("      ffMM: (0.5 * h + 0.5 * hff if n_ffMM % 2 == 0 else 1 / 3 * h + 2 / 3 * hff) * "
                         "(bytes_compute * n_ffMM) + bytes_compute * hff * n_ffParamCast\n") != std::string::npos);
    require_golden(loaded(yaml_text, "exported.yaml"));
    require_golden(loaded(imported(yaml_text), "reimported.rec"));
}

TEST_CASE("export(import(y)) loads to the same records as y", "[yaml][export][import]") {
    for (const char* file : {"/yaml/op_records.yaml", "/yaml/op_records_no_parts.yaml"}) {
        INFO(file);
        const std::string y = testing::read_text(std::string(OPREC_TEST_DATA) + file);
        const std::string again = exported(imported(y));
        CHECK(yaml_records(again) == yaml_records(y));
    }
}

TEST_CASE("export writes what PyYAML reads as the reference does", "[yaml][export]") {
    // Fns, a negative and a float default, an expression YAML would type as a number.
    const std::string rec = testing::read_text(OPREC_SOURCE_DIR "/records/op_records.rec") +
                            "\ndefault f_neg = -2\ndefault f_big = 1e300\n";
    std::string text = rec;
    const std::string yaml_text = exported(text);
    CHECK(yaml_text.find("  f_neg: -2\n") != std::string::npos);
    CHECK(yaml_text.find("  f_big: 1.0e+300\n") != std::string::npos);  // YAML 1.1 wants the dot
    CHECK(yaml_text.find("comm: true") != std::string::npos);
    const Program back = loaded(yaml_text, "exported.yaml");
    CHECK(back.defaults[*back.find_name("f_big")]->f == 1e300);
}

TEST_CASE("export: a fn's parameter never captures a name of the fn it calls", "[yaml][export]") {
    // In inner, h is the layer's field; outer's parameter h is another h.
    std::string rec = testing::read_text(OPREC_SOURCE_DIR "/records/op_records.rec") +
                      "\nfn inner(x) = x + h\nfn outer(h) = inner(1)\n";
    const std::string entry = "    normOp = h * n_normOp";
    REQUIRE(rec.find(entry) != std::string::npos);
    rec.replace(rec.find(entry), entry.size(), "    normOp = outer(2) * n_normOp");
    const std::string yaml_text = exported(rec);
    CHECK(yaml_text.find("normOp: (1 + h) * n_normOp") != std::string::npos);
    CHECK(yaml_text.find("1 + 2") == std::string::npos);
}

TEST_CASE("export: names YAML 1.1 reads as a bool or null are quoted", "[yaml][export]") {
    std::string rec = testing::read_text(OPREC_SOURCE_DIR "/records/op_records.rec") +
                      "\nfield null : int, \"\", \"x\"\ndefault on = 1\ndefault Yes = 2\n"
                      "slot z in norm when null {\n    bytes = total + on + Yes\n    normOp = 1000000\n}\n";
    const std::string yaml_text = exported(rec);
    CHECK(yaml_text.find("  \"on\": 1\n") != std::string::npos);
    CHECK(yaml_text.find("  \"Yes\": 2\n") != std::string::npos);
    CHECK(yaml_text.find("    when: \"null\"\n") != std::string::npos);
    // Read back, the slot still has its `when` and the defaults their names.
    const Program back = loaded(yaml_text, "exported.yaml");
    CHECK(back.find_name("on").has_value());
    CHECK(back.find_name("Yes").has_value());
}

TEST_CASE("export: the origin's line breaks cannot start YAML of their own", "[yaml][export]") {
    LoadResult r = load_text(testing::read_text(OPREC_SOURCE_DIR "/records/op_records.rec"),
                             OPREC_SOURCE_DIR "/records/op_records.rec", testing::shipped_options());
    REQUIRE(r.ok());
    const std::string yaml_text = yaml::yaml_from_rec(r.modules, *r.program, "x\ndefaults: {h: 1}\n#.rec");
    CHECK(yaml_text.substr(0, yaml_text.find('\n')) ==
          "# Op records, written by `oprec export` from x?defaults: {h: 1}?#.rec.");
}
