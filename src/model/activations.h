// The activation evaluators of the attention, feed-forward and norm blocks:
// thin callers of the records, one slot each, never a second copy of a formula.
#pragma once

#include <optional>

#include "model/evaluator.h"

namespace oprec::activations {

Value attn_qkv(const RecordsEvaluator& r, const LayerDoc& layer);
Value attn_score(const RecordsEvaluator& r, const LayerDoc& layer);
Value attn_proj(const RecordsEvaluator& r, const LayerDoc& layer);
// A dense feed-forward `width` wide, the layer's `hff` unless given.
Value ffn(const RecordsEvaluator& r, const LayerDoc& layer, std::optional<Value> width = std::nullopt);
Value ffn_router(const RecordsEvaluator& r, const LayerDoc& layer);
Value shared_experts(const RecordsEvaluator& r, const LayerDoc& layer);
Value routed_experts(const RecordsEvaluator& r, const LayerDoc& layer);
// routed + shared + router, in that order.
Value ffn_moe(const RecordsEvaluator& r, const LayerDoc& layer);
Value norm(const RecordsEvaluator& r, const LayerDoc& layer);

}  // namespace oprec::activations
