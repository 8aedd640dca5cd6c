// The records are data: a copy of records/op_records.rec with one more
// entry in a slot prices differently on the next load, with nothing
// rebuilt, through the library and through `oprec eval --records`.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "check/loader.h"
#include "golden/records_fixture.h"
#include "model/evaluator.h"
#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec;

namespace {

const std::string kShipped = OPREC_TEST_DATA "/../records/op_records.rec";
const std::string kLlama = OPREC_TEST_DATA "/../examples/llama2-7b.json";

LayerDoc llama() {
    std::ifstream in(kLlama);
    std::stringstream text;
    text << in.rdbuf();
    return parse_layer_doc_text(text.str(), kLlama);
}

// The copy, with `entry` added as the last entry of slot `slot`.
std::string with_entry(const std::string& records, const std::string& slot, const std::string& entry) {
    const std::size_t start = records.find("slot " + slot + " in ");
    REQUIRE(start != std::string::npos);
    const std::size_t close = records.find("\n}", start);
    REQUIRE(close != std::string::npos);
    return records.substr(0, close) + "\n    " + entry + records.substr(close);
}

double qkv(const std::filesystem::path& records_file, const LayerDoc& layer) {
    const Program p = load_records_file(records_file, testing::shipped_options());
    return RecordsEvaluator(p).slot_bytes(layer, "qkv").as_double();
}

}  // namespace

TEST_CASE("records edit: a new entry in a slot changes the next evaluation", "[records][edit]") {
    testing::TempDir dir;
    const std::string shipped = testing::read_text(kShipped);
    const auto copy = dir.write("op_records.rec", shipped);
    const LayerDoc layer = llama();

    const double before = qkv(copy, layer);
    CHECK(before == 21233664.0);

    // linrec keeps nothing in the shipped records; now it keeps h elements
    // per token in qkv: micro * s * b * bytes_compute * h / (t * cp) more.
    dir.write("op_records.rec", with_entry(shipped, "qkv", "linrec = h"));
    const double after = qkv(copy, layer);
    CHECK(after == before + 4096.0 * 1 * 2 * 4096 / (4 * 2));  // 25,427,968

    // The op now keeps something in qkv, so it is priced there alone too.
    const Program p = load_records_file(copy, testing::shipped_options());
    const RecordsEvaluator records(p);
    const auto linrec = records.op_bytes(layer, "linrec");
    REQUIRE(linrec.size() == 1);
    CHECK(linrec[0].first == "qkv");
    CHECK(linrec[0].second.as_double() == after - before);

    // The shipped records are untouched.
    CHECK(testing::read_text(kShipped) == shipped);
    CHECK(RecordsEvaluator(testing::shipped_records()).slot_bytes(layer, "qkv").as_double() == before);
}

TEST_CASE("records edit: an edit that breaks the records is reported, not priced", "[records][edit]") {
    testing::TempDir dir;
    const auto copy = dir.write("op_records.rec", with_entry(testing::read_text(kShipped), "qkv", "linrek = h"));
    const LoadResult r = load_file(copy, testing::shipped_options());
    CHECK(!r.ok());
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].code == "E0108");
    CHECK(r.diagnostics[0].message == "slot `qkv` names `linrek`, which is neither an op nor a part");
    REQUIRE(r.diagnostics[0].fix.has_value());
    CHECK(r.diagnostics[0].fix->replacement == "linrec");
}

TEST_CASE("records edit: oprec eval --records prices the edited copy, no rebuild", "[records][edit][cli]") {
    testing::TempDir dir;
    const std::string shipped = testing::read_text(kShipped);
    const auto copy = dir.write("op_records.rec", shipped);
    auto price = [&] {
        const auto run = testing::run_oprec({"eval", "--records", copy.string(), "--format", "json", kLlama});
        INFO(run.err);
        REQUIRE(run.exit_code == 0);
        return nlohmann::json::parse(run.out);
    };
    const auto before = price();
    CHECK(before["slots"]["qkv"]["bytes"] == 21233664.0);
    CHECK(before["ops"]["linrec"] == nlohmann::json::object());

    dir.write("op_records.rec", with_entry(shipped, "qkv", "linrec = h"));
    const auto after = price();
    CHECK(after["slots"]["qkv"]["bytes"] == 25427968.0);
    CHECK(after["parts"]["attention"] == before["parts"]["attention"].get<double>() + 4194304.0);
    CHECK(after["ops"]["linrec"]["qkv"] == 4194304.0);

    // A broken edit: the diagnostic on standard error, exit 2, nothing priced.
    dir.write("op_records.rec", with_entry(shipped, "qkv", "linrek = h"));
    const auto broken = testing::run_oprec({"eval", "--records", copy.string(), kLlama});
    CHECK(broken.exit_code == 2);
    CHECK(broken.out == "");
    CHECK(broken.err.find(copy.string() + ":") == 0);
    CHECK(broken.err.find("slot `qkv` names `linrek`, which is neither an op nor a part [E0108]") != std::string::npos);
}

TEST_CASE("records edit: OPREC_PATH adds folders to the import search path", "[records][edit][cli]") {
    testing::TempDir dir, lib;
    // The copy imports a file of its own, found through OPREC_PATH.
    std::string records = testing::read_text(kShipped);
    records.replace(records.find("import \"ffn.rec\""), 16, "import \"my_ffn.rec\"");
    const auto copy = dir.write("op_records.rec", records);
    lib.write("my_ffn.rec", testing::read_text(OPREC_TEST_DATA "/../stdlib/ffn.rec"));
    const auto without = testing::run_oprec({"eval", "--records", copy.string(), "--format", "json", kLlama});
    CHECK(without.exit_code == 2);
    CHECK(without.err.find("no file `my_ffn.rec` to import [E0120]") != std::string::npos);
    const auto with = testing::run_oprec({"eval", "--records", copy.string(), "--format", "json", kLlama}, "",
                                         "OPREC_PATH=" + testing::shell_quote(lib.path().string()));
    CHECK(with.exit_code == 0);
    CHECK(nlohmann::json::parse(with.out)["slots"]["ffn"]["bytes"] == 38010880.0);
}
