// The model's layers laid out on pipeline stages and model chunks, as
// Megatron-LM lays them out (even stages, or uneven first and last ones;
// interleaved chunks take every pp-th slice), with which layers are fully
// recomputed under Megatron's recompute methods.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rank/strategy.h"

namespace oprec::rank {

struct Chunk {
    std::vector<std::size_t> layers;  // global layer indices, in order
    std::vector<bool> recomputed;     // parallel: the layer is fully recomputed
    std::vector<bool> keeps_input;    // parallel: a recomputed group's input is kept at this layer
    std::int64_t recompute_group = 1; // layers recomputed together in the backward
};

struct Layout {
    std::vector<std::vector<Chunk>> stages;  // [stage][chunk]
    std::int64_t stage_layers(std::int64_t stage) const;
};

// Throws FitError (fit.h) for sizes that do not divide or leave a stage empty.
Layout lay_out(std::size_t layers, const RankStrategy& s);

}  // namespace oprec::rank
