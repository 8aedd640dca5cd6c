// A training strategy for one layer: the parallel degrees, the micro-batch,
// the sequence, the widths, flash attention, parameter casts and the
// recompute setting. The defaults are those of the reference's
// HyperParallel parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/attention.h"
#include "model/layer.h"
#include "value/value.h"

namespace oprec::hf {

enum class Dtype : std::uint8_t { Bf16, Fp16, Fp32 };
enum class Recompute : std::uint8_t { None, Selective, Full };

std::optional<Dtype> parse_dtype(std::string_view text);          // bf16 fp16 fp32 (and the torch names)
std::string_view dtype_name(Dtype dtype);                          // "bf16"
std::int64_t dtype_bytes(Dtype dtype);                             // 2, 2, 4
// "ring" (Colossal-AI's ring CP), "ulysses", "hybrid", and the reference's
// own names ("colossalai_cp", ...); nullopt for anything else.
std::optional<CpAlgo> parse_cp_option(std::string_view text);
std::string_view cp_option_name(CpAlgo algo);                      // "ring", "ulysses", "hybrid"
std::optional<Recompute> parse_recompute(std::string_view text);  // none selective full
std::string_view recompute_name(Recompute r);

struct Strategy {
    std::int64_t tp = 1;
    std::int64_t cp = 1;
    CpAlgo cp_algo = CpAlgo::ColossalAI;  // the parser's default: ring CP
    bool sp = true;                       // sequence parallelism: sp = tp
    std::int64_t ep = 1;
    std::int64_t etp = 1;
    std::int64_t mbs = 1;
    std::optional<std::int64_t> seq;      // none: the model's max_position_embeddings, else 4096
    std::optional<Dtype> dtype;           // none: the model's torch_dtype, else bf16
    bool flash_attention = true;
    bool param_casts = false;             // FSDP gathers weights in the compute dtype: no cast copies
    Recompute recompute = Recompute::None;
    SwitchMap switches;                   // over the selective rule's
    Value micro_factor = Value::integer(1);
};

// "tp=4 cp=2 ring sp mbs=1 seq=4096 bf16 fa" style, for messages and tables.
std::string describe(const Strategy& s);

}  // namespace oprec::hf
