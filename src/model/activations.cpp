#include "model/activations.h"

#include "value/arith.h"

namespace oprec::activations {

Value attn_qkv(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "qkv"); }
Value attn_score(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "score"); }
Value attn_proj(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "proj"); }

Value ffn(const RecordsEvaluator& r, const LayerDoc& layer, std::optional<Value> width) {
    if (!width) return r.slot_bytes(layer, "ffn");
    const Overrides overrides{{"hff", *width}};
    SlotQuery query;
    query.overrides = &overrides;
    return r.slot_bytes(layer, "ffn", query);
}

Value ffn_router(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "router"); }
Value shared_experts(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "shared"); }
Value routed_experts(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "routed"); }

Value ffn_moe(const RecordsEvaluator& r, const LayerDoc& layer) {
    // Sequenced as Python evaluates the sum, left to right: the operands of
    // a C++ `+` are unsequenced, and the first to raise is the error.
    const Value routed = routed_experts(r, layer);
    const Value shared = shared_experts(r, layer);
    const Value both = routed + shared;
    return both + ffn_router(r, layer);
}

Value norm(const RecordsEvaluator& r, const LayerDoc& layer) { return r.slot_bytes(layer, "norm"); }

}  // namespace oprec::activations
