// The model's layers laid out on pipeline stages and model chunks, as
// Megatron-LM lays them out (even stages, or uneven first and last ones;
// interleaved chunks take every pp-th slice), with which layers are fully
// recomputed under Megatron's recompute methods.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "rank/strategy.h"

namespace oprec::rank {

// A model chunk holds a run of consecutive layers (Megatron assigns each
// virtual stage a contiguous slice), so a range says which.
struct Chunk {
    std::size_t first = 0;             // its first layer's global index
    std::size_t count = 0;             // layers in the chunk
    std::size_t recomputed_count = 0;  // the first ones fully recomputed (all under `uniform`)
    std::size_t group = 1;             // uniform: each group of this many keeps its first layer's input
    bool uniform = false;
    std::int64_t recompute_group = 1;  // layers recomputed together in the backward

    bool recomputed(std::size_t i) const { return i < recomputed_count; }
    // A recomputed group's input is kept at this layer (i: from the chunk's first).
    bool keeps_input(std::size_t i) const { return recomputed(i) && (!uniform || i % group == 0); }
};

// Chunks stage-major: stage st's chunk c is chunks[st * vp + c].
struct Layout {
    std::int64_t pp = 1, vp = 1;
    std::vector<Chunk> chunks;
    const Chunk& chunk(std::int64_t stage, std::int64_t c) const {
        return chunks[static_cast<std::size_t>(stage * vp + c)];
    }
    Chunk& chunk(std::int64_t stage, std::int64_t c) { return chunks[static_cast<std::size_t>(stage * vp + c)]; }
    std::int64_t stage_layers(std::int64_t stage) const;
};

Layout lay_out(std::size_t layers, const RankStrategy& s);

// Where virtual stage v (the v-th slice of layers in model order) runs: its
// pipeline stage and its chunk there. Interleaved, the chunks go round the
// stages (v mod pp, v / pp); DualPipeV's V (`v_shape`) goes down the stages
// on chunk 0 and back up on chunk 1, so stage 0 holds the first slice and
// the last.
std::pair<std::int64_t, std::int64_t> place(std::int64_t v, std::int64_t pp, bool v_shape);

}  // namespace oprec::rank
