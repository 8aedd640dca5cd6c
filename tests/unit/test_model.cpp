// The layer model and the native evaluators: parameter counts, CP, head
// width, the layer document; the reference's pinned numbers and the golden
// vectors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>

#include "../golden/golden_support.h"
#include "model/attention.h"
#include "model/layer.h"
#include "model/params.h"
#include "value/format.h"

using namespace oprec;

namespace {

Value I(std::int64_t v) { return Value::integer(v); }
Value F(double v) { return Value::real(v); }
Value B(bool v) { return Value::boolean(v); }
const FieldValue None{std::monostate{}};

LayerConfig make(std::initializer_list<std::pair<std::string, FieldValue>> fields) {
    LayerConfig config;
    for (const auto& [name, value] : fields) config.set(name, value);
    return config;
}

LayerConfig with(LayerConfig config, std::initializer_list<std::pair<std::string, FieldValue>> fields) {
    for (const auto& [name, value] : fields) config.set(name, value);
    return config;
}

// The reference's types matter as much as the numbers: an int where Python
// gives an int, a float (to the bit) where it gives a float.
bool is_int(Value v, std::int64_t expected) { return v.is_int() && v.i == expected; }
bool is_float(Value v, double expected) { return v.is_float() && float_hex(v.f) == float_hex(expected); }

// Switch maps are equal when they name the same switches with the same 0/1 ints.
bool same_switches(const SwitchMap& a, const SwitchMap& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.first == y.first && x.second.is_int() && y.second.is_int() && x.second.i == y.second.i;
    });
}

ErrorKind error_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const EvalError& e) {
        return e.kind();
    }
    FAIL("no EvalError thrown");
    return ErrorKind::UnknownOp;
}

// Common layer facts of test_layer_block's small configs.
LayerConfig small_layer() {
    return make({{"h", I(64)}, {"a", I(4)}, {"n_kv", I(2)}, {"dh", I(16)}, {"dhr", I(0)},
                 {"dc_q", I(0)}, {"dc_kv", I(0)}, {"n_attMM", I(4)}, {"attn_output_gate", B(false)},
                 {"attn_extra_p", I(0)}, {"n_ffMM", I(3)}, {"hff", I(128)}, {"hff_exp", I(32)},
                 {"n_exp", I(4)}, {"n_shared_exp", I(1)}, {"etp", I(1)}, {"n_normOp", I(2)}});
}

// DeepSeek-V3's attention (docs/domain.md §5, test_layer_block 4).
LayerConfig deepseek_v3() {
    return make({{"h", I(7168)}, {"a", I(128)}, {"n_kv", I(128)}, {"dh", I(128)}, {"dhr", I(64)},
                 {"dc_q", I(1536)}, {"dc_kv", I(512)}, {"n_attMM", I(4)}});
}

// The shared facts of docs/domain.md §2.4's worked configs (biases stated False).
LayerConfig worked(std::int64_t h, std::int64_t a, std::int64_t n_kv) {
    return make({{"h", I(h)}, {"a", I(a)}, {"n_kv", I(n_kv)}, {"dh", I(128)}, {"dhr", I(0)},
                 {"dc_q", I(0)}, {"dc_kv", I(0)}, {"n_attMM", I(4)}, {"n_ffMM", I(3)},
                 {"n_normOp", I(2)}, {"t", I(4)}, {"cp", I(2)}, {"etp", I(1)},
                 {"bytes_compute", I(2)}, {"cp_algo", std::string("colossalai_cp")},
                 {"n_linrec", I(0)}, {"n_qknorm", I(0)}, {"attn_output_gate", B(false)},
                 {"attn_extra_p", I(0)}, {"qkv_bias", B(false)}, {"o_bias", B(false)},
                 {"mlp_bias", B(false)}, {"norm_bias", B(false)}, {"layer_norms", I(2)},
                 {"shared_expert_gate", B(false)}});
}

}  // namespace

// ---- the reference's pinned parameter numbers ------------------------------------

