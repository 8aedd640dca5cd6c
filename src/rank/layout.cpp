#include "rank/layout.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "rank/fit.h"

namespace oprec::rank {

std::int64_t Layout::stage_layers(std::int64_t stage) const {
    std::int64_t n = 0;
    for (std::int64_t c = 0; c < vp; ++c) n += static_cast<std::int64_t>(chunk(stage, c).count);
    return n;
}

namespace {

// Megatron's recompute of one chunk's layers (transformer_block.py's
// _checkpointed_forward): uniform groups of n layers, each keeping its
// input; or the first n layers alone, each keeping its own.
void mark_recompute(Chunk& c, const RankStrategy& s) {
    const std::size_t size = c.count;
    if (s.layer.recompute != hf::Recompute::Full) return;
    const std::int64_t stated = s.recompute_layers.value_or(1);
    if (s.recompute_method == RecomputeMethod::Uniform) {
        const auto n = static_cast<std::size_t>(std::max<std::int64_t>(1, stated));
        c.uniform = true;
        c.group = n;
        c.recomputed_count = size;
        c.recompute_group = static_cast<std::int64_t>(std::min(n, size));
    } else {  // block: the first n layers; 0 recomputes none, as Megatron-LM's loop does
        c.recomputed_count = std::min(static_cast<std::size_t>(std::max<std::int64_t>(0, stated)), size);
    }
}

}  // namespace

std::pair<std::int64_t, std::int64_t> place(std::int64_t v, std::int64_t pp, bool v_shape) {
    if (v_shape && v >= pp) return {2 * pp - 1 - v, 1};
    return {v % pp, v / pp};
}

Layout lay_out(std::size_t layers, const RankStrategy& s) {
    const auto L = static_cast<std::int64_t>(layers);
    const std::int64_t pp = s.pp, vp = s.vpp;
    // pp * vp chunks, each of at least one layer unless each chunk's count
    // is stated (Megatron-LM's pipeline split may leave one to the
    // embedding); first and last stages' counts are checked below.
    std::int64_t chunks = 0;
    if (__builtin_mul_overflow(pp, vp, &chunks) || (s.virtual_stage_layers.empty() && chunks > L))
        throw FitError(fmt::format("{} layers cannot fill pp * vpp = {} * {} model chunks", L, pp, vp));
    if (s.virtual_stage_layers.empty() && s.balance_layers && !s.first_stage_layers && !s.last_stage_layers &&
        L % (pp * vp) != 0) {
        const std::int64_t stages = pp * vp;
        RankStrategy balanced = s;
        balanced.virtual_stage_layers.assign(static_cast<std::size_t>(stages), L / stages);
        std::int64_t extra = L % stages;
        // The middle stages first, then the last and the first.
        for (std::int64_t v = 1; v < stages - 1 && extra > 0; ++v, --extra) ++balanced.virtual_stage_layers[v];
        if (extra > 0) ++balanced.virtual_stage_layers.back(), --extra;
        if (extra > 0) ++balanced.virtual_stage_layers.front();
        return lay_out(layers, balanced);
    }
    if (!s.virtual_stage_layers.empty() && static_cast<std::int64_t>(s.virtual_stage_layers.size()) != chunks)
        throw FitError(fmt::format("{} virtual stages' layer counts for pp * vpp = {} * {}",
                                   s.virtual_stage_layers.size(), pp, vp));
    const bool v_shape = s.schedule_or_default() == Schedule::DualPipeV;
    Layout out;
    out.pp = pp;
    out.vp = vp;
    out.chunks.assign(static_cast<std::size_t>(chunks), Chunk{});
    if (!s.virtual_stage_layers.empty()) {
        // Stated: virtual stage v = c * pp + st holds the next count of layers, in model order.
        std::int64_t placed = 0;
        for (std::int64_t n : s.virtual_stage_layers) placed += n;
        if (placed != L || std::any_of(s.virtual_stage_layers.begin(), s.virtual_stage_layers.end(),
                                       [](std::int64_t n) { return n < 0; }))
            throw FitError(fmt::format("the virtual stages place {} layers; the model has {}", placed, L));
        std::size_t next = 0;
        for (std::int64_t v = 0; v < pp * vp; ++v) {
            const auto [stage, chunk] = place(v, pp, v_shape);
            Chunk& c = out.chunk(stage, chunk);
            c.first = next;
            c.count = static_cast<std::size_t>(s.virtual_stage_layers[v]);
            next += c.count;
        }
        for (Chunk& c : out.chunks) mark_recompute(c, s);
        return out;
    }
    std::vector<std::int64_t> per_stage(static_cast<std::size_t>(pp), 0);
    const bool uneven = s.first_stage_layers || s.last_stage_layers;
    if (uneven) {
        if (vp > 1) throw FitError("uneven first or last stages with an interleaved pipeline (vpp > 1) are not modelled");
        if (pp < 2) throw FitError("--first-stage-layers and --last-stage-layers need at least two pipeline stages");
        const std::int64_t first = s.first_stage_layers.value_or(-1), last = s.last_stage_layers.value_or(-1);
        std::int64_t rest = L - std::max<std::int64_t>(first, 0) - std::max<std::int64_t>(last, 0);
        const std::int64_t even = pp - (first >= 0) - (last >= 0);
        if (rest < 0 || (even == 0 ? rest != 0 : rest % even != 0))
            throw FitError(fmt::format("{} layers do not split over {} stages with {} on the first and {} on the last",
                                       L, pp, first >= 0 ? fmt::to_string(first) : "the rest",
                                       last >= 0 ? fmt::to_string(last) : "the rest"));
        for (std::int64_t st = 0; st < pp; ++st) per_stage[st] = even > 0 ? rest / even : 0;
        if (first >= 0) per_stage.front() = first;
        if (last >= 0) per_stage.back() = last;
    } else {
        if (L % (pp * vp) != 0)
            throw FitError(fmt::format("{} layers do not split evenly over pp * vpp = {} * {} model chunks{}", L, pp, vp,
                                       vp == 1 && pp > 1 ? ": give the first or last stage its own count "
                                                           "(--first-stage-layers, --last-stage-layers)" : ""));
        std::fill(per_stage.begin(), per_stage.end(), L / pp);
    }
    if (uneven) {
        std::size_t next = 0;
        for (std::int64_t st = 0; st < pp; ++st) {
            Chunk& c = out.chunk(st, 0);
            c.first = next;
            c.count = static_cast<std::size_t>(per_stage[st]);
            next += c.count;
        }
    } else {
        // pp * vp equal slices, each where place() puts it.
        const std::int64_t slice = L / (pp * vp);
        for (std::int64_t v = 0; v < pp * vp; ++v) {
            const auto [stage, c] = place(v, pp, v_shape);
            Chunk& chunk = out.chunk(stage, c);
            chunk.first = static_cast<std::size_t>(v * slice);
            chunk.count = static_cast<std::size_t>(slice);
        }
    }
    for (Chunk& c : out.chunks) mark_recompute(c, s);
    return out;
}

}  // namespace oprec::rank
