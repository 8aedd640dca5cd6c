// Will it fit: every byte a rank holds, per pipeline stage, from a Hugging
// Face config and a strategy (or a Megatron-LM launch command), as the
// whole-rank records state it (records/rank_calibrated.rec,
// records/rank_reference.rec: weights, gradients, optimizer states,
// activations times the micro-batches in flight, the loss, buffers).
// docs/fit.md describes the model and the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/hf.h"
#include "oprec/number.h"
#include "oprec/records.h"

namespace oprec {

namespace detail {
struct FitState;
}

struct FitStrategy {
    HfStrategy layer;                      // tp, cp, sp, ep, etp, mbs, seq, dtype, attention, recompute
    std::int64_t gpus = 8;
    std::int64_t pp = 1;
    std::int64_t vpp = 1;                  // model chunks per stage
    std::optional<std::int64_t> gbs;       // none: one micro-batch per data-parallel rank
    int zero = 1;                          // 0, 1 (distributed optimizer), 2, 3 (FSDP)
    std::optional<std::string> schedule;   // 1f1b, interleaved, gpipe, dualpipev, zero-bubble; none: 1f1b (interleaved when vpp > 1)
    std::string optimizer = "adam";        // adam, sgd
    std::string recompute_method = "uniform";       // uniform, block (with recompute = full)
    std::optional<std::int64_t> recompute_layers;   // layers per group (uniform) or per chunk (block)
    std::optional<std::int64_t> first_stage_layers, last_stage_layers;
    // Or every virtual stage's layers, v = chunk * pp + stage (pp * vpp of them).
    std::vector<std::int64_t> virtual_stage_layers;
    // Layers that do not split evenly go one each to the middle virtual
    // stages (the first and last keep the embedding and the loss), else refused.
    bool balance_layers = false;
    std::optional<std::int64_t> vp_group;  // micro-batches a chunk takes in a row (interleaved); none: pp
    // With no gbs, the least batch the interleaved schedule runs (mbs * dp *
    // vp_group) whatever the schedule: a sweep's rows of one pp then compare.
    bool interleaved_batch = false;
    std::optional<bool> untied;            // none: the config's tie_word_embeddings
    std::optional<std::int64_t> vocab;     // none: the config's vocab_size
    std::int64_t mtp_layers = 0;
    bool learned_positions = false;
    bool fp32_grads = true;                // gradients accumulated in fp32
    bool grouped_gemm = false;             // MoE experts as one grouped GEMM
    bool fused_cross_entropy = false;      // the loss as one fused kernel
    bool moe_allgather = true;             // MoE tokens dispatched by all-gather, else all-to-all
    std::int64_t deferred_wgrad = 0;       // micro-batches whose output-layer weight gradient waits
    double device_bytes = 80.0 * 1024 * 1024 * 1024;
};

// A term the records state (`term` or `beside`); a result names each once,
// and every stage's bytes follow the same order.
struct FitTerm {
    std::string name;
    bool beside = false;  // reported beside the stage's total, not in it
    std::string where;    // its declaration's file:line:col in the records
    std::string text;     // the declaration as written (`term name = ...`)
    std::string comment;  // the comment lines just above it (its source), `#` and all
};

struct FitStage {
    std::int64_t stage = 0;
    std::int64_t layers = 0;
    std::vector<Number> bytes;  // each term's, in FitResult::terms' order
    Number total;               // the counted terms' sum
};

struct FitResult {
    std::string model;        // "llama (profile default), 32 layers"
    std::string strategy;     // every default settled
    std::int64_t dp = 1;
    std::int64_t micro_batches = 1;
    std::vector<FitTerm> terms;    // in the records' order
    std::vector<FitStage> stages;  // in pipeline order
    std::size_t peak_stage = 0;
    double peak_bytes = 0;
    double device_bytes = 0;
    bool fits = false;
    // The model's parameter count, where the caller asked FitModel::parameters
    // for it; written as "parameters" when set.
    std::optional<Number> parameters;
    // What the model states that nothing prices (a multimodal config's
    // vision tower); written as "notes" when there are any.
    std::vector<std::string> notes;
    // docs/fit.md's schema: {"stages": [{"stage", "layers", "total_bytes",
    // "terms": {...}, "beside": {...}}], "peak_bytes", "peak_stage",
    // "device_bytes", "fits", "margin_bytes", ...}; indent < 0: one line.
    std::string to_json(int indent = 2) const;
};

// A model bound to whole-rank records once, fitted under many strategies.
// The records must state terms and be loaded with op profiles
// (RecordsOptions::profiles).
class FitModel {
public:
    // Throws LayerError for a config that cannot be read, RecordsError-free
    // records without terms or profiles.
    FitModel(const Records& records, const std::filesystem::path& config, std::optional<std::string> family = {});
    // A config.json given as text; `source_name` stands for it in messages.
    FitModel(const Records& records, std::string_view config_json, std::string source_name,
             std::optional<std::string> family = {});
    FitModel(FitModel&&) noexcept;
    FitModel& operator=(FitModel&&) noexcept;
    ~FitModel();

    // Throws LayerError for a strategy the model cannot take (naming the
    // option), PricingError for a term the records cannot evaluate.
    FitResult fit(const FitStrategy& strategy) const;
    // The model's parameters (vocabulary, output layer and MTP layers as the
    // strategy states them): the records' `weights` term for the whole model
    // on one GPU in fp32, over 4 bytes. None where the records state no
    // `weights` term or cannot price that job. A second fit: ask for it
    // once, not per strategy of a sweep.
    std::optional<Number> parameters(const FitStrategy& strategy) const;

private:
    std::unique_ptr<detail::FitState> state_;
};

// A Megatron-LM launch command (the whole command or its flags,
// shell-quoted), read as megatron/training/arguments.py reads it: the model
// as a Hugging Face config, and the strategy.
struct MegatronJob {
    std::string config_json;           // the model, as a config.json
    FitStrategy strategy;
    std::vector<std::string> ignored;  // flags that do not change memory
    std::vector<std::string> unknown;  // flags Megatron-LM does not have (or oprec does not know)
    std::vector<std::string> notes;    // what was assumed
};
// Throws LayerError naming the flag and its line:col in `text`. `gpus`:
// the job's GPU count; none: the launcher's (torchrun's --nnodes *
// --nproc-per-node) where the command states one, else 8; a count given that
// is not the launcher's is taken, with a note.
MegatronJob megatron_job(std::string_view text, std::string source_name, std::optional<std::int64_t> gpus = {});
// The job fitted on the records (bound to its model, `source_name` standing
// for the command in messages), with the parameter count, and the
// command's notes before the model's. Throws as FitModel and fit do.
FitResult fit_megatron(const Records& records, const MegatronJob& job, std::string source_name,
                       std::optional<std::string> family = {});

}  // namespace oprec