TEST_CASE("MLA parameters: DeepSeek-V3 (test_layer_block 4)", "[model][params]") {
    const LayerConfig ds = deepseek_v3();
    CHECK(is_float(num_params_mla(ds), 187107328.0));
    CHECK(is_float(num_params_attn(ds), 187107328.0));  // dc_kv > 0: attention is MLA
    CHECK(is_float(num_params_attn(with(ds, {{"dc_q", I(0)}})), 314507776.0));
    CHECK(is_float(num_params_attn(with(ds, {{"qk_nope_head_dim", I(192)}})), 203884544.0));
    // qk_nope_head_dim None or 0 falls back to dh.
    CHECK(is_float(num_params_attn(with(ds, {{"qk_nope_head_dim", None}})), 187107328.0));
    CHECK(is_float(num_params_attn(with(ds, {{"qk_nope_head_dim", I(0)}})), 187107328.0));
}

TEST_CASE("vectors unstated: every projection a bias of h (test_layer_block 5)", "[model][params]") {
    const LayerConfig absent = small_layer();
    const LayerConfig none = with(absent, {{"qkv_bias", None}, {"o_bias", None}, {"mlp_bias", None},
                                           {"layer_norms", None}, {"norm_bias", None},
                                           {"shared_expert_gate", None}});
    for (const LayerConfig& ccfg : {absent, none}) {
        CHECK(is_float(num_params_attn(ccfg), 12544.0));  // 12,288 + 4*64
        CHECK(is_int(num_params_shared_expert(ccfg), 6240));  // 3*(32*64 + 32)
        CHECK(is_int(num_params_norm(ccfg), 256));  // 2*2*64
        CHECK(is_int(bias_params(ccfg, "qkv_bias", I(999)), 64));
        CHECK(is_int(mlp_bias_params(ccfg, I(32)), 96));
    }
}

TEST_CASE("vectors stated (test_layer_block 6)", "[model][params]") {
    const LayerConfig biased =
        with(small_layer(), {{"qkv_bias", B(true)}, {"o_bias", B(false)}, {"mlp_bias", B(true)}});
    CHECK(is_float(num_params_attn(biased), 12416.0));  // 12,288 + 64 + 64
    CHECK(is_float(num_params_routed_expert(biased), 25088.0));  // 4*(3*32*64 + 2*32 + 64)

    const LayerConfig plain =
        with(small_layer(), {{"qkv_bias", B(false)}, {"o_bias", B(false)}, {"mlp_bias", B(false)},
                             {"layer_norms", I(2)}, {"norm_bias", B(false)},
                             {"shared_expert_gate", B(true)}});
    CHECK(is_float(num_params_attn(plain), 12288.0));
    CHECK(is_int(num_params_shared_expert(plain), 6208));  // 3*32*64 + the gate's 64
    CHECK(is_int(num_params_norm(plain), 128));  // two RMSNorms
    CHECK(is_int(num_params_norm(with(plain, {{"norm_bias", B(true)}})), 256));  // LayerNorms
    // The gate needs shared experts.
    CHECK(is_int(num_params_shared_expert(with(plain, {{"n_shared_exp", I(0)}})), 0));
}

TEST_CASE("QK-norm adds a query and a key weight (test_layer_block 8)", "[model][params]") {
    const LayerConfig ccfg = with(small_layer(), {{"dh", I(32)}});
    CHECK(is_int(num_params_norm(ccfg), 256));  // n_qknorm absent: 0
    CHECK(is_int(num_params_norm(with(ccfg, {{"n_qknorm", I(1)}})), 256 + 64));
    // A QK-norm over h/a when dh is 0: a float.
    CHECK(is_float(num_params_norm(with(ccfg, {{"n_qknorm", I(1)}, {"dh", I(0)}})), 256.0 + 32.0));
}

