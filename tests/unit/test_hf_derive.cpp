// From a Hugging Face config.json to priced layers: the worked layer configs
// and bytes of docs/domain.md §2.4 (tp=4, cp=2, b=1, s=4096, bf16) on the
// bundled examples, the derivation rules of §2.3 and §1, and errors that
// name the key at fault.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <string>

#include "golden/records_fixture.h"
#include "model/layer_json.h"
#include "hf/load.h"
#include "hf/model.h"
#include "model/params.h"
#include "model/evaluator.h"
#include "value/format.h"

using namespace oprec;
using hf::HfConfig;
using hf::HfError;
using hf::HfModel;
using hf::Strategy;

namespace {

const Program& program() {
    static const Program p = [] {
        LoadResult r = hf::load_with_profiles(OPREC_TEST_DATA "/../records/op_records.rec", "profiles.rec",
                                              testing::shipped_options());
        if (!r.program) throw LoadError(r.diagnostics, r.sources);
        return std::move(*r.program);
    }();
    return p;
}

HfModel example(const std::string& name) {
    return HfModel(program(), HfConfig::read(OPREC_TEST_DATA "/../examples/hf/" + name + ".json"));
}

HfModel inline_model(const std::string& json) { return HfModel(program(), HfConfig::parse(json, "test.json")); }

// The worked configs' strategy.
Strategy worked(hf::Recompute recompute = hf::Recompute::None) {
    Strategy s;
    s.tp = 4;
    s.cp = 2;
    s.mbs = 1;
    s.seq = 4096;
    s.dtype = hf::Dtype::Bf16;
    s.recompute = recompute;
    return s;
}

Value part_sum(const LayerDoc& layer) {
    const RecordsEvaluator records(program());
    Value total = Value::real(0.0);
    for (const auto& [part, bytes] : records.layer_bytes(layer)) total = py::add(total, bytes);
    return total;
}

Value slot(const LayerDoc& layer, const char* name) { return RecordsEvaluator(program()).slot_bytes(layer, name); }

bool is_int(Value v, std::int64_t expected) { return v.is_int() && v.i == expected; }
bool is_float(Value v, double expected) { return v.is_float() && float_hex(v.f) == float_hex(expected); }
bool is_bool(const FieldValue& v, bool expected) {
    const Value* x = std::get_if<Value>(&v);
    return x != nullptr && x->is_bool() && x->b == expected;
}
Value field(const LayerDoc& layer, const char* name) { return layer.fields.number(name); }

std::string error_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const HfError& e) {
        return e.what();
    }
    FAIL("no HfError thrown");
    return "";
}

}  // namespace

TEST_CASE("Llama-2-7B: the default family, the worked layer and its bytes", "[hf][worked]") {
    const HfModel m = example("llama-2-7b");
    CHECK(m.family().name == "default");  // model_type "llama" is no prefix of "llama2"
    CHECK(m.stack().size() == 32);
    const LayerDoc l = m.layer(0, worked());
    CHECK(is_int(field(l, "h"), 4096));
    CHECK(is_int(field(l, "a"), 32));
    CHECK(is_int(field(l, "n_kv"), 32));
    CHECK(is_float(field(l, "dh"), 128.0));  // h / a: a real number in the parser
    CHECK(is_float(field(l, "s_fa"), 128.0));
    CHECK(is_int(field(l, "hff"), 11008));
    CHECK(is_int(field(l, "hff_exp"), 11008));
    CHECK(is_int(field(l, "n_exp"), 1));
    CHECK(is_int(field(l, "sp"), 4));
    CHECK(is_int(field(l, "bytes_compute"), 2));
    CHECK(is_int(field(l, "bytes_softmax"), 4));
    CHECK(is_int(field(l, "bytes_norm"), 4));
    CHECK(is_int(field(l, "bytes_dropout"), 0));
    CHECK(is_int(field(l, "n_attParamCast"), 0));
    CHECK(std::get<std::string>(l.fields.get("cp_algo")) == "colossalai_cp");
    CHECK(is_bool(l.fields.get("gmm"), false));

    CHECK(is_float(slot(l, "qkv"), 21233664.0));
    CHECK(is_float(slot(l, "score"), 12582912.0));
    CHECK(is_float(slot(l, "proj"), 8388608.0));
    CHECK(is_float(slot(l, "ffn"), 38010880.0));
    CHECK(is_float(slot(l, "norm"), 16777216.0));
    CHECK(is_float(part_sum(l), 96993280.0));

    CHECK(is_float(part_sum(m.layer(0, worked(hf::Recompute::Selective))), 56360960.0));
    CHECK(is_float(num_params_attn(l.fields), 67108864.0));
    CHECK(num_params_ffn(l.fields).as_double() == 135266304.0);
    CHECK(num_params_norm(l.fields).as_double() == 8192.0);
}

