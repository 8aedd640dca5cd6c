// The op profiles as .rec data (stdlib/profiles.rec): what test_op_profiles
// pins of the reference's profiles, the family chosen by a model's name, and
// the load-time checks of a profile, with their positions.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "check/loader.h"
#include "golden/records_fixture.h"
#include "hf/load.h"
#include "hf/model.h"

using namespace oprec;

namespace {

const char* kRecords = OPREC_TEST_DATA "/../records/op_records.rec";

const Program& with_profiles() {
    static const Program program = [] {
        LoadResult r = hf::load_with_profiles(kRecords, "profiles.rec", testing::shipped_options());
        if (!r.program) throw LoadError(r.diagnostics, r.sources);
        return std::move(*r.program);
    }();
    return program;
}

const Profiles& profiles() { return with_profiles().profiles; }

std::vector<std::int64_t> counts(const std::string& family, const std::string& kind) {
    const OpProfile* p = profiles().find(family);
    REQUIRE(p != nullptr);
    const LayerKind* k = p->find_kind(kind);
    REQUIRE(k != nullptr);
    return k->counts;
}

using V = std::vector<std::int64_t>;

// The shipped records and profiles with `text` beside them, below the two imports.
LoadResult load_profile_text(const std::string& text) {
    return load_text("import \"" + std::string(kRecords) + "\"\nimport \"profiles.rec\"\n" + text, "bad.rec",
                     testing::shipped_options());
}

Diagnostic only_error(const LoadResult& r) {
    REQUIRE_FALSE(r.ok());
    REQUIRE(r.diagnostics.size() == 1);
    return r.diagnostics.front();
}

}  // namespace

TEST_CASE("every family the reference has, every kind a full op vector", "[hf][profiles]") {
    std::vector<std::string> names;
    for (const OpProfile& p : profiles().families) names.push_back(p.name);
    CHECK(names == std::vector<std::string>{"default", "llama2", "mixtral", "deepseek", "qwen", "qwen3_5", "pangualpha",
                                            "t5", "cm", "vision", "gpt2", "gemma", "gpt_neox", "gptj", "opt", "bloom",
                                            "falcon", "phi", "megatron_gpt", "megatron_gpt_nodropout",
                                            "megatron_glu", "megatron_glu_nodropout"});
    const std::size_t ops = with_profiles().op_vector.size();
    REQUIRE(ops == 10);
    for (const OpProfile& p : profiles().families)
        for (const LayerKind& k : p.kinds) {
            INFO(p.name << " " << k.name);
            CHECK(k.counts.size() == ops);
        }
}

TEST_CASE("op counts per kind, in the op vector's order", "[hf][profiles]") {
    const V decoder{4, 2, 3, 1, 0, 2, 4, 1, 1, 0};
    for (const char* family : {"default", "llama2", "mixtral", "qwen"}) CHECK(counts(family, "decoder") == decoder);
    CHECK(counts("deepseek", "dense") == decoder);
    CHECK(counts("deepseek", "moe") == counts("deepseek", "dense"));
    CHECK(counts("cm", "moe") == counts("cm", "dense"));
    CHECK(counts("qwen3_5", "full_attention") == decoder);
    CHECK(counts("qwen3_5", "linear_attention") == V{4, 0, 3, 0, 0, 2, 4, 0, 1, 1});
    CHECK(counts("pangualpha", "decoder") == V{4, 1, 2, 2, 5, 4, 4, 1, 1, 0});
    CHECK(counts("t5", "encoder") == V{4, 1, 2, 2, 5, 2, 4, 1, 1, 0});
    CHECK(counts("t5", "decoder") == V{8, 2, 2, 4, 7, 3, 6, 1, 1, 0});
    CHECK(counts("t5", "decoder")[0] == 8);  // attMM
    CHECK(counts("vision", "encoder") == V{4, 2, 2, 1, 0, 2, 4, 1, 1, 0});
}