TEST_CASE("routed experts with expert TP (test_body R01-R03)", "[model][params]") {
    const LayerConfig ccfg = make({{"h", I(4096)}, {"hff_exp", I(2048)}, {"n_exp", I(8)},
                                   {"n_ffMM", I(1)}, {"etp", I(1)}, {"mlp_bias", None}});
    const double whole = 8.0 * (2048.0 * 4096.0 + 2048.0);
    CHECK(is_float(num_params_routed_expert(ccfg), whole));
    CHECK(is_float(num_params_routed_expert(with(ccfg, {{"etp", I(4)}})), whole / 4));
    CHECK(is_float(num_params_routed_expert(with(ccfg, {{"etp", I(0)}})), whole));
}

TEST_CASE("worked configs' parameters (domain 2.4)", "[model][params]") {
    const LayerConfig llama = with(worked(4096, 32, 32), {{"hff", I(11008)}, {"hff_exp", I(11008)},
                                                          {"n_exp", I(1)}, {"n_shared_exp", I(0)}});
    CHECK(is_float(num_params_attn(llama), 67108864.0));
    CHECK(is_int(num_params_norm(llama), 8192));
    CHECK(is_int(num_params_ffn(llama), 135266304));
    CHECK(is_int(num_params_router(llama), 0));

    const LayerConfig mixtral = with(worked(4096, 32, 8), {{"hff", I(14336)}, {"hff_exp", I(14336)},
                                                           {"n_exp", I(8)}, {"n_shared_exp", I(0)}});
    CHECK(is_float(num_params_attn(mixtral), 41943040.0));
    CHECK(is_float(num_params_routed_expert(mixtral), 1409286144.0));
    CHECK(is_int(num_params_router(mixtral), 32768));
    CHECK(is_int(num_params_shared_expert(mixtral), 0));

    const LayerConfig ds_moe = with(worked(7168, 128, 128),
                                    {{"dhr", I(64)}, {"dc_q", I(1536)}, {"dc_kv", I(512)},
                                     {"qk_nope_head_dim", I(128)}, {"hff", I(2048)},
                                     {"hff_exp", I(2048)}, {"n_exp", I(256)}, {"n_shared_exp", I(1)}});
    CHECK(is_float(num_params_attn(ds_moe), 187107328.0));
    CHECK(is_float(num_params_routed_expert(ds_moe), 11274289152.0));
    CHECK(is_int(num_params_shared_expert(ds_moe), 44040192));
    CHECK(is_int(num_params_router(ds_moe), 1835008));
    CHECK(is_int(num_params_norm(ds_moe), 14336));
    const LayerConfig ds_dense =
        with(ds_moe, {{"hff", I(18432)}, {"n_exp", I(1)}, {"n_shared_exp", I(0)}});
    CHECK(is_int(num_params_ffn(ds_dense), 396361728));
}

// ---- CP, K/V, head width ---------------------------------------------------------------

TEST_CASE("CP algorithm names resolve as _resolve_cp_algo does", "[model][cp]") {
    CHECK(parse_cp_algo("ulysses_cp") == CpAlgo::Ulysses);
    CHECK(parse_cp_algo("colossalai_cp") == CpAlgo::ColossalAI);
    CHECK(parse_cp_algo("hybrid_cp") == CpAlgo::Hybrid);
    CHECK(parse_cp_algo("hybird_cp") == CpAlgo::Hybrid);  // the reference accepts the misspelling
    CHECK(parse_cp_algo("ring_cp") == CpAlgo::ColossalAI);  // unknown names: Colossal-AI
    CHECK(parse_cp_algo("Ulysses_CP") == CpAlgo::ColossalAI);  // case matters
    CHECK(cp_algo_name(CpAlgo::Hybrid) == "hybrid_cp");
    CHECK(resolve_cp_algo(make({})) == CpAlgo::ColossalAI);
    CHECK(resolve_cp_algo(make({{"cp_algo", None}})) == CpAlgo::ColossalAI);
    CHECK(resolve_cp_algo(make({{"cp_algo", I(2)}})) == CpAlgo::ColossalAI);
    CHECK(resolve_cp_algo(make({{"cp_algo", std::string("ulysses_cp")}})) == CpAlgo::Ulysses);
}

