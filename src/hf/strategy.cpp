#include "hf/strategy.h"

#include <fmt/format.h>

#include "value/format.h"

namespace oprec::hf {

std::optional<Dtype> parse_dtype(std::string_view text) {
    if (text == "bf16" || text == "bfloat16") return Dtype::Bf16;
    if (text == "fp16" || text == "float16" || text == "half") return Dtype::Fp16;
    if (text == "fp32" || text == "float32" || text == "float") return Dtype::Fp32;
    return std::nullopt;
}

std::string_view dtype_name(Dtype dtype) {
    switch (dtype) {
    case Dtype::Bf16: return "bf16";
    case Dtype::Fp16: return "fp16";
    case Dtype::Fp32: return "fp32";
    }
    return "?";
}

std::int64_t dtype_bytes(Dtype dtype) { return dtype == Dtype::Fp32 ? 4 : 2; }

std::optional<CpAlgo> parse_cp_option(std::string_view text) {
    if (text == "ring" || text == "colossalai" || text == "colossalai_cp") return CpAlgo::ColossalAI;
    if (text == "ulysses" || text == "ulysses_cp") return CpAlgo::Ulysses;
    if (text == "hybrid" || text == "hybrid_cp" || text == "hybird_cp") return CpAlgo::Hybrid;
    return std::nullopt;
}

std::string_view cp_option_name(CpAlgo algo) {
    switch (algo) {
    case CpAlgo::ColossalAI: return "ring";
    case CpAlgo::Ulysses: return "ulysses";
    case CpAlgo::Hybrid: return "hybrid";
    }
    return "?";
}

std::optional<Recompute> parse_recompute(std::string_view text) {
    if (text == "none") return Recompute::None;
    if (text == "selective") return Recompute::Selective;
    if (text == "full") return Recompute::Full;
    return std::nullopt;
}

std::string_view recompute_name(Recompute r) {
    switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    }
    return "?";
}

std::string describe(const Strategy& s) {
    std::string out = fmt::format("tp={} cp={} {} {} ep={} etp={} mbs={}", s.tp, s.cp, cp_option_name(s.cp_algo),
                                  s.sp ? "sp" : "no-sp", s.ep, s.etp, s.mbs);
    out += s.seq ? fmt::format(" seq={}", *s.seq) : " seq=model";
    if (s.dtype) out += fmt::format(" {}", dtype_name(*s.dtype));
    out += s.flash_attention ? " fa" : " no-fa";
    if (s.param_casts) out += " casts";
    if (!(s.micro_factor.is_int() && s.micro_factor.i == 1)) out += " micro=" + repr(s.micro_factor);
    return out;
}

}  // namespace oprec::hf
