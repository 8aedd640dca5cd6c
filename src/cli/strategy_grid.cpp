#include "cli/strategy_grid.h"

#include <cstdint>

namespace oprec::cli {

std::size_t StrategyGrid::size() const {
    std::size_t n = 1;
    for (std::size_t k : {tp.size(), cp.size(), cp_algo.size(), sp.size(), ep.size(), etp.size(), mbs.size(), seq.size(),
                          dtype.size(), flash_attention.size(), param_casts.size(), micro_factor.size()})
        if (__builtin_mul_overflow(n, k, &n)) return SIZE_MAX;
    return n;
}

std::vector<HfStrategy> StrategyGrid::strategies() const {
    std::vector<HfStrategy> out;
    out.reserve(size());
    HfStrategy s;
    for (auto v_tp : tp)
        for (auto v_cp : cp)
            for (const auto& v_algo : cp_algo)
                for (bool v_sp : sp)
                    for (auto v_ep : ep)
                        for (auto v_etp : etp)
                            for (auto v_mbs : mbs)
                                for (const auto& v_seq : seq)
                                    for (const auto& v_dtype : dtype)
                                        for (bool v_fa : flash_attention)
                                            for (bool v_casts : param_casts)
                                                for (const Number& v_micro : micro_factor) {
                                                    s.tp = v_tp;
                                                    s.cp = v_cp;
                                                    s.cp_algo = v_algo;
                                                    s.sp = v_sp;
                                                    s.ep = v_ep;
                                                    s.etp = v_etp;
                                                    s.mbs = v_mbs;
                                                    s.seq = v_seq;
                                                    s.dtype = v_dtype;
                                                    s.flash_attention = v_fa;
                                                    s.param_casts = v_casts;
                                                    s.micro_factor = v_micro;
                                                    out.push_back(s);
                                                }
    return out;
}

std::vector<std::string> StrategyGrid::varying() const {
    const std::size_t counts[] = {tp.size(),  cp.size(),  cp_algo.size(), sp.size(),
                                  ep.size(),  etp.size(), mbs.size(),     seq.size(),
                                  dtype.size(), flash_attention.size(), param_casts.size(), micro_factor.size()};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < std::size(counts); ++i)
        if (counts[i] > 1) out.push_back(strategy_option_names()[i]);
    return out;
}

const std::vector<std::string>& strategy_option_names() {
    static const std::vector<std::string> options{"tp",  "cp",  "cp-algo", "sp",    "ep",          "etp",
                                                  "mbs", "seq", "dtype",   "flash-attention", "param-casts",
                                                  "micro-factor"};
    return options;
}

std::string option_value(const HfStrategy& s, const std::string& option) {
    auto on = [](bool b) { return std::string(b ? "on" : "off"); };
    if (option == "tp") return std::to_string(s.tp);
    if (option == "cp") return std::to_string(s.cp);
    if (option == "cp-algo") return s.cp_algo;
    if (option == "sp") return on(s.sp);
    if (option == "ep") return std::to_string(s.ep);
    if (option == "etp") return std::to_string(s.etp);
    if (option == "mbs") return std::to_string(s.mbs);
    if (option == "seq") return s.seq ? std::to_string(*s.seq) : "model";
    if (option == "dtype") return s.dtype ? *s.dtype : "model";
    if (option == "flash-attention") return on(s.flash_attention);
    if (option == "param-casts") return on(s.param_casts);
    if (option == "micro-factor") return s.micro_factor.repr();
    return "?";
}

}  // namespace oprec::cli