TEST_CASE("K/V shards and gathered K/V bytes (domain 4, test_body)", "[model][cp]") {
    const LayerConfig ring = make({{"cp", I(2)}, {"t", I(2)}, {"n_kv", I(2)}, {"dh", I(64)},
                                   {"bytes_compute", I(2)}, {"cp_algo", std::string("colossalai_cp")}});
    CHECK(is_int(kv_shards(ring), 1));
    CHECK(is_float(gathered_kv_bytes(ring), 256.0));  // (cp-1)*2*n_kv*dh*bytes/t
    const LayerConfig ulysses = with(ring, {{"cp_algo", std::string("ulysses_cp")}});
    CHECK(is_int(kv_shards(ulysses), 2));
    CHECK(is_int(gathered_kv_bytes(ulysses), 0));
    const LayerConfig linear = with(ring, {{"n_linrec", I(1)}});
    CHECK(is_int(kv_shards(linear), 2));
    CHECK(is_int(gathered_kv_bytes(linear), 0));
    CHECK(is_int(kv_shards(with(ring, {{"n_linrec", None}})), 1));
    CHECK(is_int(kv_shards(with(ring, {{"cp_algo", std::string("hybird_cp")}})), 1));
    // kv_shards returns cp itself, whatever its type.
    CHECK(is_float(kv_shards(with(ulysses, {{"cp", F(4.0)}})), 4.0));
    CHECK(is_int(gathered_kv_bytes(with(ring, {{"cp", I(1)}})), 0));
    CHECK(is_float(gathered_kv_bytes(with(ring, {{"t", I(0)}})), 512.0));  // max(1, t)
    // Llama-2-7B at tp=4, cp=2: 2*32*128*2/4 bytes per token.
    CHECK(is_float(gathered_kv_bytes(worked(4096, 32, 32)), 4096.0));
    CHECK(error_of([&] { kv_shards(make({{"cp_algo", std::string("ulysses_cp")}})); }) ==
          ErrorKind::MissingField);
}

TEST_CASE("head width: dh, else h/a, else 0", "[model][cp]") {
    CHECK(is_int(head_dim(make({{"dh", I(128)}, {"h", I(4096)}, {"a", I(32)}})), 128));
    CHECK(is_float(head_dim(make({{"dh", I(0)}, {"h", I(4096)}, {"a", I(32)}})), 128.0));
    CHECK(is_float(head_dim(make({{"dh", None}, {"h", I(4096)}, {"a", I(32)}})), 128.0));
    CHECK(is_int(head_dim(make({{"dh", I(0)}, {"h", I(4096)}, {"a", I(0)}})), 0));
    CHECK(is_float(head_dim(make({{"dh", F(0.5)}})), 0.5));
    CHECK(error_of([] { head_dim(make({{"h", I(1)}})); }) == ErrorKind::MissingField);
}

// ---- errors ---------------------------------------------------------------------------

TEST_CASE("a missing field raises MissingField, None or a string TypeError", "[model][params]") {
    const LayerConfig ccfg = small_layer();
    CHECK(is_int(num_params_ffn(ccfg), (4 + 1) * (3 * 128 * 64 + 3 * 128)));
    LayerConfig missing = ccfg;
    REQUIRE(missing.erase("hff"));
    CHECK_FALSE(missing.erase("hff"));
    CHECK(error_of([&] { num_params_ffn(missing); }) == ErrorKind::MissingField);
    try {
        missing.number("hff");
        FAIL("no error");
    } catch (const EvalError& e) {
        CHECK(std::string(e.what()) == "the layer config has no field 'hff'");
    }
    CHECK(error_of([&] { num_params_ffn(with(ccfg, {{"hff", None}})); }) == ErrorKind::TypeError);
    CHECK(error_of([&] { num_params_ffn(with(ccfg, {{"hff", std::string("x")}})); }) ==
          ErrorKind::TypeError);
    // `dc_kv == 0` is simply false for None (as in Python): the MLA formula runs.
    CHECK(error_of([&] { num_params_attn(with(ccfg, {{"dc_kv", None}})); }) == ErrorKind::TypeError);
    // n_qknorm: getattr default 0 when absent, but None is arithmetic on None.
    CHECK(error_of([&] { num_params_norm(with(ccfg, {{"n_qknorm", None}})); }) == ErrorKind::TypeError);
    // The router reads h only where the layer routes.
    LayerConfig dense = with(ccfg, {{"n_exp", I(1)}});
    dense.erase("h");
    CHECK(is_int(num_params_router(dense), 0));
}

