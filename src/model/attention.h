// Attention facts the native evaluators compute without the records: the
// context-parallel algorithm, the K/V shards, the gathered K/V bytes and the
// head width (the reference's EvalAttn.kv_shards / gathered_kv_bytes and
// EvalNorm.head_dim). Results keep Python's types: an int where the reference
// gives an int.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/layer.h"
#include "value/value.h"

namespace oprec {

// nd/common/cp_types.py's CPAlgo.
enum class CpAlgo : std::uint8_t {
    ColossalAI,  // "colossalai_cp": ring CP, K/V all-gathered
    Hybrid,      // "hybrid_cp" (and the reference's accepted misspelling "hybird_cp")
    Ulysses,     // "ulysses_cp": every rank all tokens, a share of the heads
};

// _CP_ALGO_STR_MAP.get(name, COLOSSALAI_CP): exact, case-sensitive names;
// anything else (e.g. "ring_cp") is Colossal-AI.
CpAlgo parse_cp_algo(std::string_view name);
// _resolve_cp_algo(ccfg): a string `cp_algo` through parse_cp_algo; absent,
// None or a number -> Colossal-AI.
CpAlgo resolve_cp_algo(const LayerConfig& ccfg);
std::string_view cp_algo_name(CpAlgo algo);  // "colossalai_cp", "hybrid_cp", "ulysses_cp"
// Why a stated `cp_algo` is doubtful: a string that names no algorithm, or
// a number, which the reference prices as ring CP without a word (a
// misspelt "ulysses_cp" would change the answer silently), saying so.
// nullopt when it names one (or ring CP as "ring_cp" or "ring"), is None or
// is not stated.
std::optional<std::string> cp_algo_doubt(const LayerConfig& ccfg);

// Over how many CP ranks the layer's K/V are split: `cp` (its own value and
// type) under Ulysses or when `n_linrec` is truthy (absent = 0), else int 1.
Value kv_shards(const LayerConfig& ccfg);
// Whether kv_shards reads `field` (so a change of it changes kv_shards).
bool kv_shards_reads(std::string_view field);
// Bytes per token of the other ranks' K/V a rank keeps where CP gathers
// them: (cp-1)*2*n_kv*dh*bytes_compute / max(1, t); int 0 when cp <= 1 or
// kv_shards > 1.
Value gathered_kv_bytes(const LayerConfig& ccfg);
// One attention head's width: `dh or (h / a if a else 0)`.
Value head_dim(const LayerConfig& ccfg);

}  // namespace oprec
