// The Megatron-LM flags megatron_args.cpp reads, as a table: each flag's
// arity and what its value sets. Internal to the rank stage.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rank/megatron_args.h"

namespace oprec::rank::detail {

// What a flag stated, beyond Args, that the derivation needs.
struct Stated {
    std::optional<std::int64_t> num_query_groups;
    std::optional<std::int64_t> num_virtual_stages_per_pipeline_rank;
    std::optional<std::string> moe_layer_freq;
    std::optional<std::int64_t> encoder_seq_length;
    bool recompute_activations = false;
    bool moe_layer_recompute = false;  // Megatron's old spelling of selective recompute of `moe`
    bool use_rotary_position_embeddings = false;
    bool vocab_file = false;
    bool merge_file = false;
    bool max_position_embeddings = false;
    bool global_batch_size = false;
    bool expert_tensor_parallel_size = false;
    bool attention_softmax_in_fp32_stated = false;
};

// Reads one value: throws MegatronArgsError with the position.
struct ValueReader {
    std::string flag;
    std::string where;  // "SOURCE:LINE:COL" of the value

    std::int64_t integer(const std::string& text, std::int64_t min) const;
    double real(const std::string& text) const;
    const std::string& choice(const std::string& text, const std::vector<std::string>& choices) const;
};

enum class Arity { none, one, many };

struct FlagSpec {
    std::string_view name;
    Arity arity;
    std::function<void(Args&, Stated&, const std::vector<std::string>&, const ValueReader&)> set;
};

// The flags that change memory; nullptr for any other name.
const FlagSpec* find_flag(std::string_view name);
// Whether `name` is a Megatron flag known to change no memory.
bool is_ignored_flag(std::string_view name);

}  // namespace oprec::rank::detail
