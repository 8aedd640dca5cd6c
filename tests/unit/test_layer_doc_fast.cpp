// The layer document's fast reader (model/layer_doc_fast.h) against the
// tree reader: the same LayerDoc wherever it reads one, and a refusal (so
// that the tree reader says what is wrong) for everything the tree reader
// refuses.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "golden/golden_support.h"
#include "model/layer_json.h"
#include "model/layer.h"
#include "model/layer_doc_fast.h"

using namespace oprec;

namespace {

// A LayerDoc as text, its fields in order and every value typed.
std::string shown(const LayerDoc& doc) { return layer_doc_json(doc).dump(); }

void same_as_tree(const std::string& text) {
    INFO(text);
    const std::optional<LayerDoc> fast = read_layer_doc_fast(text);
    REQUIRE(fast);
    CHECK(shown(*fast) == shown(parse_layer_doc_text_tree(text, "doc")));
}

// Outside the fast reader's plain subset, yet a layer document: read by the tree reader.
void tree_only(const std::string& text) {
    INFO(text);
    CHECK_FALSE(read_layer_doc_fast(text));
    CHECK(shown(parse_layer_doc_text(text, "doc")) == shown(parse_layer_doc_text_tree(text, "doc")));
}

void declined(const std::string& text) {
    INFO(text);
    CHECK_FALSE(read_layer_doc_fast(text));
    CHECK_THROWS_AS(parse_layer_doc_text_tree(text, "doc"), LayerDocError);
}

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("fast layer reader: every golden and bundled layer as the tree reads it", "[model][layerdoc]") {
    const auto cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    int n = 0;
    for (const auto& c : cases["cases"]) {
        const auto doc = layer_doc_json(golden::layer_doc(c));
        same_as_tree(doc.dump());
        same_as_tree(doc.dump(2));
        ++n;
    }
    CHECK(n == 150);
    for (const char* name : {"llama2-7b", "deepseek-v3-moe", "gqa-dense", "mixtral-8x7b", "deepseek-v3-dense"})
        same_as_tree(read(std::string(OPREC_TEST_DATA "/../examples/") + name + ".json"));
}

TEST_CASE("fast layer reader: the corners the tree reader accepts", "[model][layerdoc]") {
    same_as_tree("{}");
    same_as_tree(R"({"fields": {}, "switches": null, "context": {"switches": null}})");
    same_as_tree(R"({"context": {"micro_factor": null, "dropless_tok_factor": 2.5, "node": "FULL_REC_LAYER"}})");
    same_as_tree(R"({"switches": {"attBMM": true, "softmax": 0, "": 1}, "context": {"switches": {"gather": false}}})");
    same_as_tree(R"({"fields": {"h": 1e3, "s": 4096, "x": -7, "y": 1.5E-3, "z": null, "g": true, "cp_algo": "ring"}})");
    same_as_tree(R"({"fields": {"a": -0, "b": 0.0, "c": -0.0, "d": 2.5e+300, "e": 1E-5, "f": 17976931348623157e292}})");
    same_as_tree(R"({"fields": {"big": 9223372036854775807, "low": -9223372036854775808}})");
    same_as_tree(" \n\t{\"fields\": {\"h\": 8}}\n ");
}

TEST_CASE("fast layer reader: leaves escapes, non-ASCII text and extremes to the tree reader", "[model][layerdoc]") {
    tree_only(R"({"fields": {"cp_algo": "ring\u00e9\n"}})");
    tree_only("{\"fields\": {\"cp_algo\": \"r\xc3\xa9\"}}");
    tree_only(R"({"fields": {"tiny": 1e-400}})");
}

TEST_CASE("fast layer reader: declines what the tree reader refuses", "[model][layerdoc]") {
    declined("");
    declined("[]");
    declined("{} {}");
    declined(R"({"fields": {"h": 1, "h": 2}})");
    declined(R"({"fields": {}, "fields": {}})");
    declined(R"({"context": {"node": "SEL_REC_LAYER", "node": "NOT_REC_LAYER"}})");
    declined(R"({"switches": {"softmax": 1, "softmax": 0}})");
    declined(R"({"fields": {"h": [1]}})");
    declined(R"({"fields": {"h": {"a": 1}}})");
    declined(R"({"fields": {"": 1}})");
    declined(R"({"fields": null})");
    declined(R"({"fields": {"h": 18446744073709551616}})");
    declined(R"({"fields": {"h": 9223372036854775808}})");
    declined(R"({"fields": {"h": -9223372036854775809}})");
    declined(R"({"switches": {"softmax": 2}})");
    declined(R"({"switches": {"softmax": 1.0}})");
    declined(R"({"switches": {"softmax": -1}})");
    declined(R"({"switches": {"softmax": "on"}})");
    declined(R"({"switches": []})");
    declined(R"({"context": null})");
    declined(R"({"context": {"node": "SOMETIMES"}})");
    declined(R"({"context": {"node": null}})");
    declined(R"({"context": {"micro_factor": true}})");
    declined(R"({"context": {"micro_factor": "2"}})");
    declined(R"({"context": {"other": 1}})");
    declined(R"({"layer": {}})");
    declined(R"({"fields": {"h": 1})");
    declined(R"({"fields": {"h": 1},})");
    declined(R"({"fields": {"h": 01}})");
    declined(R"({"fields": {"h": 1.}})");
    declined(R"({"fields": {"h": .5}})");
    declined(R"({"fields": {"h": +1}})");
    declined(R"({"fields": {"h": 1e}})");
    declined(R"({"fields": {"h": tru}})");
    declined(R"({"fields": {"h": 1e400}})");
    declined("{\"fields\": {\"cp_algo\": \"r\xff\"}}");
    declined(R"({"fields": {"h": "unterminated}})");
}

