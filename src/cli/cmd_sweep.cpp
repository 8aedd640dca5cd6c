// oprec sweep: price a Hugging Face model over a grid of strategies and
// every recompute setting; CSV or JSON for tools, or the table of each
// strategy's Pareto front of memory against ops recomputed.
#include <chrono>
#include <csignal>
#include <cstdint>
#include <initializer_list>
#include <iostream>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/paths.h"
#include "cli/progress.h"
#include "cli/sweep_fit.h"
#include "cli/strategy_options.h"
#include "cli/sweep_output.h"
#include "cli/sweep_table.h"
#include "oprec/sweep.h"
#include "value/byte_size.h"

namespace oprec::cli {

namespace {

struct SweepArgs {
    std::string config;
    StrategyOptions strategy;
    std::vector<std::string> pp, vpp, zero, schedule;  // with --budget
    std::string gpus, gbs;                              // with --budget (gpus: 8 where not given)
    std::string records;
    std::string format = "table";
    std::string budget;             // a GPU's memory: the whole rank (sweep_fit.h)
    std::string plot;               // with --budget: --plot FILE.html
    std::string activation_budget;  // all layers' activations alone
    bool progress = false;
    bool no_progress = false;
};

// A grid beyond this is a typing slip, not a sweep: ten million strategies
// already hold 2.6 billion settings.
constexpr std::size_t kMaxStrategies = 10'000'000;

int run(const SweepArgs& args) {
    if (!args.budget.empty()) {  // the whole rank against a GPU's memory
        FitSweepArgs fit{args.config, args.strategy, args.pp, args.vpp, args.zero, args.schedule, args.gpus, args.gbs,
                         args.records.empty() ? "calibrated" : args.records, args.format, 0, args.progress,
                         args.no_progress, args.plot};
        const auto budget = parse_byte_size(args.budget);
        if (!budget || device_size_problem(*budget)) {
            std::cerr << fmt::format("oprec sweep: --budget {}: expected {}, e.g. 40GiB, 80GB or 1e11\n", args.budget,
                                     budget ? *device_size_problem(*budget) : "bytes");
            return kCannotRun;
        }
        if (args.format == "csv") {
            std::cerr << "oprec sweep: --budget writes a table or JSON, not CSV\n";
            return kCannotRun;
        }
        // Options of the activations-only sweep that the whole rank does not
        // take: refused, not ignored.
        const auto not_with_budget = [](std::string_view option, std::string_view why) {
            std::cerr << fmt::format("oprec sweep: {} does not apply with --budget: {}\n", option, why);
            return kCannotRun;
        };
        if (!args.strategy.micro_factor.empty())
            return not_with_budget("--micro-factor", "the whole rank counts the micro-batches each stage holds from "
                                                     "its schedule (--schedule, --pp, --vpp, --gbs)");
        if (args.strategy.param_casts)
            return not_with_budget("--param-casts", "the whole rank prices each layer as `oprec fit` does, "
                                                    "without cast copies of the weights");
        if (!args.activation_budget.empty())
            return not_with_budget("--activation-budget", "--budget holds each GPU's whole memory; "
                                                          "--activation-budget is the activations' alone, without it");
        fit.budget = *budget;
        return run_fit_sweep(fit);
    }
    // The whole rank's options without --budget: refused, not ignored.
    for (const auto& [option, given] : std::initializer_list<std::pair<const char*, bool>>{
             {"--plot", !args.plot.empty()}, {"--pp", !args.pp.empty()}, {"--vpp", !args.vpp.empty()},
             {"--zero", !args.zero.empty()}, {"--schedule", !args.schedule.empty()}, {"--gpus", !args.gpus.empty()},
             {"--gbs", !args.gbs.empty()}})
        if (given) {
            std::cerr << fmt::format("oprec sweep: {} goes with --budget (the whole rank against a GPU's memory); "
                                     "without it the sweep prices the layers' activations alone\n",
                                     option);
            return kCannotRun;
        }
    const std::optional<Records> records = load_hf_records(args.records, args.strategy, "sweep");
    if (!records) return kCannotRun;

    std::optional<double> budget;
    if (!args.activation_budget.empty()) {
        budget = parse_byte_size(args.activation_budget);
        if (!budget || device_size_problem(*budget)) {
            std::cerr << fmt::format("oprec sweep: --activation-budget {}: expected {}, e.g. 40GiB, 80GB or 1e10\n",
                                     args.activation_budget, budget ? *device_size_problem(*budget) : "bytes");
            return kCannotRun;
        }
    }
    std::optional<Sweep> sweep;
    StrategyGrid grid;
    try {
        grid = parse_grid(args.strategy);
        if (grid.size() > kMaxStrategies)
            throw std::invalid_argument(fmt::format("the grid has {} strategies: at most {} in one sweep",
                                                    grid.size() == SIZE_MAX ? std::string("more than 2^64")
                                                                            : std::to_string(grid.size()),
                                                    kMaxStrategies));
        const auto family = args.strategy.family.empty() ? std::nullopt : std::optional(args.strategy.family);
        sweep.emplace(*records, args.config, family);
    } catch (const std::exception& e) {  // LayerError, or a bad option value
        std::cerr << "oprec sweep: " << e.what() << '\n';
        return kCannotRun;
    }
    const std::vector<HfStrategy> strategies = grid.strategies();

    const InterruptGuard interrupt;
    Progress progress(strategies.size(), !args.no_progress && (args.progress || isatty(2) != 0));
    const auto start = std::chrono::steady_clock::now();
    std::vector<StrategyFront> fronts;
    std::size_t written = 0, skipped = 0;  // written: priced or skipped
    std::string first_skip;  // why the first strategy skipped was
    int status = kOk;
    if (args.format == "csv") std::cout << csv_header(*sweep);
    if (args.format == "json") std::cout << json_open(*sweep, strategies.size());
    for (const HfStrategy& s : strategies) {
        if (interrupt.interrupted()) break;
        SweepRow row;
        try {
            row = sweep->price(s);
        } catch (const PricingError& e) {
            progress.clear();
            std::cerr << fmt::format("oprec sweep: {}: {}\n", strategy_text(s), e.what());
            status = kProblems;
            break;
        }
        if (row.skipped) {
            ++skipped;
            if (first_skip.empty()) first_skip = row.strategy + ": " + *row.skipped;
        }
        if (args.format == "csv") std::cout << csv_rows(*sweep, row);
        else if (args.format == "json") std::cout << json_strategy(row, written == 0);
        else fronts.push_back(front_of(row));
        ++written;
        progress.update(written);
    }
    progress.clear();
    const bool interrupted = written < strategies.size() && interrupt.interrupted();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (args.format == "json") {
        std::cout << json_close(written, skipped, interrupted);
    } else if (args.format == "table") {
        const SweepTableInfo info{args.config, strategies.size(), interrupted, seconds, budget, records->switches().size()};
        std::cout << sweep_table(*sweep, grid, fronts, info);
    }
    std::cout << std::flush;
    if (interrupted) {
        std::cerr << fmt::format("oprec sweep: interrupted: wrote {} of the {} strategies\n", written,
                                 strategies.size());
        return interrupt.exit_status();
    }
    // Nothing priced is no answer, as sweep --budget says too.
    if (status == kOk && written > 0 && skipped == written) {
        std::cerr << "oprec sweep: no strategy of the grid can run on this model; the first: " << first_skip << '\n';
        return kCannotRun;
    }
    return status;
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<SweepArgs>();
    CLI::App* cmd = app.add_subcommand(
        "sweep", "Price a Hugging Face model over a grid of strategies and every recompute setting");
    cmd->add_option("config", args->config, "The model's config.json")->required();
    add_strategy_options(*cmd, args->strategy, /*lists=*/true);
    cmd->add_option("--records", args->records, "The records: a file, or a name in records/ such as calibrated (default: the shipped records)");
    cmd->add_option("--format", args->format, "table (the Pareto fronts), csv or json (every setting)")
        ->check(CLI::IsMember({"table", "csv", "json"}));
    cmd->add_option("--budget", args->budget,
                    "A GPU's memory, e.g. 80GiB: fit the whole rank (weights, gradients, optimizer states, "
                    "activations, buffers) of every strategy with the least recompute that fits; --records then "
                    "names the whole-rank records (calibrated, the default, or reference)")
        ->check(not_empty());
    cmd->add_option("--plot", args->plot,
                    "With --budget: also write the strategies that fit as a self-contained HTML chart")
        ->check(not_empty());
    cmd->add_option("--activation-budget", args->activation_budget,
                    "Activation memory for all layers, e.g. 40GiB: the Pareto table shows the settings that fit")
        ->check(not_empty());
    auto list = [&](const char* name, std::vector<std::string>& into, const char* help) {
        cmd->add_option(name, into, help);  // split at commas by the reader (list_items)
    };
    list("--pp", args->pp, "With --budget: pipeline stages (a list: 1,2,4)");
    list("--vpp", args->vpp, "With --budget: model chunks per stage (a list)");
    list("--zero", args->zero, "With --budget: ZeRO stages (a list: 0,1,3; default 1)");
    list("--schedule", args->schedule, "With --budget: pipeline schedules (a list: 1f1b,gpipe)");
    cmd->add_option("--gpus", args->gpus, "With --budget: GPUs of the job (default 8)");
    cmd->add_option("--gbs", args->gbs, "With --budget: global batch, sequences (default: one micro-batch per rank; pp of them "
                                        "in every row where --vpp or --schedule asks for the interleaved schedule)");
    cmd->add_flag("--progress", args->progress, "Show the progress bar even when standard error is not a terminal");
    cmd->add_flag("--no-progress", args->no_progress, "Never show the progress bar");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
