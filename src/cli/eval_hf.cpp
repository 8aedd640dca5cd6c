#include "cli/eval_hf.h"

#include <algorithm>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/layer_table.h"
#include "cli/option_checks.h"
#include "value/numbers.h"
#include "cli/paths.h"
#include "diag/suggest.h"
#include "oprec/oprec.h"
#include "value/json_writer.h"
#include "value/text.h"

namespace oprec::cli {

using nlohmann::ordered_json;

namespace {

ordered_json number_json(const Number& n) { return to_json(value_of(n)); }

// A stated number field of the derived layer, as JSON.
ordered_json field_json(const Layer& layer, std::string_view name) {
    const std::optional<Field> field = layer.field(name);
    const Number* n = field ? std::get_if<Number>(&*field) : nullptr;
    return n != nullptr ? number_json(*n) : ordered_json();
}

ordered_json strategy_json(const HfStrategy& s, const Layer& layer) {
    return {{"tp", s.tp},
            {"cp", s.cp},
            {"cp_algo", s.cp_algo},
            {"sp", s.sp},
            {"ep", s.ep},
            {"etp", s.etp},
            {"mbs", s.mbs},
            {"seq", field_json(layer, "s")},
            {"bytes_compute", field_json(layer, "bytes_compute")},
            {"flash_attention", s.flash_attention},
            {"param_casts", s.param_casts},
            {"recompute", s.recompute},
            {"micro_factor", number_json(s.micro_factor)}};
}

}  // namespace

bool only_is_known(const Records& records, const std::string& only) {
    const std::vector<std::string>& ops = records.ops();
    if (only.empty() || std::find(ops.begin(), ops.end(), only) != ops.end()) return true;
    const std::optional<std::string> near = closest_name(only, ops);
    std::cerr << fmt::format("oprec eval: --only {}: the records state no op or part `{}`{}\n", only, only,
                             near ? fmt::format(" (did you mean `{}`?)", *near) : "");
    return false;
}

void add_hf_eval_options(CLI::App& cmd, HfEvalOptions& o) {
    cmd.add_option("--hf", o.config, "Derive the layer from a Hugging Face config.json under the strategy options");
    add_strategy_options(cmd, o.strategy, /*lists=*/false);
    cmd.add_option("--recompute", o.recompute, "With --hf: none, selective (the default: HyperParallel's rule, attBMM kept) or full")
        ->check(CLI::IsMember({"none", "selective", "full"}));
    cmd.add_option("--layer", o.layer, "With --hf: price layer K (from 0)")->check(whole_number(0));
    cmd.add_option("--kind", o.kind, "With --hf: price the first layer of this kind (dense, moe, linear_attention, ...)");
    cmd.add_flag("--show-layer", o.show_layer, "With --hf: print the derived layer document (JSON `oprec eval` reads)");
}

int run_hf_eval(const HfEvalOptions& o, const EvalCommon& common) {
    const std::optional<Records> records = load_hf_records(common.records, o.strategy, "eval");
    if (!records || !only_is_known(*records, common.only)) return kCannotRun;
    try {
        if (o.layer >= 0 && !o.kind.empty()) throw LayerError("--layer and --kind both choose the layer: give one");
        const StrategyGrid grid = parse_grid(o.strategy);
        if (grid.size() != 1)
            throw LayerError(fmt::format("eval prices one strategy, and these options give {}: use `oprec sweep` for a grid",
                                         grid.size()));
        HfStrategy strategy = grid.strategies().front();
        strategy.recompute = o.recompute;  // none, selective or full: checked by the option
        HfModelChoice choice;
        if (!o.strategy.family.empty()) choice.family = o.strategy.family;
        if (o.layer >= 0) choice.layer = o.layer;
        if (!o.kind.empty()) choice.kind = o.kind;
        HfLayer derived = hf_layer(*records, o.config, strategy, choice);
        Layer& layer = derived.layer;
        apply_edits(layer, *records, common.edits);
        if (o.show_layer) {
            std::cout << layer.document_json(2) << '\n';
            return kOk;
        }

        ReportOptions report_options;
        if (!common.only.empty()) report_options.only = common.only;
        const Report priced = layer.report(report_options);
        ordered_json report = ordered_json::parse(priced.json);
        // A fully recomputed layer keeps only its input: its total.
        const std::optional<Number> input =
            layer.recompute() == Recompute::Full ? std::optional(layer.total()) : std::nullopt;
        const bool non_finite = warn_non_finite(layer, o.config);
        if (common.format == "json") {
            ordered_json out;
            out["model"] = {{"config", o.config},
                            {"model_type", derived.model_type},
                            {"family", derived.family},
                            {"layer", derived.index},
                            {"layers", derived.layers},
                            {"kind", derived.kind}};
            out["strategy"] = strategy_json(strategy, layer);
            if (input) out["full_recompute_input"] = number_json(*input);
            out["layer_doc"] = ordered_json::parse(layer.document_json(-1));
            out["report"] = std::move(report);
            std::cout << json_text(out, 2) << '\n';
            return priced.complete && !non_finite ? kOk : kProblems;
        }
        std::cout << fmt::format("{}: {} (profile {}), {} layers; {}\n", o.config,
                                 derived.model_type.empty() ? "no model_type" : derived.model_type, derived.family,
                                 derived.layers, derived.strategy);
        const std::optional<Field> micro = layer.field("micro_factor");
        const Number* factor = micro ? std::get_if<Number>(&*micro) : nullptr;
        const TableHeader header{fmt::format("layer {} ({})", derived.index, derived.kind),
                                 std::string(recompute_name(layer.recompute())), factor != nullptr ? factor->repr() : "?"};
        std::cout << (input ? full_recompute_table(report, header, value_of(*input)) : layer_table(report, header, layer));
        return priced.complete && !non_finite ? kOk : kProblems;
    } catch (const LayerError& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kCannotRun;
    } catch (const std::invalid_argument& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kCannotRun;
    } catch (const PricingError& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kProblems;
    }
}

}  // namespace oprec::cli
