// A layer derived from a Hugging Face config.json under a training
// strategy, as the reference's HyperParallel parser derives it. The records
// must be loaded with op profiles (RecordsOptions::profiles).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec {

struct HfStrategy {
    std::int64_t tp = 1, cp = 1;
    std::string cp_algo = "ring";  // ring, ulysses, hybrid
    bool sp = true;
    std::int64_t ep = 1, etp = 1, mbs = 1;
    std::optional<std::int64_t> seq;    // none: the model's max_position_embeddings
    std::optional<std::string> dtype;   // none: the model's torch_dtype (bf16, fp16, fp32)
    bool flash_attention = true;
    bool param_casts = false;
    std::string recompute = "selective";  // none, selective (HyperParallel's rule), full
    Named<bool> switches;                 // over the selective rule's
    Number micro_factor = Number::integer(1);
};

struct HfModelChoice {
    std::optional<std::string> family;  // a profile's name; none: chosen by model_type
    std::optional<std::int64_t> layer;  // a layer index; none: the first of the family's default kind
    std::optional<std::string> kind;    // or the first layer of this kind
};

struct HfLayer {
    Layer layer;
    std::string model_type, family, kind;
    std::int64_t index = 0, layers = 0;
    std::string strategy;  // "tp=4 cp=2 ring sp ..." with the model's defaults settled
    std::optional<Number> full_recompute_input;  // a fully recomputed layer keeps only this
};

// The name a strategy's cp_algo or dtype goes by ("ring" for
// "colossalai_cp", "bf16" for "bfloat16"); nullopt for one the front end
// does not know. What a caller checks an option with before pricing.
std::optional<std::string> canonical_cp_algo(std::string_view name);
std::optional<std::string> canonical_dtype(std::string_view name);
// The strategy in one line, as a sweep names its rows: "tp=4 cp=2 ring sp
// ep=1 etp=1 mbs=1 seq=model fa" (its recompute and switches are not part
// of it). Throws LayerError for a cp_algo, dtype or recompute it does not know.
std::string strategy_text(const HfStrategy& strategy);

// Throws LayerError naming the key or option at fault.
HfLayer hf_layer(const Records& records, const std::filesystem::path& config, const HfStrategy& strategy,
                 const HfModelChoice& choice = {});

}  // namespace oprec
