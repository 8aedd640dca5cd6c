#include "hf/sweep.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include <fmt/format.h>

#include "model/layer_settings.h"
#include "value/format.h"

namespace oprec::hf {

std::size_t Grid::size() const {
    // Saturating: a product beyond size_t says "too many", never a small wrapped count.
    std::size_t n = 1;
    for (std::size_t k : {tp.size(), cp.size(), cp_algo.size(), sp.size(), ep.size(), etp.size(), mbs.size(), seq.size(),
                          dtype.size(), flash_attention.size(), param_casts.size(), micro_factor.size()})
        if (__builtin_mul_overflow(n, k, &n)) return SIZE_MAX;
    return n;
}

std::vector<Strategy> Grid::strategies() const {
    std::vector<Strategy> out;
    out.reserve(size());
    Strategy s;
    for (auto v_tp : tp)
        for (auto v_cp : cp)
            for (auto v_algo : cp_algo)
                for (bool v_sp : sp)
                    for (auto v_ep : ep)
                        for (auto v_etp : etp)
                            for (auto v_mbs : mbs)
                                for (const auto& v_seq : seq)
                                    for (const auto& v_dtype : dtype)
                                        for (bool v_fa : flash_attention)
                                            for (bool v_casts : param_casts)
                                                for (Value v_micro : micro_factor) {
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

std::vector<std::string> Grid::varying() const {
    std::vector<std::string> out;
    auto add = [&](const char* name, std::size_t n) {
        if (n > 1) out.emplace_back(name);
    };
    add("tp", tp.size());
    add("cp", cp.size());
    add("cp-algo", cp_algo.size());
    add("sp", sp.size());
    add("ep", ep.size());
    add("etp", etp.size());
    add("mbs", mbs.size());
    add("seq", seq.size());
    add("dtype", dtype.size());
    add("flash-attention", flash_attention.size());
    add("param-casts", param_casts.size());
    add("micro-factor", micro_factor.size());
    return out;
}

const std::vector<std::string>& strategy_options() {
    static const std::vector<std::string> options{"tp",  "cp",  "cp-algo", "sp",    "ep",          "etp",
                                                  "mbs", "seq", "dtype",   "flash-attention", "param-casts",
                                                  "micro-factor"};
    return options;
}

std::string option_value(const Strategy& s, const std::string& option) {
    auto on = [](bool b) { return std::string(b ? "on" : "off"); };
    if (option == "tp") return std::to_string(s.tp);
    if (option == "cp") return std::to_string(s.cp);
    if (option == "cp-algo") return std::string(cp_option_name(s.cp_algo));
    if (option == "sp") return on(s.sp);
    if (option == "ep") return std::to_string(s.ep);
    if (option == "etp") return std::to_string(s.etp);
    if (option == "mbs") return std::to_string(s.mbs);
    if (option == "seq") return s.seq ? std::to_string(*s.seq) : "model";
    if (option == "dtype") return s.dtype ? std::string(dtype_name(*s.dtype)) : "model";
    if (option == "flash-attention") return on(s.flash_attention);
    if (option == "param-casts") return on(s.param_casts);
    if (option == "micro-factor") return repr(s.micro_factor);
    return "?";
}

Sweep::Sweep(const RecordsEvaluator& records, const HfModel& model)
    : records_(records), model_(model), kinds_(model.kinds()) {
    const std::size_t n = records.program().switches.size();
    if (n > 20) throw HfError(fmt::format("{} switches: too many settings to sweep (2^{})", n, n));
    settings_.push_back({Setting::Kind::Plain, 0});
    settings_.push_back({Setting::Kind::Full, 0});
    for (std::uint32_t bits = (1u << n); bits-- > 0;) settings_.push_back({Setting::Kind::Selective, bits});
    for (const Setting& s : settings_) recomputed_.push_back(recomputed_count(s));
}

std::size_t Sweep::recomputed_count(const Setting& s) const {
    const Program& p = program();
    if (s.kind == Setting::Kind::Plain) return 0;
    if (s.kind == Setting::Kind::Full) return p.records.size();
    std::size_t n = 0;
    for (const RecordInfo& r : p.records)
        if (r.switch_id && ((s.keep_bits >> *r.switch_id) & 1u) == 0) ++n;
    return n;
}

std::vector<std::string> Sweep::recomputed(const Setting& s) const {
    if (s.kind == Setting::Kind::Plain) return {};
    if (s.kind == Setting::Kind::Full) return {"full"};
    std::vector<std::string> out;
    const Program& p = program();
    for (std::size_t i = 0; i < p.switches.size(); ++i)
        if (((s.keep_bits >> i) & 1u) == 0) out.push_back(p.switches[i]);
    return out;
}

std::string Sweep::setting_name(const Setting& s) const {
    if (s.kind == Setting::Kind::Plain) return "plain";
    if (s.kind == Setting::Kind::Full) return "full";
    std::string names;
    for (const std::string& sw : recomputed(s)) names += (names.empty() ? "" : " ") + sw;
    return "selective: " + (names.empty() ? std::string("none") : names);
}

StrategyResult Sweep::price(const Strategy& strategy) const {
    StrategyResult out;
    out.strategy = strategy;
    out.strategy.recompute = Recompute::None;
    out.model_bytes.assign(settings_.size(), 0.0);
    std::vector<LayerDoc> docs;
    try {
        out.strategy = model_.resolved(out.strategy);
        for (const auto& [kind, layers] : kinds_)
            docs.push_back(model_.layer_of_kind(*model_.family().find_kind(kind), out.strategy));
    } catch (const HfError& e) {
        out.skipped = e.what();
        return out;
    }
    for (std::size_t k = 0; k < kinds_.size(); ++k) {
        const LayerDoc& doc = docs[k];
        KindBytes kb{kinds_[k].first, kinds_[k].second, {}};
        kb.bytes.reserve(settings_.size());
        const LayerSettings layer(records_, doc);
        const KeepMask plain = layer.plain();
        for (const Setting& s : settings_) {
            switch (s.kind) {
            case Setting::Kind::Plain: kb.bytes.push_back(layer.total(plain)); break;
            case Setting::Kind::Full: kb.bytes.push_back(model_.full_recompute_input(doc)); break;
            case Setting::Kind::Selective: kb.bytes.push_back(layer.selective_total(s.keep_bits)); break;
            }
        }
        for (std::size_t i = 0; i < settings_.size(); ++i)
            out.model_bytes[i] += kb.bytes[i].as_double() * static_cast<double>(kb.layers);
        out.kinds.push_back(std::move(kb));
    }
    return out;
}

std::vector<std::size_t> Sweep::front(const StrategyResult& result) const {
    if (result.skipped || result.model_bytes.empty()) return {};
    std::vector<std::size_t> order(settings_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (recomputed_[a] != recomputed_[b]) return recomputed_[a] < recomputed_[b];
        return result.model_bytes[a] < result.model_bytes[b];
    });
    std::vector<std::size_t> out;
    for (std::size_t i : order)
        if (out.empty() || result.model_bytes[i] < result.model_bytes[out.back()]) out.push_back(i);
    return out;
}

}  // namespace oprec::hf