TEST_CASE("a float beyond a double's range is named where it stands", "[model][layerdoc]") {
    try {
        parse_layer_doc_text(R"({"fields": {"a": "1e400", "b": 1e400}})", "doc");
        FAIL("1e400 was read");
    } catch (const LayerDocError& e) {
        CHECK(std::string(e.what()) == "doc:1:32: number 1e400 is beyond a float's range");
    }
}

TEST_CASE("fast layer reader: agrees with the tree reader on mutated documents", "[model][layerdoc]") {
    // A deterministic fuzz: golden documents with bytes deleted, doubled or
    // replaced by JSON's own characters. Wherever the fast reader reads a
    // document the tree reader reads the same one; wherever the tree
    // reader refuses, the fast reader has declined; nothing else is thrown.
    const auto cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    std::vector<std::string> docs;
    for (const auto& c : cases["cases"]) docs.push_back(layer_doc_json(golden::layer_doc(c)).dump());
    static constexpr char kAlphabet[] = "{}[]:,\"\\ \n0123456789.eE+-tfnul_ax\x80";
    std::uint64_t state = 20261203;
    const auto next = [&] {  // xorshift64: the same sequence on every machine
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    int read_fast = 0, refused = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string text = docs[next() % docs.size()];
        for (int edits = 1 + static_cast<int>(next() % 3); edits > 0 && !text.empty(); --edits) {
            const std::size_t at = next() % text.size();
            const char c = kAlphabet[next() % (sizeof kAlphabet - 1)];
            switch (next() % 3) {
            case 0: text.erase(at, 1); break;
            case 1: text.insert(at, 1, c); break;
            default: text[at] = c;
            }
        }
        const std::optional<LayerDoc> fast = read_layer_doc_fast(text);
        try {
            const LayerDoc tree = parse_layer_doc_text_tree(text, "doc");
            if (fast) {
                ++read_fast;
                if (shown(*fast) != shown(tree)) FAIL("fast and tree readers differ on: " << text);
            }
        } catch (const LayerDocError&) {
            ++refused;
            if (fast) FAIL("the fast reader read what the tree reader refuses: " << text);
        }
    }
    CHECK(read_fast > 1000);  // the mutations leave many documents readable
    CHECK(refused > 1000);
}
