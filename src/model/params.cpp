#include "model/params.h"

#include "model/attention.h"
#include "value/arith.h"

// Each formula is the reference's (layer_block.py) term by term. Fields are
// read into locals in the order Python reads them, since the operands of
// C++'s overloaded operators are unsequenced and the first missing field is
// the one the error names. Value arithmetic gives Python's types and bits.

namespace oprec {

namespace {

Value integer(std::int64_t v) { return Value::integer(v); }

// Python's max(a, b): the first argument unless the second is greater.
Value py_max(Value a, Value b) { return py::compare(py::CmpOp::Gt, b, a) ? b : a; }

}  // namespace

Value bias_params(const LayerConfig& ccfg, std::string_view stated, Value width) {
    // getattr(ccfg, stated, None): unstated counts the hidden width (the
    // formulas' legacy convention), stated counts width or nothing.
    const FieldValue* has_bias = ccfg.find(stated);
    if (has_bias == nullptr || std::holds_alternative<std::monostate>(*has_bias))
        return ccfg.number("h");
    return truth(*has_bias) ? width : integer(0);
}

Value mlp_bias_params(const LayerConfig& ccfg, Value width) {
    const FieldValue* has_bias = ccfg.find("mlp_bias");
    if (has_bias == nullptr || std::holds_alternative<std::monostate>(*has_bias))
        return ccfg.number("n_ffMM") * width;
    if (!truth(*has_bias)) return integer(0);
    const Value n_ffmm = ccfg.number("n_ffMM");
    return (n_ffmm - integer(1)) * width + ccfg.number("h");
}

Value num_params_mla(const LayerConfig& ccfg) {
    // d_qk = getattr(ccfg, "qk_nope_head_dim", None) or ccfg.dh
    const Value d_qk = ccfg.stated_truth("qk_nope_head_dim") ? ccfg.number("qk_nope_head_dim")
                                                              : ccfg.number("dh");
    const Value a = ccfg.number("a");
    const Value heads_q = a * (d_qk + ccfg.number("dhr"));

    Value query;
    if (ccfg.truth("dc_q")) {
        const Value h = ccfg.number("h");
        const Value dc_q = ccfg.number("dc_q");
        query = h * dc_q + dc_q + dc_q * heads_q;
    } else {
        query = ccfg.number("h") * heads_q;
    }

    const Value h = ccfg.number("h");
    const Value dc_kv = ccfg.number("dc_kv");
    const Value dhr = ccfg.number("dhr");
    const Value n_kv = ccfg.number("n_kv");
    const Value dh = ccfg.number("dh");
    const Value key_value = h * (dc_kv + dhr) + dc_kv + dc_kv * n_kv * (d_qk + dh);

    const Value output = a * dh * h;
    return Value::real(0.25) * ccfg.number("n_attMM") * (query + key_value + output);
}

Value num_params_attn(const LayerConfig& ccfg) {
    // `ccfg.dc_kv == 0`: None or a string compares unequal, as in Python.
    const Value* dc_kv = std::get_if<Value>(&ccfg.get("dc_kv"));
    if (dc_kv == nullptr || !py::compare(py::CmpOp::Eq, *dc_kv, integer(0)))
        return num_params_mla(ccfg);

    // Q and O are h x (a*dh), K and V h x (n_kv*dh); a fused output gate
    // (Qwen3.5) doubles Q.
    const Value d_h = head_dim(ccfg);
    const Value d_q = ccfg.number("a") * d_h;
    const Value q_fact = integer(ccfg.truth("attn_output_gate") ? 2 : 1);

    const Value quarter = Value::real(0.25) * ccfg.number("n_attMM");
    const Value h = ccfg.number("h");
    const Value q_weights = q_fact * h * d_q;
    const Value query = quarter * (q_weights + bias_params(ccfg, "qkv_bias", q_fact * d_q));

    const Value o_weights = h * d_q;
    const Value out = Value::real(0.25) * ccfg.number("n_attMM") *
                      (o_weights + bias_params(ccfg, "o_bias", h));

    const Value half = Value::real(0.5) * ccfg.number("n_attMM");
    const Value n_kv = ccfg.number("n_kv");
    const Value kv_weights = h * n_kv * d_h;
    const Value key_value = half * (kv_weights + bias_params(ccfg, "qkv_bias", n_kv * d_h));

    return query + out + key_value + ccfg.number("attn_extra_p");
}

Value num_params_ffn(const LayerConfig& ccfg) {
    const Value n_exp = ccfg.number("n_exp");
    const Value experts = n_exp + ccfg.number("n_shared_exp");
    const Value n_ffmm = ccfg.number("n_ffMM");
    const Value hff = ccfg.number("hff");
    const Value weights = n_ffmm * hff * ccfg.number("h");
    return experts * (weights + mlp_bias_params(ccfg, hff));
}

Value num_params_routed_expert(const LayerConfig& ccfg) {
    // Expert TP slices each expert's width; etp 0 counts as 1.
    const Value hff_exp = ccfg.number("hff_exp");
    const Value hff_sliced = hff_exp / py_max(ccfg.number("etp"), integer(1));
    const Value n_exp = ccfg.number("n_exp");
    const Value n_ffmm = ccfg.number("n_ffMM");
    const Value weights = n_ffmm * hff_sliced * ccfg.number("h");
    return n_exp * (weights + mlp_bias_params(ccfg, hff_sliced));
}

Value num_params_router(const LayerConfig& ccfg) {
    // A weight per routed expert where the layer routes (int 0 otherwise).
    if (!py::compare(py::CmpOp::Gt, ccfg.number("n_exp"), integer(1))) return integer(0);
    const Value h = ccfg.number("h");
    return h * ccfg.number("n_exp");
}

Value num_params_shared_expert(const LayerConfig& ccfg) {
    // Shared experts count in routed experts' width (hff_exp), plus an
    // h-wide gate where the model states one.
    const bool gated = ccfg.truth("n_shared_exp") && ccfg.stated_truth("shared_expert_gate");
    const Value gate = gated ? ccfg.number("h") : integer(0);
    const Value width = ccfg.number("hff_exp");
    const Value n_shared = ccfg.number("n_shared_exp");
    const Value n_ffmm = ccfg.number("n_ffMM");
    const Value weights = n_ffmm * width * ccfg.number("h");
    return n_shared * (weights + mlp_bias_params(ccfg, width)) + gate;
}

Value num_params_norm(const LayerConfig& ccfg) {
    // Stated norms hold a weight each (and a bias in a LayerNorm); unstated,
    // two vectors per norm op.
    const std::optional<Value> layer_norms = ccfg.stated("layer_norms");
    const Value vectors = layer_norms
        ? *layer_norms * integer(ccfg.stated_truth("norm_bias") ? 2 : 1)
        : ccfg.number("n_normOp") * integer(2);
    const Value norms = vectors * ccfg.number("h");
    const Value qk_norms = ccfg.number_or("n_qknorm", integer(0)) * integer(2);
    return norms + qk_norms * head_dim(ccfg);
}

}  // namespace oprec