TEST_CASE("Mixtral-8x7B: num_local_experts, the MoE slots and their bytes", "[hf][worked]") {
    const HfModel m = example("mixtral-8x7b");
    CHECK(m.family().name == "mixtral");
    const LayerDoc l = m.layer(0, worked());
    CHECK(is_int(field(l, "n_kv"), 8));
    CHECK(is_int(field(l, "n_exp"), 8));  // the raw JSON's num_local_experts
    CHECK(is_int(field(l, "n_chosen_exp"), 2));
    CHECK(is_int(field(l, "n_shared_exp"), 0));
    CHECK(is_int(field(l, "hff"), 14336));
    CHECK(is_int(field(l, "hff_exp"), 14336));
    CHECK(is_bool(l.fields.get("gmm"), true));
    CHECK(is_float(slot(l, "qkv"), 8650752.0));
    CHECK(is_float(slot(l, "routed"), 96468992.0));
    CHECK(slot(l, "shared").as_double() == 0.0);
    CHECK(is_float(slot(l, "router"), 4212736.0));
    CHECK(is_float(part_sum(l), 147081216.0));
    CHECK(is_float(part_sum(m.layer(0, worked(hf::Recompute::Selective))), 88360960.0));
    CHECK(num_params_attn(l.fields).as_double() == 41943040.0);
    CHECK(num_params_routed_expert(l.fields).as_double() == 1409286144.0);
    CHECK(num_params_router(l.fields).as_double() == 32768.0);
}

TEST_CASE("DeepSeek-V3: three dense layers then MoE, MLA heads 128 wide", "[hf][worked]") {
    const HfModel m = example("deepseek-v3");
    CHECK(m.family().name == "deepseek");
    REQUIRE(m.stack().size() == 61);
    CHECK(m.stack()[0] == "dense");
    CHECK(m.stack()[2] == "dense");
    CHECK(m.stack()[3] == "moe");
    CHECK(m.stack()[60] == "moe");
    CHECK(m.first_of("moe") == 3);
    CHECK(m.representative_layer() == 3);  // the first of the default kind

    const LayerDoc dense = m.layer(0, worked());
    const LayerDoc moe = m.layer(3, worked());
    for (const LayerDoc* l : {&dense, &moe}) {
        CHECK(is_int(field(*l, "dh"), 128));  // v_head_dim, not h/a = 56
        CHECK(is_int(field(*l, "dhr"), 64));
        CHECK(is_int(field(*l, "dc_q"), 1536));
        CHECK(is_int(field(*l, "dc_kv"), 512));
        CHECK(is_int(field(*l, "qk_nope_head_dim"), 128));
        CHECK(is_float(field(*l, "s_fa"), 32.0));
        CHECK(is_int(field(*l, "hff_exp"), 2048));
    }
    CHECK(is_int(field(dense, "hff"), 18432));
    CHECK(is_int(field(dense, "n_exp"), 1));
    CHECK(is_int(field(dense, "n_chosen_exp"), 1));
    CHECK(is_int(field(dense, "n_shared_exp"), 0));
    CHECK(is_int(field(moe, "hff"), 2048));
    CHECK(is_int(field(moe, "n_exp"), 256));
    CHECK(is_int(field(moe, "n_chosen_exp"), 8));
    CHECK(is_int(field(moe, "n_shared_exp"), 1));

    CHECK(is_float(slot(dense, "qkv"), 170786816.0));
    CHECK(is_float(slot(dense, "proj"), 14680064.0));
    CHECK(is_float(slot(dense, "ffn"), 63963136.0));
    CHECK(is_float(slot(dense, "norm"), 29360128.0));
    CHECK(is_float(part_sum(dense), 291373056.0));
    CHECK(is_float(slot(moe, "routed"), 109051903.99999999));
    CHECK(is_float(slot(moe, "shared"), 13631487.999999998));
    CHECK(is_float(slot(moe, "router"), 7872512.0));
    CHECK(is_float(part_sum(moe), 357965824.0));

    CHECK(is_float(part_sum(m.layer(0, worked(hf::Recompute::Selective))), 230555648.0));
    CHECK(is_float(part_sum(m.layer(3, worked(hf::Recompute::Selective))), 297148416.0));
    Strategy up = worked(hf::Recompute::Selective);
    up.switches["attUp"] = Value::integer(0);
    CHECK(is_float(slot(m.layer(3, up), "qkv"), 36569088.0));

    CHECK(num_params_attn(moe.fields).as_double() == 187107328.0);
    CHECK(num_params_ffn(dense.fields).as_double() == 396361728.0);
    CHECK(num_params_routed_expert(moe.fields).as_double() == 11274289152.0);
    CHECK(num_params_shared_expert(moe.fields).as_double() == 44040192.0);
    CHECK(num_params_router(moe.fields).as_double() == 1835008.0);
    CHECK(num_params_norm(moe.fields).as_double() == 14336.0);
}

