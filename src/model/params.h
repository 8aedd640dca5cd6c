// The native parameter counts of one layer (the reference's num_params_*
// of EvalAttn, EvalFFn and EvalNorm), ported with Python's value types and
// order of operations so that every result has the reference's type and bits
// (e.g. num_params_attn is a float, num_params_router an int).
//
// They read only the layer config (the reference passes a context it
// ignores). Errors: EvalError MissingField for a field the config lacks,
// TypeError for arithmetic on None or a string, as Python raises them.
#pragma once

#include <string_view>

#include "model/layer.h"
#include "value/value.h"

namespace oprec {

// _bias: a projection's bias; `h` when the config leaves `stated` unstated
// (absent or None), else `width` if it is truthy, else int 0.
Value bias_params(const LayerConfig& ccfg, std::string_view stated, Value width);
// _mlp_biases: one feed-forward's biases at `width`; mlp_bias unstated ->
// n_ffMM*width, truthy -> (n_ffMM-1)*width + h, falsy -> int 0.
Value mlp_bias_params(const LayerConfig& ccfg, Value width);

Value num_params_mla(const LayerConfig& ccfg);
// MHA/GQA/MQA when dc_kv == 0, else num_params_mla.
Value num_params_attn(const LayerConfig& ccfg);
Value num_params_ffn(const LayerConfig& ccfg);
Value num_params_routed_expert(const LayerConfig& ccfg);
Value num_params_router(const LayerConfig& ccfg);
Value num_params_shared_expert(const LayerConfig& ccfg);
Value num_params_norm(const LayerConfig& ccfg);

}  // namespace oprec
