// The GPT-style families (gpt2, gpt_neox, gptj, opt, bloom, falcon, phi)
// from their bundled configs, the paper's GPT models through --hf with the
// calibrated records, and the families' knowledge as data: every fact the HF
// path takes from a model's name comes from stdlib/profiles.rec, and every
// field it derives is declared in stdlib/fields.rec.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "check/loader.h"
#include "golden/records_fixture.h"
#include "hf/load.h"
#include "hf/model.h"
#include "model/evaluator.h"
#include "support/temp_dir.h"
#include "value/arith.h"

using namespace oprec;
using oprec::hf::HfConfig;
using oprec::hf::HfModel;
using oprec::hf::Strategy;

namespace {

const std::string kRoot = OPREC_TEST_DATA "/..";

Program load_program(const std::string& records, const std::string& profiles = "profiles.rec") {
    LoadResult r = hf::load_with_profiles(records, profiles, testing::shipped_options());
    if (!r.program) throw LoadError(r.diagnostics, r.sources);
    return std::move(*r.program);
}

const Program& shipped() {
    static const Program p = load_program(kRoot + "/records/op_records.rec");
    return p;
}

const Program& calibrated() {
    static const Program p = load_program(kRoot + "/records/calibrated.rec");
    return p;
}

HfModel example(const Program& program, const std::string& name) {
    return HfModel(program, HfConfig::read(kRoot + "/examples/hf/" + name + ".json"));
}

const Value& field(const LayerDoc& l, const char* name) { return std::get<Value>(l.fields.get(name)); }
bool truth(const LayerDoc& l, const char* name) { return field(l, name).truthy(); }
std::int64_t whole(const LayerDoc& l, const char* name) { return field(l, name).i; }

}  // namespace

TEST_CASE("each GPT-style family from one real config", "[hf][families]") {
    struct Row {
        const char* config;
        const char* family;
        bool qkv_bias, o_bias, mlp_bias;
        std::int64_t norms, hff, n_kv;
    };
    const Row rows[] = {
        {"gpt2", "gpt2", true, true, true, 2, 4 * 768, 12},                 // n_inner absent: 4h
        {"gpt-neox-20b", "gpt_neox", true, true, true, 2, 24576, 64},
        {"gpt-j-6b", "gptj", false, false, true, 1, 4 * 4096, 16},          // n_inner null: 4h
        {"opt-6.7b", "opt", true, true, true, 2, 16384, 32},                // ffn_dim
        {"bloom-7b1", "bloom", true, true, true, 2, 4 * 4096, 32},
        {"falcon-7b", "falcon", false, false, false, 1, 4 * 4544, 1},      // bias: false; multi_query
        {"phi-2", "phi", true, true, true, 1, 10240, 32},
    };
    for (const Row& r : rows) {
        INFO(r.config);
        const HfModel m = example(shipped(), r.config);
        CHECK(m.family().name == r.family);
        const LayerDoc l = m.layer(0, Strategy{});
        CHECK(whole(l, "n_ffMM") == 2);  // two feed-forward matmuls, no gate
        CHECK(truth(l, "norm_bias"));    // LayerNorm: weight and bias
        CHECK(truth(l, "qkv_bias") == r.qkv_bias);
        CHECK(truth(l, "o_bias") == r.o_bias);
        CHECK(truth(l, "mlp_bias") == r.mlp_bias);
        CHECK(whole(l, "layer_norms") == r.norms);
        CHECK(whole(l, "n_normOp") == r.norms);
        CHECK(whole(l, "hff") == r.hff);
        CHECK(whole(l, "n_kv") == r.n_kv);
    }
    CHECK(example(shipped(), "gpt2").layer(0, Strategy{}).fields.number("bytes_dropout").i == 1);  // the family's run
    CHECK(example(shipped(), "gpt-neox-20b").layer(0, Strategy{}).fields.number("bytes_dropout").i == 0);
}

TEST_CASE("the paper's GPT models through --hf: calibrated records give Table 2", "[hf][families][calibrated]") {
    const RecordsEvaluator records(calibrated());
    struct Paper {
        const char* config;
        std::int64_t layers, h, a, mbs;
    };
    for (const Paper& p : {Paper{"gpt-22b", 48, 6144, 64, 4}, Paper{"gpt-175b", 96, 12288, 96, 1},
                           Paper{"gpt-530b", 105, 20480, 128, 1}, Paper{"gpt-1t", 128, 25600, 160, 1}}) {
        INFO(p.config);
        const HfModel m = example(calibrated(), p.config);
        CHECK(m.family().name == "gpt2");
        CHECK(m.stack().size() == static_cast<std::size_t>(p.layers));
        for (const bool sp : {false, true}) {
            Strategy s;
            s.tp = 8;
            s.sp = sp;
            s.mbs = p.mbs;
            s.flash_attention = false;
            LayerDoc l = m.layer(0, s);
            CHECK(whole(l, "s") == 2048);                 // n_positions
            CHECK(whole(l, "bytes_compute") == 2);        // torch_dtype float16
            l.fields.set("bytes_softmax", Value::integer(2));  // the paper's fp16 softmax and norms
            l.fields.set("bytes_norm", Value::integer(2));
            Value total = Value::real(0.0);
            for (const auto& [part, b] : records.layer_bytes(l)) total = py::add(total, b);
            const double sbh = 2048.0 * static_cast<double>(p.mbs * p.h), scores = 5.0 * p.a * 2048.0 / p.h;
            const double paper = sp ? sbh / 8 * (34 + scores) : sbh * (10 + 24.0 / 8 + scores / 8);
            CHECK(total.as_double() == Approx(paper).epsilon(1e-12));
        }
    }
}