TEST_CASE("the worked variants: Ulysses, no SP, cast copies, full recompute", "[hf][worked]") {
    const HfModel llama = example("llama-2-7b"), mixtral = example("mixtral-8x7b"), ds = example("deepseek-v3");
    Strategy ulysses = worked();
    ulysses.cp_algo = CpAlgo::Ulysses;
    CHECK(is_float(slot(llama.layer(0, ulysses), "qkv"), 12845056.0));
    CHECK(is_float(slot(mixtral.layer(0, ulysses), "qkv"), 6553600.0));
    CHECK(is_float(slot(ds.layer(3, ulysses), "qkv"), 111476736.0));

    Strategy no_sp = worked();
    no_sp.sp = false;
    CHECK(is_int(field(llama.layer(0, no_sp), "sp"), 1));
    CHECK(is_float(slot(llama.layer(0, no_sp), "proj"), 2 * 8388608.0));

    Strategy casts = worked();
    casts.param_casts = true;
    const LayerDoc cast_layer = llama.layer(0, casts);
    CHECK(is_int(field(cast_layer, "n_attParamCast"), 4));
    CHECK(is_int(field(cast_layer, "n_ffParamCast"), 3));
    CHECK(is_float(part_sum(cast_layer), 160169984.0));
    CHECK(is_float(part_sum(mixtral.layer(0, casts)), 251938816.0));
    CHECK(is_float(part_sum(ds.layer(3, casts)), 599793664.0));

    const LayerDoc full = llama.layer(0, worked(hf::Recompute::Full));
    CHECK(full.context.node == NodeKind::FullRec);
    CHECK(is_float(llama.full_recompute_input(full), 33554432.0));
    CHECK(is_float(ds.full_recompute_input(ds.layer(3, worked(hf::Recompute::Full))), 58720256.0));
    CHECK(is_int(llama.shard_recompute_input(full), 1));
}

TEST_CASE("Qwen3-8B: the qwen family, QK-norm, sharded recompute input", "[hf][worked]") {
    const HfModel m = example("qwen3-8b");
    CHECK(m.family().name == "qwen");
    const LayerDoc l = m.layer(0, worked());
    CHECK(is_int(field(l, "dh"), 128));  // head_dim stated
    CHECK(is_int(field(l, "n_qknorm"), 1));  // the name holds "qwen3"
    CHECK(is_bool(l.fields.get("qkv_bias"), false));  // attention_bias: false
    CHECK(is_float(slot(l, "qkv"), 8650752.0));
    CHECK(is_float(slot(l, "ffn"), 41943040.0));
    // The norms' inputs, and every head's queries and keys at the QK-norm:
    // 4096 * 4 * (2h + (32 + 8) * 128) / 8.
    CHECK(is_float(slot(l, "norm"), 27262976.0));
    CHECK(is_float(part_sum(l), 98828288.0));
    const LayerDoc full = m.layer(0, worked(hf::Recompute::Full));
    CHECK(is_int(m.shard_recompute_input(full), 4));  // qwen shards activations: / t
    CHECK(is_float(m.full_recompute_input(full), 8388608.0));
}