// ---- LayerConfig, NodeKind, EvalContext -----------------------------------------------------

TEST_CASE("LayerConfig keeps fields in stated order and reads them as Python does", "[model][layer]") {
    LayerConfig ccfg = make({{"b", I(1)}, {"a", F(2.5)}, {"cp_algo", std::string("ulysses_cp")},
                             {"qkv_bias", None}, {"gmm", B(true)}});
    ccfg.set("b", I(7));  // replaced in place
    REQUIRE(ccfg.size() == 5);
    CHECK(ccfg.fields()[0].first == "b");
    CHECK(ccfg.fields()[1].first == "a");
    CHECK(is_int(ccfg.number("b"), 7));
    CHECK(ccfg.find("nope") == nullptr);
    CHECK(ccfg.contains("qkv_bias"));
    CHECK_FALSE(ccfg.stated("qkv_bias").has_value());
    CHECK_FALSE(ccfg.stated("nope").has_value());
    CHECK(is_float(*ccfg.stated("a"), 2.5));
    CHECK(error_of([&] { (void)ccfg.stated("cp_algo"); }) == ErrorKind::TypeError);
    CHECK(is_int(ccfg.number_or("nope", I(0)), 0));
    CHECK(error_of([&] { ccfg.number_or("qkv_bias", I(0)); }) == ErrorKind::TypeError);
    CHECK(ccfg.truth("gmm"));
    CHECK_FALSE(ccfg.truth("qkv_bias"));
    CHECK(ccfg.truth("cp_algo"));
    CHECK(error_of([&] { (void)ccfg.truth("nope"); }) == ErrorKind::MissingField);
    CHECK_FALSE(ccfg.stated_truth("nope"));
    CHECK(ccfg.stated_truth("gmm"));
}

TEST_CASE("node kinds and the evaluation context", "[model][layer]") {
    for (const NodeKind kind : {NodeKind::NotRec, NodeKind::SelRec, NodeKind::FullRec})
        CHECK(parse_node_kind(node_kind_name(kind)) == kind);
    CHECK_FALSE(parse_node_kind("sel_rec_layer").has_value());
    CHECK_FALSE(parse_node_kind("EMBEDDING_LAYER").has_value());

    EvalContext context;
    CHECK(is_int(context.value("micro_factor"), 1));
    CHECK(is_int(context.value("dropless_tok_factor"), 1));
    CHECK(context.node == NodeKind::NotRec);
    context.dropless_tok_factor.reset();
    CHECK(error_of([&] { context.value("dropless_tok_factor"); }) == ErrorKind::MissingField);
    CHECK(error_of([&] { context.value("kv_shards"); }) == ErrorKind::MissingField);

    const SwitchMap own{{"softmax", I(0)}};
    CHECK(&effective_switches(context, own) == &own);
    context.switches = SwitchMap{{"softmax", I(1)}};
    CHECK(is_int(effective_switches(context, own).at("softmax"), 1));
}

// ---- the layer document -------------------------------------------------------------------

