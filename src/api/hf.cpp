// The Hugging Face front end through the API: a config and a strategy to a
// bound Layer.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "api/hf_strategy.h"
#include "api/state.h"
#include "hf/hf_config.h"
#include "hf/model.h"
#include "hf/strategy.h"
#include "oprec/hf.h"

namespace oprec {

hf::Strategy detail::internal_strategy(const HfStrategy& s) {
    hf::Strategy out;
    out.tp = s.tp;
    out.cp = s.cp;
    const auto algo = hf::parse_cp_option(s.cp_algo);
    if (!algo) throw LayerError(fmt::format("cp_algo `{}`: expected ring, ulysses or hybrid", s.cp_algo));
    out.cp_algo = *algo;
    out.sp = s.sp;
    out.ep = s.ep;
    out.etp = s.etp;
    out.mbs = s.mbs;
    out.seq = s.seq;
    if (s.dtype) {
        const auto dtype = hf::parse_dtype(*s.dtype);
        if (!dtype) throw LayerError(fmt::format("dtype `{}`: expected bf16, fp16 or fp32", *s.dtype));
        out.dtype = *dtype;
    }
    out.flash_attention = s.flash_attention;
    out.param_casts = s.param_casts;
    const auto recompute = hf::parse_recompute(s.recompute);
    if (!recompute) throw LayerError(fmt::format("recompute `{}`: expected none, selective or full", s.recompute));
    out.recompute = *recompute;
    for (const auto& [name, keep] : s.switches) out.switches.insert_or_assign(name, Value::integer(keep ? 1 : 0));
    out.micro_factor = detail::to_value(s.micro_factor);
    if (const double m = s.micro_factor.to_double(); s.micro_factor.kind == Number::Kind::Bool || !(m > 0) ||
                                                     !std::isfinite(m))
        throw LayerError(fmt::format("micro_factor {}: expected a finite number above 0", s.micro_factor.repr()));
    return out;
}

HfStrategy detail::public_strategy(const hf::Strategy& s) {
    HfStrategy out;
    out.tp = s.tp;
    out.cp = s.cp;
    out.cp_algo = std::string(hf::cp_option_name(s.cp_algo));
    out.sp = s.sp;
    out.ep = s.ep;
    out.etp = s.etp;
    out.mbs = s.mbs;
    out.seq = s.seq;
    if (s.dtype) out.dtype = std::string(hf::dtype_name(*s.dtype));
    out.flash_attention = s.flash_attention;
    out.param_casts = s.param_casts;
    out.recompute = std::string(hf::recompute_name(s.recompute));
    for (const auto& [name, keep] : s.switches) out.switches.emplace_back(name, keep.truthy());
    out.micro_factor = detail::to_number(s.micro_factor);
    return out;
}

std::optional<std::string> canonical_cp_algo(std::string_view name) {
    const auto algo = hf::parse_cp_option(name);
    return algo ? std::optional(std::string(hf::cp_option_name(*algo))) : std::nullopt;
}

std::optional<std::string> canonical_dtype(std::string_view name) {
    const auto dtype = hf::parse_dtype(name);
    return dtype ? std::optional(std::string(hf::dtype_name(*dtype))) : std::nullopt;
}

std::string strategy_text(const HfStrategy& strategy) { return hf::describe(detail::internal_strategy(strategy)); }

HfLayer hf_layer(const Records& records, const std::filesystem::path& config, const HfStrategy& strategy,
                 const HfModelChoice& choice) {
    const auto& state = detail::Access::state(records);
    if (!records.has_profiles())
        throw LayerError(fmt::format("{}: no op profiles: load the records with RecordsOptions::profiles "
                                     "(\"profiles.rec\")", records.source()));
    if (choice.layer && choice.kind) throw LayerError("the layer and the kind both choose the layer: give one");
    if (choice.layer && *choice.layer < 0)
        throw LayerError(fmt::format("layer index {}: expected 0 or more", *choice.layer));
    try {
        const hf::Strategy s = detail::internal_strategy(strategy);
        const hf::HfModel model(state->program, hf::HfConfig::read(config.string()), choice.family);
        const std::size_t index = choice.layer ? static_cast<std::size_t>(*choice.layer)
                                  : choice.kind ? model.first_of(*choice.kind)
                                                : model.representative_layer();
        LayerDoc doc = model.layer(index, s);
        HfLayer out{detail::Access::layer(std::make_unique<detail::LayerState>(state, config.string(), doc)),
                    model.config().model_type(),
                    model.family().name,
                    model.stack().at(index),
                    static_cast<std::int64_t>(index),
                    static_cast<std::int64_t>(model.stack().size()),
                    hf::describe(model.resolved(s)),
                    std::nullopt};
        if (doc.context.node == NodeKind::FullRec) out.full_recompute_input = detail::to_number(model.full_recompute_input(doc));
        // The layer prices its input when fully recomputed, from its fields
        // as they are then (the model and its records kept alive with it).
        detail::Access::state(out.layer).full_input = [model = std::make_shared<const hf::HfModel>(model), records = state](const LayerDoc& d) {
            return model->full_recompute_input(d);
        };
        return out;
    } catch (const hf::HfError& e) {
        throw LayerError(e.what());
    } catch (const EvalError& e) {
        throw detail::pricing_error(e, state->program.sources);
    }
}

}  // namespace oprec