TEST_CASE("the selective rule's switches: attBMM kept, the other six recomputed, attUp unstated", "[hf]") {
    const HfModel m = example("llama-2-7b");
    const LayerDoc sel = m.layer(0, worked(hf::Recompute::Selective));
    CHECK(sel.context.node == NodeKind::SelRec);
    REQUIRE(sel.switches.size() == 7);
    for (const auto& [name, v] : sel.switches) CHECK(v.i == (name == "attBMM" ? 1 : 0));
    CHECK(sel.switches.count("attUp") == 0);
    const LayerDoc plain = m.layer(0, worked());
    for (const auto& [name, v] : plain.switches) CHECK(v.i == 1);
    Strategy bad = worked();
    bad.switches["softmx"] = Value::integer(0);
    CHECK(error_of([&] { m.layer(0, bad); }).find("--switch softmx") != std::string::npos);
}

TEST_CASE("s_fa: s/a with flash attention, s without", "[hf]") {
    const HfModel m = example("llama-2-7b");
    Strategy no_fa = worked();
    no_fa.flash_attention = false;
    CHECK(is_int(field(m.layer(0, no_fa), "s_fa"), 4096));
    CHECK(is_float(field(m.layer(0, worked()), "s_fa"), 128.0));
}

TEST_CASE("sequence and dtype default to the model's", "[hf]") {
    const HfModel m = example("mixtral-8x7b");
    Strategy s;
    const LayerDoc l = m.layer(0, s);
    CHECK(is_int(field(l, "s"), 32768));  // max_position_embeddings
    CHECK(is_int(field(l, "bytes_compute"), 2));
    CHECK(is_int(field(l, "t"), 1));
    const HfModel fp32 = inline_model(R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
        "num_hidden_layers": 2, "intermediate_size": 128, "torch_dtype": "float32"})");
    const LayerDoc f = fp32.layer(0, s);
    CHECK(is_int(field(f, "bytes_compute"), 4));
    CHECK(is_int(field(f, "s"), 4096));  // no max_position_embeddings
}

TEST_CASE("MLA head width: the model's v_head_dim, else the family's 128, others keep h/a", "[hf]") {
    const std::string mla = R"({"model_type": "deepseek_v2", "hidden_size": 3584, "num_attention_heads": 64,
        "num_hidden_layers": 4, "intermediate_size": 256, "kv_lora_rank": 512, "qk_rope_head_dim": 64)";
    CHECK(is_int(field(inline_model(mla + "}").layer(0, Strategy{}), "dh"), 128));
    CHECK(is_int(field(inline_model(mla + R"(, "v_head_dim": 96})").layer(0, Strategy{}), "dh"), 96));
    const HfModel qwen = inline_model(R"({"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 64,
        "num_hidden_layers": 4, "intermediate_size": 256})");
    const LayerDoc q = qwen.layer(0, Strategy{});
    CHECK(is_float(field(q, "dh"), 56.0));
    CHECK(std::holds_alternative<std::monostate>(q.fields.get("v_head_dim")));
    CHECK(is_bool(q.fields.get("qkv_bias"), true));  // unstated: the name holds "qwen2"
}