namespace {

std::string doc_error(std::string_view text) {
    try {
        parse_layer_doc_text(text, "layer.json");
    } catch (const LayerDocError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("a layer document: fields, switches, context", "[model][doc]") {
    const LayerDoc doc = parse_layer_doc_text(R"({
        "fields": {"s": 4096, "s_fa": 128.0, "big": 1e3, "gmm": true, "qkv_bias": null,
                   "cp_algo": "ulysses_cp", "a": -3},
        "switches": {"softmax": 0, "attBMM": true, "ffAct": false},
        "context": {"micro_factor": 2, "dropless_tok_factor": 1.5, "node": "SEL_REC_LAYER",
                    "switches": {"normOp": 1}}
    })", "layer.json");
    REQUIRE(doc.fields.size() == 7);
    CHECK(doc.fields.fields()[0].first == "s");  // stated order kept
    CHECK(doc.fields.fields()[6].first == "a");
    CHECK(is_int(doc.fields.number("s"), 4096));
    CHECK(is_float(doc.fields.number("s_fa"), 128.0));
    CHECK(is_float(doc.fields.number("big"), 1000.0));  // an exponent makes a float
    CHECK(doc.fields.number("gmm").is_bool());
    CHECK(std::holds_alternative<std::monostate>(*doc.fields.find("qkv_bias")));
    CHECK(std::get<std::string>(*doc.fields.find("cp_algo")) == "ulysses_cp");
    CHECK(is_int(doc.fields.number("a"), -3));
    CHECK(is_int(doc.switches.at("softmax"), 0));
    CHECK(is_int(doc.switches.at("attBMM"), 1));  // bools become ints
    CHECK(is_int(doc.switches.at("ffAct"), 0));
    CHECK(is_int(*doc.context.micro_factor, 2));
    CHECK(is_float(*doc.context.dropless_tok_factor, 1.5));
    CHECK(doc.context.node == NodeKind::SelRec);
    REQUIRE(doc.context.switches.has_value());
    CHECK(is_int(doc.context.switches->at("normOp"), 1));
}

TEST_CASE("a layer document's defaults", "[model][doc]") {
    const LayerDoc empty = parse_layer_doc_text("{}", "layer.json");
    CHECK(empty.fields.empty());
    CHECK(empty.switches.empty());
    CHECK(is_int(*empty.context.micro_factor, 1));
    CHECK(is_int(*empty.context.dropless_tok_factor, 1));
    CHECK(empty.context.node == NodeKind::NotRec);
    CHECK_FALSE(empty.context.switches.has_value());

    // null: the context has no such value; reading it raises.
    const LayerDoc absent = parse_layer_doc_text(R"({"context": {"dropless_tok_factor": null}})", "x");
    CHECK_FALSE(absent.context.dropless_tok_factor.has_value());

    // The nlohmann::json overload (keys sorted by nlohmann) reads the same.
    const LayerDoc parsed = parse_layer_doc(nlohmann::json::parse(R"({"fields": {"h": 1, "a": 2}})"), "x");
    CHECK(is_int(parsed.fields.number("a"), 2));
}

TEST_CASE("a layer document's errors name the place", "[model][doc]") {
    CHECK(doc_error("{\n  \"fields\": {\n    \"h\": 12,,\n  }\n}") ==
          "layer.json:3:13: invalid JSON: syntax error while parsing object key - unexpected ','; "
          "expected string literal");
    CHECK(doc_error("").rfind("layer.json:1:1: invalid JSON: ", 0) == 0);
    CHECK(doc_error(R"({"context": {"micro_factor": "2"}})") ==
          "layer.json: context.micro_factor: expected a number, got a string");
    CHECK(doc_error(R"({"context": {"micro_factor": true}})") ==
          "layer.json: context.micro_factor: expected a number, got a bool");
    CHECK(doc_error(R"({"context": {"node": "SEL_REC"}})") ==
          "layer.json: context.node: unknown layer kind 'SEL_REC' (expected NOT_REC_LAYER, "
          "SEL_REC_LAYER or FULL_REC_LAYER)");
    CHECK(doc_error(R"({"context": {"node": 1}})") == "layer.json: context.node: expected a string, got a number");
    CHECK(doc_error(R"({"feilds": {}})") ==
          "layer.json: unknown key 'feilds' (expected fields, switches or context)");
    CHECK(doc_error(R"({"context": {"micro": 1}})") ==
          "layer.json: context: unknown key 'micro' (expected micro_factor, dropless_tok_factor, node or switches)");
    CHECK(doc_error(R"({"switches": {"softmax": 2}})") ==
          "layer.json: switches.softmax: expected 0, 1, true or false, got 2");
    CHECK(doc_error(R"({"switches": {"softmax": 1.0}})") ==
          "layer.json: switches.softmax: expected 0, 1, true or false, got 1.0");
    CHECK(doc_error(R"({"context": {"switches": []}})") ==
          "layer.json: context.switches: expected an object, got an array");
    CHECK(doc_error(R"({"fields": {"h": [1]}})") ==
          "layer.json: fields.h: expected a number, a bool, a string or null, got an array");
    CHECK(doc_error(R"({"fields": {"h": 18446744073709551615}})") ==
          "layer.json: fields.h: integer 18446744073709551615 does not fit in 64 bits");
    CHECK(doc_error(R"({"fields": {"h": 1, "h": 2}})") == "layer.json:1:21: duplicate key 'h'");
    // Placed at the second key, past strings that look like keys and keys of other objects.
    CHECK(doc_error("{\"fields\": {\"s\": \"\\\"h\\\": 1\"},\n \"switches\": {\"h\": 1},\n \"fields\": {}}") ==
          "layer.json:3:2: duplicate key 'fields'");
    CHECK(doc_error("[]") == "layer.json: expected a JSON object, got an array");
}

// ---- the golden vectors ---------------------------------------------------------------------

TEST_CASE("golden: parameters, K/V shards, gathered K/V and head width of every case",
          "[model][golden]") {
    const nlohmann::json golden = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    const auto& cases = golden.at("cases");
    REQUIRE(cases.size() == 150);

    using Native = Value (*)(const LayerConfig&);
    const std::pair<const char*, Native> params[] = {
        {"num_params_attn", num_params_attn},
        {"num_params_mla", num_params_mla},
        {"num_params_ffn", num_params_ffn},
        {"num_params_routed_expert", num_params_routed_expert},
        {"num_params_router", num_params_router},
        {"num_params_shared_expert", num_params_shared_expert},
        {"num_params_norm", num_params_norm},
    };
    const std::pair<const char*, Native> cp_facts[] = {
        {"kv_shards", kv_shards}, {"gathered_kv_bytes", gathered_kv_bytes}, {"head_dim", head_dim}};

    int compared = 0;
    for (const auto& golden_case : cases) {
        const LayerConfig ccfg = golden::layer_config(golden_case);
        const auto& outputs = golden_case.at("outputs");
        for (const auto& [name, native] : params) {
            INFO(golden_case.at("id").get<std::string>() << " " << name);
            CHECK(golden::check_outcome(outputs.at("num_params").at(name), [&, &native = native] { return native(ccfg); }) == "");
            ++compared;
        }
        for (const auto& [name, native] : cp_facts) {
            INFO(golden_case.at("id").get<std::string>() << " " << name);
            CHECK(golden::check_outcome(outputs.at(name), [&, &native = native] { return native(ccfg); }) == "");
            ++compared;
        }
    }
    CHECK(compared == 1500);
}

TEST_CASE("golden: the cases' contexts and switches", "[model][golden]") {
    const nlohmann::json golden = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    for (const auto& golden_case : golden.at("cases")) {
        INFO(golden_case.at("id").get<std::string>());
        const LayerDoc doc = golden::layer_doc(golden_case);
        const auto& context = golden_case.at("context");
        // The switches that apply are those the reference used.
        CHECK(same_switches(effective_switches(doc.context, doc.switches),
                            golden::switch_map(context.at("effective_switches"))));
        CHECK(node_kind_name(doc.context.node) == context.at("current_node").get<std::string>());
        CHECK(doc.context.dropless_tok_factor.has_value() == context.contains("dropless_tok_factor"));
        // Every config field is stated, and floats are the exact doubles.
        CHECK(doc.fields.size() == golden_case.at("config").size());
        for (const auto& [name, hex] : golden_case.at("config_float_hex").items())
            CHECK(float_hex(doc.fields.number(name).f) == hex.get<std::string>());
    }
}
