// A training job's strategy for the whole rank: the layer's strategy (tp,
// cp, sp, ep, etp, micro-batch, sequence, dtype, attention, recompute) and
// what only the rank sees: the GPUs, the pipeline and its schedule, the
// batch, the optimizer and its sharding, which layers are recomputed, and
// the device's memory.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "hf/strategy.h"

namespace oprec::rank {

enum class Schedule : std::uint8_t { OneFOneB, Interleaved, GPipe, DualPipeV, ZeroBubble };
enum class Optimizer : std::uint8_t { Adam, Sgd };
// Megatron's --recompute-method: `uniform` recomputes every layer, keeping
// one input per group of `recompute_layers`; `block` recomputes the first
// `recompute_layers` layers of each model chunk and keeps the rest.
enum class RecomputeMethod : std::uint8_t { Uniform, Block };

std::optional<Schedule> parse_schedule(std::string_view text);  // 1f1b interleaved gpipe dualpipev zero-bubble
std::string_view schedule_name(Schedule s);
std::optional<Optimizer> parse_optimizer(std::string_view text);  // adam sgd
std::string_view optimizer_name(Optimizer o);

struct RankStrategy {
    hf::Strategy layer;                    // the per-layer strategy; `recompute` is the recomputed layers' setting
    std::int64_t gpus = 8;
    std::int64_t pp = 1;
    std::int64_t vpp = 1;                  // model chunks per pipeline stage (interleaving)
    std::optional<std::int64_t> gbs;       // global batch; none: one micro-batch per data-parallel rank
    int zero = 0;                          // 0 none, 1 distributed optimizer (ZeRO-1), 2 gradients too, 3 weights too (FSDP)
    std::optional<Schedule> schedule;      // none: 1F1B, interleaved when vpp > 1
    Optimizer optimizer = Optimizer::Adam;
    RecomputeMethod recompute_method = RecomputeMethod::Uniform;
    std::optional<std::int64_t> recompute_layers;  // none: every layer under `recompute`, one per group
    std::optional<std::int64_t> first_stage_layers, last_stage_layers;  // uneven first/last stages
    // Or every virtual stage's layers, v = chunk * pp + stage (pp * vpp of them).
    std::vector<std::int64_t> virtual_stage_layers;
    // Layers that do not split evenly go one each to the middle virtual
    // stages (the first and last keep the embedding and the loss), else refused.
    bool balance_layers = false;
    std::optional<std::int64_t> vp_group;  // micro-batches a chunk takes in a row (interleaved); none: pp
    bool interleaved_batch = false;        // no gbs: the interleaved schedule's least, whatever the schedule
    std::optional<bool> untied;            // none: the config's tie_word_embeddings (absent: untied)
    std::optional<std::int64_t> vocab;     // none: the config's vocab_size
    std::int64_t mtp_layers = 0;           // multi-token prediction layers on the last stage
    bool learned_positions = false;        // a learned position embedding (max_position_embeddings x h)
    bool fp32_grads = true;                // gradients accumulated in fp32 (Megatron under bf16)
    bool grouped_gemm = false;             // MoE experts as one grouped GEMM (its workspaces)
    bool fused_cross_entropy = false;      // the loss as one fused kernel (Megatron's --cross-entropy-loss-fusion)
    bool moe_allgather = true;             // MoE tokens dispatched by all-gather (Megatron's default)
    std::int64_t deferred_wgrad = 0;       // micro-batches whose output-layer weight gradient waits (0: none)
    double device_bytes = 80.0 * 1024 * 1024 * 1024;

    Schedule schedule_or_default() const {
        return schedule ? *schedule : (vpp > 1 ? Schedule::Interleaved : Schedule::OneFOneB);
    }
};

// "gpus=8 tp=2 pp=2 ... zero=1 1f1b adam" for messages and tables.
std::string describe(const RankStrategy& s);

}  // namespace oprec::rank