TEST_CASE("only qwen3_5's linear_attention kind updates a linear state", "[hf][profiles]") {
    const auto& ops = with_profiles().op_vector;
    const std::size_t linrec = static_cast<std::size_t>(std::find(ops.begin(), ops.end(), "linrec") - ops.begin());
    REQUIRE(linrec < ops.size());
    for (const OpProfile& p : profiles().families)
        for (const LayerKind& k : p.kinds) {
            INFO(p.name << " " << k.name);
            const bool linear = p.name == "qwen3_5" && k.name == "linear_attention";
            CHECK(k.counts[linrec] == (linear ? 1 : 0));
            CHECK((k.attention == AttentionFlavour::Linear) == linear);
        }
}

TEST_CASE("default kinds and flavours", "[hf][profiles]") {
    CHECK(profiles().find("deepseek")->default_kind == std::optional<std::string>("moe"));
    CHECK(profiles().find("cm")->default_kind == std::optional<std::string>("moe"));
    CHECK_FALSE(profiles().find("t5")->default_kind.has_value());
    CHECK(profiles().find("qwen3_5")->default_kind == std::optional<std::string>("full_attention"));
    CHECK(profiles().find("vision")->default_kind == std::optional<std::string>("encoder"));
    CHECK(profiles().find("default")->default_kind == std::optional<std::string>("decoder"));
    CHECK(profiles().find("deepseek")->find_kind("dense")->ffn == FfnFlavour::Dense);
    CHECK(profiles().find("deepseek")->find_kind("moe")->ffn == FfnFlavour::Moe);
    CHECK(profiles().find("mixtral")->find_kind("decoder")->ffn == FfnFlavour::Model);
}

TEST_CASE("the run defaults and each family's run and model defaults", "[hf][profiles]") {
    const Profiles& ps = profiles();
    auto run = [&](const char* family, const char* name) {
        auto v = ps.run_setting(*ps.find(family), name);
        REQUIRE(v.has_value());
        return *v;
    };
    // DEFAULT_RUN
    const OpProfile& d = *ps.find("default");
    CHECK(run("default", "grad_bytes").i == 4);
    CHECK(run("default", "optimizer_state_bytes").i == 4);
    CHECK(run("default", "optimizer_states").i == 2);
    CHECK(run("default", "main_param_bytes").i == 0);
    CHECK(run("default", "norm_bytes").i == 4);
    CHECK(run("default", "dropout_bytes").i == 0);
    for (const char* off : {"grad_accumulation", "shard_activations", "reshard_params", "deferred_grad_accumulation",
                            "overlapped_grad_reduce"})
        CHECK(run("default", off).is_bool() & !run("default", off).b);
    CHECK((run("default", "loss_parallel").is_bool() && run("default", "loss_parallel").b));
    CHECK(ps.run_defaults.size() == 13);
    CHECK(d.run.empty());
    // The default family's model defaults: Llama's kin untied (their transformers classes' default).
    REQUIRE(d.model.size() == 3);
    for (const ProfileSetting& m : d.model) {
        CHECK(m.name == "tie_word_embeddings");
        CHECK((m.value.is_bool() && !m.value.b));
        CHECK_FALSE(m.matches.empty());
    }
    CHECK(d.model_default("tie_word_embeddings", "llama") != nullptr);
    CHECK(d.model_default("tie_word_embeddings", "gemma") == nullptr);
    // the families' own
    CHECK(run("llama2", "grad_bytes").i == 2);
    CHECK(run("llama2", "grad_accumulation").b);
    CHECK(run("mixtral", "grad_bytes").i == 2);
    CHECK_FALSE(run("mixtral", "grad_accumulation").b);
    CHECK(run("qwen", "shard_activations").b);
    CHECK(run("qwen3_5", "shard_activations").b);
    CHECK(run("pangualpha", "dropout_bytes").i == 1);
    CHECK(run("t5", "dropout_bytes").i == 1);
    CHECK(run("deepseek", "grad_bytes").i == 4);  // from DEFAULT_RUN
    for (const char* mla : {"deepseek", "cm"}) {
        const ProfileSetting* v = ps.find(mla)->find_model("v_head_dim");
        REQUIRE(v != nullptr);
        CHECK(v->value.i == 128);
    }
    CHECK(ps.find("qwen")->find_model("v_head_dim") == nullptr);
    CHECK(ps.find("vision")->run.empty());
}

