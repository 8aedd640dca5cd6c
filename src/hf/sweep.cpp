#include "hf/sweep.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include <fmt/format.h>

#include "model/layer_settings.h"

namespace oprec::hf {

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