TEST_CASE("aliases, shared experts and the multimodal text_config", "[hf]") {
    SECTION("n_routed_experts and n_shared_experts, or the shared width over the expert width") {
        const HfModel m = inline_model(R"({"model_type": "qwen2_moe", "hidden_size": 64, "num_attention_heads": 4,
            "num_hidden_layers": 2, "intermediate_size": 128, "moe_intermediate_size": 32,
            "shared_expert_intermediate_size": 96, "num_experts": 8, "num_experts_per_tok": 2})");
        const LayerDoc l = m.layer(0, Strategy{});
        CHECK(is_int(field(l, "n_exp"), 8));
        CHECK(is_int(field(l, "n_shared_exp"), 3));  // 96 // 32
        CHECK(is_bool(l.fields.get("shared_expert_gate"), true));
        CHECK(is_bool(l.fields.get("gmm"), true));
    }
    SECTION("attention_bias sets both biases; use_qk_norm the QK-norm") {
        const HfModel m = inline_model(R"({"model_type": "acme", "hidden_size": 64, "num_attention_heads": 4,
            "num_hidden_layers": 2, "intermediate_size": 128, "attention_bias": true, "use_qk_norm": true})");
        const LayerDoc l = m.layer(0, Strategy{});
        CHECK(is_bool(l.fields.get("qkv_bias"), true));
        CHECK(is_bool(l.fields.get("o_bias"), true));
        CHECK(is_int(field(l, "n_qknorm"), 1));
        CHECK(m.family().name == "default");
    }
    SECTION("text_config first, the top level after") {
        const HfModel m = inline_model(R"({"model_type": "qwen3_vl_moe", "torch_dtype": "float32",
            "vision_config": {"hidden_size": 1152},
            "text_config": {"hidden_size": 2048, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
                            "num_hidden_layers": 48, "intermediate_size": 6144, "moe_intermediate_size": 768,
                            "num_experts": 128, "num_experts_per_tok": 8, "model_type": "qwen3_vl_moe_text"}})");
        CHECK(m.family().name == "qwen");
        CHECK(m.stack().size() == 48);
        const LayerDoc l = m.layer(0, Strategy{});
        CHECK(is_int(field(l, "h"), 2048));
        CHECK(is_int(field(l, "n_exp"), 128));
        CHECK(is_int(field(l, "bytes_compute"), 4));  // the top level's torch_dtype
        CHECK(m.config().key_name("num_experts") == "text_config.num_experts");
    }
}

TEST_CASE("a Qwen3.5 model: layer_types names the kinds, linear attention's fields", "[hf]") {
    const HfModel m = inline_model(R"({"model_type": "qwen3_5_moe", "hidden_size": 2048, "num_attention_heads": 16,
        "num_key_value_heads": 2, "head_dim": 256, "num_hidden_layers": 4, "intermediate_size": 512,
        "moe_intermediate_size": 512, "num_experts": 64, "num_experts_per_tok": 8,
        "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"],
        "linear_num_value_heads": 32, "linear_num_key_heads": 16, "linear_key_head_dim": 128,
        "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4})");
    CHECK(m.family().name == "qwen3_5");
    CHECK(m.stack() == std::vector<std::string>{"linear_attention", "linear_attention", "linear_attention", "full_attention"});
    CHECK(m.representative_layer() == 3);
    Strategy s = worked();
    s.tp = 2;  // tp must divide the two key/value heads
    const LayerDoc lin = m.layer(0, s);
    CHECK(is_int(field(lin, "a"), 32));
    CHECK(is_float(field(lin, "n_kv"), 16.0));  // 16 * 128 / 128, a real number
    CHECK(is_int(field(lin, "dh"), 128));
    CHECK(is_int(field(lin, "n_linrec"), 1));
    CHECK(is_int(field(lin, "n_attBMM"), 0));
    CHECK(is_int(field(lin, "n_qknorm"), 0));
    CHECK(is_bool(lin.fields.get("attn_output_gate"), true));
    // conv (2 n_k d_k + n_v d_v) + 2 h n_v + 2 n_v + d_v
    CHECK(is_int(field(lin, "attn_extra_p"), 4 * (2 * 16 * 128 + 32 * 128) + 2 * 2048 * 32 + 2 * 32 + 128));
    const LayerDoc full = m.layer(3, s);
    CHECK(is_int(field(full, "a"), 16));
    CHECK(is_int(field(full, "n_linrec"), 0));
    CHECK(is_int(field(full, "n_qknorm"), 1));
    CHECK(is_bool(full.fields.get("shared_expert_gate"), true));
}