TEST_CASE("the family by the longest prefix of the lower-cased model name", "[hf][profiles]") {
    auto family = [](const char* name) {
        const OpProfile* p = hf::infer_family(profiles(), name);
        REQUIRE(p != nullptr);
        return p->name;
    };
    CHECK(family("deepseekV3") == "deepseek");
    CHECK(family("deepseek_v3") == "deepseek");
    for (const char* qwen : {"qwen2_72b", "Qwen3", "qwen3_moe", "qwen3_vl_moe"}) CHECK(family(qwen) == "qwen");
    CHECK(family("qwen3_5_moe") == "qwen3_5");
    CHECK(family("Qwen3.5-35B-A3B") == "qwen3_5");
    CHECK(family("mixtral-8x7b") == "mixtral");
    CHECK(family("llama2_7b") == "llama2");
    CHECK(family("pangualpha_2_6b") == "pangualpha");
    CHECK(family("t5_small") == "t5");
    CHECK(family("cm_llama_moe") == "cm");
    CHECK(family("deepseek_qwen_distill") == "deepseek");
    CHECK(family("qwen2_deepseek_distill") == "qwen");
    for (const char* other : {"llama", "glm4_moe", "acme_lm", ""}) CHECK(family(other) == "default");
}

TEST_CASE("a kind missing an op count is refused where it is declared", "[hf][profiles][diagnostics]") {
    const LoadResult r = load_profile_text("profile x {\n    kind decoder = 4 2 3 1 0 2 4 1 1\n    default kind decoder\n}\n");
    const Diagnostic d = only_error(r);
    CHECK(d.code == "E0141");
    CHECK(d.span.line == 4);
    CHECK(d.span.col == 5);
    CHECK(d.message.find("states 9 op counts") != std::string::npos);
    CHECK(d.message.find("`linrec`") != std::string::npos);
}

TEST_CASE("too many op counts point at the first extra one", "[hf][profiles][diagnostics]") {
    const Diagnostic d = only_error(load_profile_text("profile x {\n  kind decoder = 4 2 3 1 0 2 4 1 1 0 7\n}\n"));
    CHECK(d.code == "E0141");
    CHECK(d.span.line == 4);
    CHECK(d.span.col == 38);
}

TEST_CASE("counts by name: an unknown op is refused with a suggestion, a missing one named", "[hf][profiles][diagnostics]") {
    const LoadResult r = load_profile_text(
        "profile x {\n  kind decoder = attMM 4, attBMM 2, ffMM 3, softmax 1, dropout 0, normOps 2, gather 4, headCast 1, "
        "ffAct 1, linrec 0\n}\n");
    REQUIRE_FALSE(r.ok());
    REQUIRE(r.diagnostics.size() == 2);
    const Diagnostic& unknown = r.diagnostics[0];
    CHECK(unknown.code == "E0142");
    CHECK(unknown.message.find("unknown op `normOps`") != std::string::npos);
    REQUIRE(unknown.fix.has_value());
    CHECK(unknown.fix->replacement == "normOp");
    CHECK(unknown.span.line == 4);
    CHECK(unknown.span.col == 67);
    const Diagnostic& missing = r.diagnostics[1];
    CHECK(missing.code == "E0141");
    CHECK(missing.message.find("no count for `normOp`") != std::string::npos);
}