TEST_CASE("a name's facts come from the profiles: edit them and the layer follows", "[hf][families][profiles]") {
    const std::string profiles = R"(import "vocabulary.rec"
import "fields.rec"
run norm_bytes = 4
run dropout_bytes = 0
profile default {
    kind decoder = 4 2 3 1 0 2 4 1 1 0
    default kind decoder
    model qkv_bias = True matches "acme"
    model n_qknorm = 1 matches "acme_qk", "zeta"
    model shared_expert_gate = True
}
)";
    testing::TempDir dir;
    const Program program = load_program(kRoot + "/records/op_records.rec", dir.write("mine.rec", profiles).string());
    auto layer = [&](const std::string& name) {
        const std::string json = R"({"model_type": ")" + name +
                                 R"(", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
                                 "intermediate_size": 128})";
        return HfModel(program, HfConfig::parse(json, "test.json")).layer(0, Strategy{});
    };
    const LayerDoc acme = layer("acme_lm"), acme_qk = layer("acme_qk"), zeta = layer("zeta2"), other = layer("other");
    CHECK(truth(acme, "qkv_bias"));
    CHECK(whole(acme, "n_qknorm") == 0);
    CHECK(truth(acme_qk, "qkv_bias"));
    CHECK(whole(acme_qk, "n_qknorm") == 1);
    CHECK_FALSE(truth(zeta, "qkv_bias"));
    CHECK(whole(zeta, "n_qknorm") == 1);
    CHECK_FALSE(truth(other, "qkv_bias"));
    CHECK(truth(other, "shared_expert_gate"));  // the family's for every model

    // The shipped profiles: Qwen3's QK-norm and Qwen2's biases are profile data.
    const HfModel qwen3 = HfModel(shipped(), HfConfig::parse(R"({"model_type": "qwen3", "hidden_size": 64,
        "num_attention_heads": 4, "num_hidden_layers": 2, "intermediate_size": 128})", "q.json"));
    CHECK(qwen3.family().model_default("n_qknorm", "qwen3") != nullptr);
    CHECK(qwen3.family().model_default("n_qknorm", "qwen2") == nullptr);
    CHECK(qwen3.family().model_default("qkv_bias", "qwen2_moe")->value.truthy());
}

TEST_CASE("no family is recognised by name in the HF path's C++", "[hf][families][profiles]") {
    // Every profile's name and prefixes are data; none may appear as a string
    // literal in src/hf/ (where `contains(name, "qwen3")` used to be). A
    // prefix is sought as a literal's start (`"qwen3` in "qwen3_moe"); a
    // name, which is looked up whole, as a whole literal (`"vision"`, not
    // the config key "vision_config").
    std::vector<std::string> words;
    for (const OpProfile& p : shipped().profiles.families) {
        if (p.name != "default") words.push_back("\"" + p.name + "\"");
        for (const std::string& m : p.matches) words.push_back("\"" + m);
    }
    for (const auto& entry : std::filesystem::directory_iterator(kRoot + "/src/hf")) {
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        for (const std::string& w : words) {
            INFO(entry.path().filename().string() << " holds " << w);
            CHECK(text.str().find(w) == std::string::npos);
        }
    }
}

TEST_CASE("every field the HF path derives is declared in stdlib/fields.rec", "[hf][families][schema]") {
    std::set<std::string> schema;
    for (const FieldInfo& f : shipped().fields)
        if (!f.context) schema.insert(f.name);
    REQUIRE(schema.size() > 40);
    std::size_t checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kRoot + "/examples/hf")) {
        const HfModel m(shipped(), HfConfig::read(entry.path().string()));
        for (const auto& [kind, count] : m.kinds()) {
            Strategy s;
            s.tp = 1;
            const LayerDoc l = m.layer(m.first_of(kind), s);
            for (const auto& [name, value] : l.fields.fields()) {
                INFO(entry.path().filename().string() << " (" << kind << "): field " << name);
                CHECK(schema.count(name) == 1);
                ++checked;
            }
        }
    }
    CHECK(checked > 500);
}

TEST_CASE("a model default's prefixes are checked where they are written", "[hf][profiles][diagnostics]") {
    auto errors = [](const std::string& body) {
        const LoadResult r = load_text("import \"" + kRoot + "/records/op_records.rec\"\nimport \"profiles.rec\"\n" +
                                           "profile x matches \"x_\" {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0\n" + body +
                                           "}\n",
                                       "bad.rec", testing::shipped_options());
        std::vector<std::string> codes;
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::Error) codes.push_back(d.code + " " + d.message);
        return codes;
    };
    const auto run = errors("    run grad_bytes = 2 matches \"x_a\"\n");
    REQUIRE(run.size() == 1);
    CHECK(run[0].find("E0145 run setting `grad_bytes` takes no `matches`") == 0);
    const auto caps = errors("    model qkv_bias = True matches \"X_a\"\n");
    REQUIRE(caps.size() == 1);
    CHECK(caps[0].find("E0146") == 0);
    const auto twice = errors("    model qkv_bias = True matches \"x_a\"\n    model qkv_bias = False matches \"x_a\"\n");
    REQUIRE(twice.size() == 1);
    CHECK(twice[0].find("E0101 model default `qkv_bias`") == 0);
    CHECK(errors("    model qkv_bias = True matches \"x_a\"\n    model qkv_bias = False\n").empty());
}
