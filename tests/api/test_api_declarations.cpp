// What the API says of the records as declared (slots, ops, the schema, the
// files a load read) and of a layer beyond its bytes (the names
// it may state, its switches, a name's value, each entry with its error):
// what the REPL (src/repl) is written with, and an editor or a notebook
// showing records would be.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "oprec/oprec.h"
#include "support/temp_dir.h"

using namespace oprec;

namespace {

Records shipped() {
    RecordsOptions options;
    options.data_dir = OPREC_TEST_DATA "/..";
    return Records::load(OPREC_TEST_DATA "/../records/op_records.rec", options);
}

Layer llama(const Records& records) { return records.layer_file(OPREC_TEST_DATA "/../examples/llama2-7b.json"); }

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

TEST_CASE("a slot as declared: part, when, entries, place and text", "[api]") {
    const Records records = shipped();
    const SlotDecl score = records.slot_decl("score");
    CHECK(score.part == "attention");
    CHECK_FALSE(score.when);
    CHECK(score.entries == std::vector<std::string>{"softmax", "dropout", "headCast"});
    CHECK(score.where.line == 66);
    CHECK(score.where.col == 6);  // the slot's name
    CHECK(score.where.file.find("op_records.rec") != std::string::npos);
    // The comment above it, the header, the body, the closing brace.
    REQUIRE(score.lines.size() == 7);
    CHECK(score.first_line == 65);
    CHECK(score.lines.front().rfind("# The scores' softmax", 0) == 0);
    CHECK(score.lines[1] == "slot score in attention {");
    CHECK(score.lines.back() == "}");

    const SlotDecl ffn = records.slot_decl("ffn");
    CHECK(ffn.when == std::optional<std::string>("n_exp == 1"));
    CHECK(ffn.first_line == 80);  // two comment lines above it

    try {
        records.slot_decl("qvk");
        FAIL("an unknown slot was taken");
    } catch (const PricingError& e) {
        CHECK(e.kind() == PricingError::Kind::UnknownSlot);
    }
}

TEST_CASE("an op as declared: its switch and the op a part belongs to", "[api]") {
    const Records records = shipped();
    CHECK(records.op_decl("softmax").switch_name == std::optional<std::string>("softmax"));
    CHECK_FALSE(records.op_decl("attMM").switch_name);
    CHECK_FALSE(records.op_decl("attMM").part_of);
    const OpDecl up = records.op_decl("attUp");
    CHECK(up.part_of == std::optional<std::string>("attMM"));
    CHECK(up.switch_name == std::optional<std::string>("attUp"));
    CHECK_THROWS_AS(records.op_decl("softmx"), PricingError);
}

TEST_CASE("the schema and the files a load read", "[api]") {
    const Records records = shipped();
    const auto& schema = records.schema();
    const auto field = [&](const std::string& name) {
        return std::find_if(schema.begin(), schema.end(), [&](const FieldDecl& f) { return f.name == name; });
    };
    REQUIRE(field("t") != schema.end());
    CHECK(field("t")->types == std::vector<std::string>{"int"});
    CHECK_FALSE(field("t")->context);
    REQUIRE(field("micro_factor") != schema.end());
    CHECK(field("micro_factor")->context);
    REQUIRE(field("cp_algo") != schema.end());
    CHECK(contains(field("cp_algo")->types, "str"));

    // The records and their imports, imports first.
    std::vector<std::string> names;
    for (const auto& f : records.files()) names.push_back(f.filename().string());
    CHECK(names.back() == "op_records.rec");
    CHECK(contains(names, "vocabulary.rec"));

    testing::TempDir dir;
    RecordsOptions options;
    options.data_dir = OPREC_TEST_DATA "/..";

    // A load that fails still says which files it read (what to watch for a fix).
    const auto bad = dir.write("bad.rec", "import \"vocabulary.rec\"\nslot s in attention {\n");
    try {
        Records::load(bad, options);
        FAIL("the records loaded");
    } catch (const RecordsError& e) {
        CHECK_FALSE(e.files().empty());
        CHECK(e.files().back().filename() == "bad.rec");
    }
}

TEST_CASE("a layer's settable names, switches, values and entries", "[api]") {
    const Records records = shipped();
    Layer layer = llama(records);
    const std::vector<std::string> names = layer.field_names();
    CHECK(contains(names, "t"));
    CHECK(contains(names, "hff"));
    CHECK_FALSE(contains(names, "micro_factor"));
    CHECK_FALSE(contains(names, "kv_shards"));
    for (const std::string& n : names) CHECK_FALSE(layer.unknown_field(n));

    CHECK_FALSE(layer.switch_state("softmax"));  // stated nowhere: kept
    layer.set_switch("softmax", false);
    CHECK(layer.switch_state("softmax") == std::optional<bool>(false));
    layer.set_switch("softmax", std::nullopt);
    CHECK_FALSE(layer.switch_state("softmax"));

    CHECK(layer.read("t")->repr() == "4");
    CHECK(layer.read("micro_factor")->repr() == "1");
    CHECK(layer.read("kv_shards")->repr() == "1");
    CHECK(layer.read("n_qknorm")->repr() == "0");  // the records' default
    CHECK_FALSE(layer.read("no_such_name"));
    layer.set("cp_algo", Field(std::string("ulysses_cp")));
    CHECK_THROWS_AS(layer.read("cp_algo"), PricingError);  // a string used as a number

    CHECK(layer.holds("ffn"));
    CHECK_FALSE(layer.holds("routed"));

    layer.set_recompute(Recompute::Selective);
    layer.set_switch("softmax", false);
    const std::vector<EntryElements> score = layer.entry_elements("score");
    REQUIRE(score.size() == 3);
    CHECK(score[0].op == "softmax");
    CHECK_FALSE(score[0].kept);
    CHECK(score[2].kept);
    CHECK(score[0].elements->repr() == "4");
    // An entry that raises keeps its error in its place; the others are priced.
    layer.erase("bytes_softmax");
    layer.set("bytes_softmax", Field(std::monostate{}));
    const std::vector<EntryElements> broken = layer.entry_elements("score");
    CHECK(broken[0].error);
    CHECK_FALSE(broken[0].elements);
    CHECK(broken[2].elements);
}

TEST_CASE("a PricingError a lookup throws is raised at the name's place", "[api]") {
    const Expression expr = Expression::parse("h * mystery", "<input>");
    try {
        expr.evaluate([](std::string_view name) -> std::optional<Number> {
            if (name == "h") return Number::integer(2);
            throw PricingError(PricingError::Kind::UnboundName, "", "no value `mystery` here", {}, "no value `mystery` here");
        });
        FAIL("the lookup's error was lost");
    } catch (const PricingError& e) {
        CHECK(e.kind() == PricingError::Kind::UnboundName);
        CHECK(e.kind_name() == "unbound-name");
        CHECK(e.reason() == "no value `mystery` here");
        CHECK(e.where().line == 1);
        CHECK(e.where().col == 5);
        CHECK(e.where().end_col == 12);
    }
}

TEST_CASE("an op's bytes read every `when` first, as the reference's do", "[api]") {
    const Records records = shipped();
    Layer layer = llama(records);
    layer.erase("n_exp");  // the ffn slots' `when`s read it
    // attMM is kept in no ffn slot, yet its bytes raise: layer_slots runs first.
    CHECK_THROWS_AS(layer.op("attMM"), PricingError);
    CHECK_THROWS_AS(layer.held_slots(), PricingError);
}

TEST_CASE("a layer carried over to other records keeps what it states", "[api]") {
    const Records records = shipped();
    Layer layer = llama(records);
    layer.set("h", Number::real(std::numeric_limits<double>::infinity()));  // not a JSON number
    layer.set_recompute(Recompute::Selective);
    layer.set_switch("softmax", false);
    layer.set("micro_factor", std::int64_t{3});
    const Layer carried = shipped().layer(layer);
    CHECK(carried.document_json() == layer.document_json());
    CHECK(carried.read("h")->repr() == "inf");
    CHECK(carried.slot("score").identical(layer.slot("score")));
}

TEST_CASE("a slot's `when` as written, however the header is spelt", "[api]") {
    std::string text = testing::read_text(OPREC_TEST_DATA "/../records/op_records.rec");
    const std::string header = "slot router in ffn when n_exp != 1 {";
    REQUIRE(text.find(header) != std::string::npos);
    text.replace(text.find(header), header.size(), "slot router in ffn when(n_exp != 1){  # {a comment}");
    testing::TempDir dir;
    RecordsOptions options;
    options.data_dir = OPREC_TEST_DATA "/..";
    const Records records = Records::load(dir.write("op_records.rec", text), options);
    CHECK(records.slot_decl("router").when == std::optional<std::string>("(n_exp != 1)"));
    CHECK(records.slot_decl("routed").when == std::optional<std::string>("n_exp != 1"));
}