TEST_CASE("counts by name, over lines ending in a comma, give the same vector as counts in order", "[hf][profiles]") {
    const LoadResult r = load_profile_text(
        "profile x matches \"xmodel\" {\n  kind decoder = linrec 0, ffAct 1, headCast 1, gather 4, normOp 2, dropout 0,\n"
        "                 softmax 1, ffMM 3, attBMM 2, attMM 4\n  default kind decoder\n}\n");
    REQUIRE(r.ok());
    CHECK(r.program->profiles.find("x")->find_kind("decoder")->counts == V{4, 2, 3, 1, 0, 2, 4, 1, 1, 0});
}

TEST_CASE("bad flavours, default kinds, settings and prefixes are refused", "[hf][profiles][diagnostics]") {
    SECTION("flavour") {
        const Diagnostic d = only_error(load_profile_text("profile x {\n  kind a ffn sparse = 4 2 3 1 0 2 4 1 1 0\n}\n"));
        CHECK(d.code == "E0143");
        CHECK(d.message.find("unknown ffn flavour `sparse`") != std::string::npos);
        CHECK(d.span.col == 14);
    }
    SECTION("default kind") {
        const Diagnostic d = only_error(
            load_profile_text("profile x {\n  kind decoder = 4 2 3 1 0 2 4 1 1 0\n  default kind decodr\n}\n"));
        CHECK(d.code == "E0144");
        REQUIRE(d.fix.has_value());
        CHECK(d.fix->replacement == "decoder");
    }
    SECTION("run setting") {
        const Diagnostic d = only_error(
            load_profile_text("profile x {\n  kind decoder = 4 2 3 1 0 2 4 1 1 0\n  run grad_byte = 2\n}\n"));
        CHECK(d.code == "E0145");
        CHECK(d.message.find("unknown run setting `grad_byte`") != std::string::npos);
        REQUIRE(d.fix.has_value());
        CHECK(d.fix->replacement == "grad_bytes");
    }
    SECTION("model setting not in the schema") {
        const Diagnostic d = only_error(
            load_profile_text("profile x {\n  kind decoder = 4 2 3 1 0 2 4 1 1 0\n  model v_head_dimm = 128\n}\n"));
        CHECK(d.code == "E0145");
        CHECK(d.span.line == 5);
    }
    SECTION("a setting that is not a constant") {
        const Diagnostic d = only_error(
            load_profile_text("profile x {\n  kind decoder = 4 2 3 1 0 2 4 1 1 0\n  run grad_bytes = h * 2\n}\n"));
        CHECK(d.code == "E0145");
    }
    SECTION("a prefix another profile claims") {
        const Diagnostic d = only_error(load_profile_text("profile x matches \"zz\" {\n  kind d = 4 2 3 1 0 2 4 1 1 0\n}\n"
                                                           "profile y matches \"zz\" {\n  kind d = 4 2 3 1 0 2 4 1 1 0\n}\n"));
        CHECK(d.code == "E0146");
        CHECK(d.span.line == 6);
    }
    SECTION("a prefix in capitals") {
        const Diagnostic d = only_error(load_profile_text("profile x matches \"Qwen\" {\n  kind d = 4 2 3 1 0 2 4 1 1 0\n}\n"));
        CHECK(d.code == "E0146");
        REQUIRE(d.fix.has_value());
        CHECK(d.fix->replacement == "\"qwen\"");
    }
    SECTION("a profile declared twice") {
        const Diagnostic d = only_error(load_profile_text("profile x {\n  kind d = 4 2 3 1 0 2 4 1 1 0\n}\n"
                                                           "profile x {\n  kind d = 4 2 3 1 0 2 4 1 1 0\n}\n"));
        CHECK(d.code == "E0101");
        REQUIRE(d.notes.size() >= 1);
    }
}

TEST_CASE("profile keywords stay usable as field names in formulas", "[hf][profiles]") {
    // `run`, `kind`, `model`, `profile`, `matches` became keywords: a formula may still read them.
    const LoadResult r = load_text("import \"vocabulary.rec\"\nfn f(kind, model) = kind * model + run + profile + matches\n",
                                   "kw.rec", testing::shipped_options());
    for (const Diagnostic& d : r.diagnostics) CHECK(d.code != "E0001");  // no syntax error
}