TEST_CASE("a strategy Megatron-LM would not run: tp over the key/value heads, ep with no experts", "[hf]") {
    const HfModel gqa = inline_model(R"({"model_type": "qwen3", "hidden_size": 512, "num_attention_heads": 8,
        "num_key_value_heads": 2, "num_hidden_layers": 2, "intermediate_size": 128})");
    Strategy s = worked();  // tp 4
    CHECK(error_of([&] { gqa.layer(0, s); }) ==
          "--tp 4: does not divide the key/value heads, `num_key_value_heads` = 2 in test.json");
    s.tp = 2;
    CHECK(is_int(field(gqa.layer(0, s), "n_kv"), 2));
    s.ep = 2;
    CHECK(error_of([&] { gqa.layer(0, s); }) ==
          "--ep 2: the model has no experts to split (test.json states none)");
    // Falcon's multi_query: one key/value head, which no tp above 1 divides.
    const HfModel mqa = inline_model(R"({"model_type": "falcon", "hidden_size": 512, "num_attention_heads": 8,
        "multi_query": true, "num_hidden_layers": 2})");
    CHECK(error_of([&] { mqa.layer(0, worked()); }) == "--tp 4: does not divide the key/value heads, `multi_query` = true in test.json");
    // A MoE model's dense layer takes --ep: the model has experts.
    const HfModel moe = inline_model(R"({"model_type": "deepseek_v3", "hidden_size": 512, "num_attention_heads": 8,
        "num_hidden_layers": 2, "intermediate_size": 256, "moe_intermediate_size": 64, "n_routed_experts": 8,
        "num_experts_per_tok": 2, "first_k_dense_replace": 1, "kv_lora_rank": 64, "q_lora_rank": 64,
        "qk_rope_head_dim": 16, "qk_nope_head_dim": 32, "v_head_dim": 32})");
    Strategy ep = worked();
    ep.ep = 8;
    CHECK(is_int(field(moe.layer(0, ep), "n_exp"), 1));
}

TEST_CASE("which layers route to experts: mlp_only_layers, decoder_sparse_step, moe_layer_freq", "[hf]") {
    const std::string qwen = R"({"model_type": "qwen2_moe", "hidden_size": 512, "num_attention_heads": 8,
        "num_hidden_layers": 6, "intermediate_size": 1024, "moe_intermediate_size": 128, "num_experts": 8,
        "num_experts_per_tok": 2, "shared_expert_intermediate_size": 256)";
    using Kinds = std::vector<std::string>;
    CHECK(inline_model(qwen + "}").stack() == Kinds(6, "decoder"));
    // As Qwen2MoeDecoderLayer: dense where i is listed or (i + 1) % step != 0.
    const HfModel m = inline_model(qwen + R"(, "decoder_sparse_step": 2, "mlp_only_layers": [3]})");
    CHECK(m.stack() == Kinds{"dense", "decoder", "dense", "dense", "dense", "decoder"});
    CHECK(is_int(field(m.layer(0, Strategy{}), "hff"), 1024));  // the dense width
    CHECK(is_int(field(m.layer(0, Strategy{}), "n_exp"), 1));
    CHECK(is_int(field(m.layer(1, Strategy{}), "n_exp"), 8));
    CHECK(is_int(field(m.layer(1, Strategy{}), "hff_exp"), 128));
    CHECK(error_of([&] { inline_model(qwen + R"(, "mlp_only_layers": [1, "2"]})"); }) ==
          "test.json: `mlp_only_layers[1]` is \"2\": expected a layer index");
    // A dense Qwen keeps its one kind.
    CHECK(inline_model(R"({"model_type": "qwen2", "hidden_size": 512, "num_attention_heads": 8,
        "num_hidden_layers": 2, "intermediate_size": 1024, "mlp_only_layers": [0]})").stack() == Kinds(2, "decoder"));
    // As DeepseekV3DecoderLayer: MoE where i >= first_k_dense_replace and i % moe_layer_freq == 0.
    const HfModel ds = inline_model(R"({"model_type": "deepseek_v2", "hidden_size": 512, "num_attention_heads": 8,
        "num_hidden_layers": 6, "intermediate_size": 1024, "moe_intermediate_size": 128, "n_routed_experts": 8,
        "num_experts_per_tok": 2, "first_k_dense_replace": 1, "moe_layer_freq": 2, "kv_lora_rank": 64,
        "q_lora_rank": 64, "qk_rope_head_dim": 16, "qk_nope_head_dim": 32, "v_head_dim": 32})");
    CHECK(ds.stack() == Kinds{"dense", "dense", "moe", "dense", "moe", "dense"});
}

