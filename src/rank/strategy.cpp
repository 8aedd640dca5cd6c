#include "rank/strategy.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

namespace oprec::rank {

std::optional<Schedule> parse_schedule(std::string_view text) {
    if (text == "1f1b") return Schedule::OneFOneB;
    if (text == "interleaved" || text == "vpp") return Schedule::Interleaved;
    if (text == "gpipe") return Schedule::GPipe;
    if (text == "dualpipev") return Schedule::DualPipeV;
    if (text == "zero-bubble" || text == "zb") return Schedule::ZeroBubble;
    return std::nullopt;
}

std::string_view schedule_name(Schedule s) {
    switch (s) {
    case Schedule::OneFOneB: return "1f1b";
    case Schedule::Interleaved: return "interleaved";
    case Schedule::GPipe: return "gpipe";
    case Schedule::DualPipeV: return "dualpipev";
    case Schedule::ZeroBubble: return "zero-bubble";
    }
    return "?";
}

std::optional<Optimizer> parse_optimizer(std::string_view text) {
    if (text == "adam" || text == "adamw") return Optimizer::Adam;
    if (text == "sgd") return Optimizer::Sgd;
    return std::nullopt;
}

std::string_view optimizer_name(Optimizer o) { return o == Optimizer::Adam ? "adam" : "sgd"; }

std::string describe(const RankStrategy& s) {
    std::string out = fmt::format("gpus={} pp={}", s.gpus, s.pp);
    if (s.vpp > 1) out += fmt::format(" vpp={}", s.vpp);
    out += " " + hf::describe(s.layer);
    if (s.gbs) out += fmt::format(" gbs={}", *s.gbs);
    // Layers per virtual stage, where they are not the even split a strategy without them gets.
    const auto& v = s.virtual_stage_layers;
    if (!v.empty() && std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) != v.end())
        out += fmt::format(" stage-layers={}", fmt::join(v, ","));
    if (s.first_stage_layers) out += fmt::format(" first-stage-layers={}", *s.first_stage_layers);
    if (s.last_stage_layers) out += fmt::format(" last-stage-layers={}", *s.last_stage_layers);
    out += fmt::format(" zero={} {} {}", s.zero, schedule_name(s.schedule_or_default()), optimizer_name(s.optimizer));
    // What the layers recompute: a fit's answer depends on it most of all.
    out += fmt::format(" recompute={}", hf::recompute_name(s.layer.recompute));
    if (s.layer.recompute == hf::Recompute::Selective && !s.layer.switches.empty()) {
        std::vector<std::string> recomputed;  // named switches (Megatron's modules): the ops they recompute
        for (const auto& [sw, keep] : s.layer.switches)
            if (!keep.truthy()) recomputed.push_back(sw);
        out += ":" + (recomputed.empty() ? std::string("nothing") : fmt::format("{}", fmt::join(recomputed, "+")));
    }
    if (s.layer.recompute == hf::Recompute::Full && s.recompute_layers)
        out += fmt::format(" recompute-{}={}", s.recompute_method == RecomputeMethod::Uniform ? "uniform" : "block",
                           *s.recompute_layers);
    return out;
}

}  // namespace oprec::rank
