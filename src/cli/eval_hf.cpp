#include "cli/eval_hf.h"

#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/layer_table.h"
#include "cli/paths.h"
#include "diag/diagnostic.h"
#include "model/layer_json.h"
#include "hf/load.h"
#include "hf/model.h"
#include "model/report.h"
#include "value/text.h"
#include "value/json_writer.h"

namespace oprec::cli {

using nlohmann::ordered_json;

namespace {

ordered_json strategy_json(const hf::Strategy& s, const LayerDoc& layer) {
    return {{"tp", s.tp},
            {"cp", s.cp},
            {"cp_algo", std::string(hf::cp_option_name(s.cp_algo))},
            {"sp", s.sp},
            {"ep", s.ep},
            {"etp", s.etp},
            {"mbs", s.mbs},
            {"seq", to_json(layer.fields.number("s"))},
            {"bytes_compute", to_json(layer.fields.number("bytes_compute"))},
            {"flash_attention", s.flash_attention},
            {"param_casts", s.param_casts},
            {"recompute", std::string(hf::recompute_name(s.recompute))},
            {"micro_factor", to_json(s.micro_factor)}};
}

}  // namespace

void add_hf_eval_options(CLI::App& cmd, HfEvalOptions& o) {
    cmd.add_option("--hf", o.config, "Derive the layer from a Hugging Face config.json under the strategy options");
    add_strategy_options(cmd, o.strategy, /*lists=*/false);
    cmd.add_option("--recompute", o.recompute, "With --hf: none, selective (the default: HyperParallel's rule, attBMM kept) or full")
        ->check(CLI::IsMember({"none", "selective", "full"}));
    cmd.add_option("--layer", o.layer, "With --hf: price layer K (from 0)");
    cmd.add_option("--kind", o.kind, "With --hf: price the first layer of this kind (dense, moe, linear_attention, ...)");
    cmd.add_flag("--show-layer", o.show_layer, "With --hf: print the derived layer document (JSON `oprec eval` reads)");
}

int run_hf_eval(const HfEvalOptions& o, const EvalCommon& common) {
    const std::optional<Program> loaded = load_hf_records(common.records, o.strategy, "eval");
    if (!loaded) return kCannotRun;
    const Program& program = *loaded;
    const RecordsEvaluator records(program);
    try {
        if (o.layer >= 0 && !o.kind.empty()) throw hf::HfError("--layer and --kind both choose the layer: give one");
        const hf::Grid grid = parse_grid(o.strategy);
        if (grid.size() != 1)
            throw hf::HfError(fmt::format("eval prices one strategy, and these options give {}: use `oprec sweep` for a grid",
                                          grid.size()));
        hf::Strategy strategy = grid.strategies().front();
        strategy.recompute = *hf::parse_recompute(o.recompute);
        const std::optional<std::string> family = o.strategy.family.empty() ? std::nullopt : std::optional(o.strategy.family);
        const hf::HfModel model(program, hf::HfConfig::read(o.config), family);
        const std::size_t index = o.layer >= 0      ? static_cast<std::size_t>(o.layer)
                                  : !o.kind.empty() ? model.first_of(o.kind)
                                                    : model.representative_layer();
        LayerDoc layer = model.layer(index, strategy);
        apply_edits(layer, common.edits, program);
        if (o.show_layer) {
            std::cout << json_text(layer_doc_json(layer), 2) << '\n';
            return kOk;
        }

        ReportQuery report_options;
        if (!common.only.empty()) report_options.only = common.only;
        ordered_json report = ordered_json::parse(bound_report(records, layer, report_options).json);
        const std::string& kind = model.stack()[index];
        const bool full = layer.context.node == NodeKind::FullRec;
        std::optional<Value> input;
        if (full) input = model.full_recompute_input(layer);
        if (common.format == "json") {
            ordered_json out;
            out["model"] = {{"config", o.config},
                            {"model_type", model.config().model_type()},
                            {"family", model.family().name},
                            {"layer", index},
                            {"layers", model.stack().size()},
                            {"kind", kind}};
            out["strategy"] = strategy_json(strategy, layer);
            if (input) out["full_recompute_input"] = to_json(*input);
            out["layer_doc"] = layer_doc_json(layer);
            out["report"] = std::move(report);
            std::cout << json_text(out, 2) << '\n';
            return has_error(out) ? kProblems : kOk;
        }
        const hf::Strategy shown = model.resolved(strategy);
        std::cout << fmt::format("{}: {} (profile {}), {} layers; {}\n", o.config,
                                 model.config().model_type().empty() ? "no model_type" : model.config().model_type(),
                                 model.family().name, model.stack().size(), hf::describe(shown));
        const std::string name = fmt::format("layer {} ({})", index, kind);
        std::cout << (full ? full_recompute_table(report, table_header(layer, name), *input)
                                : layer_table(report, table_header(layer, name)));
        return has_error(report) ? kProblems : kOk;
    } catch (const hf::HfError& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kCannotRun;
    } catch (const std::invalid_argument& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kCannotRun;
    } catch (const EvalError& e) {
        std::cerr << "oprec eval: " << describe_error(e, &program.sources) << '\n';
        return kProblems;
    }
}

}  // namespace oprec::cli