TEST_CASE("layer_types naming something else than kinds leaves the family's stack", "[hf]") {
    const HfModel m = inline_model(R"({"model_type": "qwen3", "hidden_size": 64, "num_attention_heads": 4,
        "num_hidden_layers": 2, "intermediate_size": 128, "layer_types": ["sliding_attention", "full_attention_x"]})");
    CHECK(m.stack() == std::vector<std::string>{"decoder", "decoder"});
}

TEST_CASE("t5: half encoder, half decoder", "[hf]") {
    const HfModel m = inline_model(R"({"model_type": "t5", "hidden_size": 64, "num_attention_heads": 4,
        "num_hidden_layers": 4, "intermediate_size": 128})");
    CHECK(m.stack() == std::vector<std::string>{"encoder", "encoder", "decoder", "decoder"});
    CHECK(is_int(field(m.layer(2, Strategy{}), "n_attMM"), 8));
    CHECK(error_of([] {
              inline_model(R"({"model_type": "t5", "hidden_size": 64, "num_attention_heads": 4,
                               "num_hidden_layers": 3, "intermediate_size": 128})");
          }).find("`num_hidden_layers` is 3") != std::string::npos);
}

TEST_CASE("a config with a missing or impossible key: an error naming the key", "[hf][errors]") {
    const std::string base = R"("model_type": "llama", "num_hidden_layers": 2, "intermediate_size": 128)";
    CHECK(error_of([&] { inline_model("{" + base + R"(, "num_attention_heads": 4})"); }) ==
          "test.json: missing key `hidden_size` or `n_embd` or `n_embed`: the layer cannot be derived without it");
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64, "num_attention_heads": 6})"); })
              .find("`num_attention_heads` (6) does not divide `hidden_size` (64)") != std::string::npos);
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": -64, "num_attention_heads": 4})"); })
              .find("`hidden_size` is -64: a size or count cannot be negative") != std::string::npos);
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64.5, "num_attention_heads": 4})"); })
              .find("`hidden_size` is 64.5: expected a whole number") != std::string::npos);
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 3})"); })
              .find("`num_key_value_heads` (3) does not divide `num_attention_heads` (4)") != std::string::npos);
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64, "num_attention_heads": 4, "n_routed_experts": -8})"); })
              .find("`n_routed_experts` is -8") != std::string::npos);
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64, "num_attention_heads": 0})"); })
              .find("`num_attention_heads` is 0: it must be at least 1") != std::string::npos);
    CHECK(error_of([] { HfConfig::parse("{\"hidden_size\": 4096,", "cut.json"); }).find("cut.json:1:22: invalid JSON: ") == 0);
    CHECK(error_of([] { HfConfig::parse("[1, 2]", "list.json"); }) == "list.json: a config.json is a JSON object, not array");
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64, "num_attention_heads": 4,
              "num_key_value_heads": 4, "layer_types": ["decoder", "decodr"]})"); })
              .find("`layer_types[1]` is \"decodr\"") != std::string::npos);
    CHECK(error_of([&] { inline_model("{" + base + R"(, "hidden_size": 64, "num_attention_heads": 4,
              "torch_dtype": "float8"})").layer(0, Strategy{}); })
              .find("`torch_dtype` is \"float8\"") != std::string::npos);
}

TEST_CASE("a strategy the model cannot take: an error naming the option and the key", "[hf][errors]") {
    const HfModel llama = example("llama-2-7b");
    Strategy s = worked();
    s.tp = 3;
    CHECK(error_of([&] { llama.layer(0, s); }).find("--tp 3: does not divide the heads, `num_attention_heads` = 32") !=
          std::string::npos);
    s = worked();
    s.cp_algo = CpAlgo::Ulysses;
    s.tp = 8;
    s.cp = 8;
    CHECK(error_of([&] { llama.layer(0, s); }).find("tp*cp = 64 does not divide the heads") != std::string::npos);
    s = worked();
    s.ep = 3;
    const HfModel ds = example("deepseek-v3");
    CHECK(error_of([&] { ds.layer(3, s); }).find("--ep 3: does not divide the experts, `n_routed_experts` = 256") !=
          std::string::npos);
    CHECK_NOTHROW(ds.layer(0, s));  // a dense layer has no experts to divide
    const std::string past_end = error_of([&] { llama.layer(32, worked()); });
    CHECK(past_end.find("--layer 32: ") == 0);
    CHECK(past_end.find("llama-2-7b.json has 32 layers (0 to 31)") != std::string::npos);
    CHECK(error_of([&] { llama.first_of("moe"); }).find("has no moe layer; its layers: decoder (32 layers)") !=
          std::string::npos);
}

