// From a Hugging Face config to layer documents: the family (op profile)
// the model's name chooses, the layer stack (each layer's kind), and a
// layer's config under a strategy, as the reference's HF parser, derive and
// apply_family steps build it (docs/domain.md §2.3, §1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/program.h"
#include "hf/hf_config.h"
#include "hf/strategy.h"
#include "model/layer.h"

namespace oprec::hf {

// The most layers a config may state (`num_hidden_layers`): the largest
// models have a few hundred (docs/limits.md).
inline constexpr std::int64_t kMaxLayers = 100'000;

// infer_arch: the profile with the longest prefix of the lower-cased name
// among every profile's `matches`; else `default`. nullptr when the program
// has no `default` profile and no prefix matches.
const OpProfile* infer_family(const Profiles& profiles, std::string_view model_name);

class HfModel {
public:
    // Chooses the family (by `family`, else by the model's name) and derives
    // the layer stack. Throws HfError naming the key at fault.
    HfModel(const Program& program, HfConfig config, const std::optional<std::string>& family = std::nullopt);

    const HfConfig& config() const { return config_; }
    // Whether the output layer shares the embedding's table: the config's
    // tie_word_embeddings, else its transformers config class's default.
    bool tied_embeddings() const;
    const OpProfile& family() const { return *family_; }
    const std::string& name() const { return name_; }  // lower-cased model_type
    // Each layer's kind, in order (num_hidden_layers of them).
    const std::vector<std::string>& stack() const { return stack_; }
    // The kinds in the stack, in order of first appearance, with their counts.
    std::vector<std::pair<std::string, std::size_t>> kinds() const;
    // The first layer of `kind`; HfError when the stack has none.
    std::size_t first_of(std::string_view kind) const;
    // The layer priced when none is asked for: the first of the default kind, else layer 0.
    std::size_t representative_layer() const;

    // The sequence and dtype a strategy leaves to the model: max_position_embeddings
    // (else 4096), torch_dtype (else bf16); HfError for a torch_dtype oprec does not know.
    std::int64_t default_seq() const;
    Dtype default_dtype() const;
    // The strategy with its sequence and dtype settled.
    Strategy resolved(Strategy strategy) const;

    // The layer document of layer `index` under `strategy` (HfError naming
    // the key or option at fault).
    LayerDoc layer(std::size_t index, const Strategy& strategy) const;
    LayerDoc layer_of_kind(const LayerKind& kind, const Strategy& strategy) const;

    // A fully recomputed layer keeps only its input: micro_factor *
    // bytes_compute * s * b * h / shard_recompute_input, the shard being t
    // when the family shards activations, else 1 (docs/domain.md §3.4).
    Value full_recompute_input(const LayerDoc& layer) const;
    Value shard_recompute_input(const LayerDoc& layer) const;

private:
    void check_model() const;
    // The family's model default of `field` for this model's name (profiles.rec), else `fallback`.
    Value model_default(std::string_view field, Value fallback) const;
    // Every kind of the family runs two feed-forward matmuls (no gate): the
    // GPT-style families, whose configs may leave the width to be 4h.
    bool ungated_mlp() const;
    // A softmax-attention layer's key/value heads (Falcon's multi_query: one).
    std::int64_t kv_heads(std::int64_t heads) const;
    void check_strategy(const LayerKind& kind, const Strategy& s, std::int64_t heads, std::int64_t experts) const;

    const Program& program_;
    HfConfig config_;
    const OpProfile* family_ = nullptr;
    std::string name_;
    std::vector<std::string> stack_;
};

}  // namespace oprec::hf