TEST_CASE("the shown layer document reads back as the same layer", "[hf]") {
    const HfModel m = example("deepseek-v3");
    const LayerDoc l = m.layer(3, worked(hf::Recompute::Selective));
    const LayerDoc back = parse_layer_doc_text(layer_doc_json(l).dump(2), "shown.json");
    REQUIRE(back.fields.size() == l.fields.size());
    for (std::size_t i = 0; i < l.fields.size(); ++i) {
        INFO(l.fields.fields()[i].first);
        CHECK(back.fields.fields()[i].first == l.fields.fields()[i].first);
        const FieldValue& a = l.fields.fields()[i].second;
        const FieldValue& b = back.fields.fields()[i].second;
        REQUIRE(a.index() == b.index());
        if (const Value* v = std::get_if<Value>(&a)) {
            CHECK(v->type == std::get<Value>(b).type);
            CHECK(repr(*v) == repr(std::get<Value>(b)));
        }
    }
    CHECK(back.context.node == NodeKind::SelRec);
    CHECK(back.switches.size() == l.switches.size());
    CHECK(is_float(part_sum(back), 297148416.0));
}

TEST_CASE("every field a derived layer states is in the field schema, with its type", "[hf]") {
    const Program& p = program();
    REQUIRE_FALSE(p.fields.empty());
    for (const char* name : {"llama-2-7b", "mixtral-8x7b", "deepseek-v3", "qwen3-8b"}) {
        const HfModel m = example(name);
        for (const auto& [kind, n] : m.kinds()) {
            const LayerDoc l = m.layer(m.first_of(kind), worked());
            for (const auto& [field_name, v] : l.fields.fields()) {
                INFO(name << " " << field_name);
                const FieldInfo* f = p.find_field(field_name);
                REQUIRE(f != nullptr);
                std::string type = "none";
                if (const Value* x = std::get_if<Value>(&v)) type = type_name(x->type);
                if (std::holds_alternative<std::string>(v)) type = "str";
                if (type == "none") CHECK(f->optional);
                else CHECK(std::find(f->types.begin(), f->types.end(), type) != f->types.end());
            }
        }
    }
}

TEST_CASE("GPT-2's unstated 4h past 64 bits is an error naming the key, not a wrapped width", "[hf]") {
    const HfModel m = inline_model(
        R"({"model_type": "gpt2", "n_embd": 9223372036854775807, "n_head": 1, "n_layer": 1, "vocab_size": 8})");
    CHECK(error_of([&] { m.layer(0, worked()); }) ==
          "test.json: `n_embd` = 9223372036854775807: the feed-forward width 4 * 9223372036854775807 is beyond 64 bits");
}

TEST_CASE("a config nested past 64 is refused where it goes too deep, not a stack overflow", "[hf]") {
    const std::string deep = R"({"model_type": "llama", "x": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
    CHECK(error_of([&] { inline_model(deep); }) == "test.json:1:93: arrays and objects nested deeper than 64");
    // Brackets in strings are text, not nesting.
    CHECK_NOTHROW(HfConfig::parse(R"({"model_type": "llama", "note": ")" + std::string(1000, '[') + "\"}", "s.json"));
}

TEST_CASE("a config's strings are printed without their control bytes", "[hf]") {
    // A downloaded config could retitle or clear the terminal through the header.
    const HfConfig c = HfConfig::parse("{\"model_type\": \"llama\\u001b]0;owned\\u0007\", \"torch_dtype\": \"x\\ry\"}", "e.json");
    CHECK(c.model_type() == "llama\\x1b]0;owned\\x07");
    CHECK(c.text("torch_dtype") == "x\\x0dy");
}
