#include "cli/sweep_fit.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "cli/option_checks.h"
#include "cli/paths.h"
#include "cli/progress.h"
#include "oprec/fit.h"
#include "serve/plot.h"
#include "value/json_writer.h"

namespace oprec::cli {

namespace {

constexpr const char* kRecompute[] = {"none", "selective", "full"};
constexpr std::string_view kSchedules[] = {"1f1b", "interleaved", "gpipe", "dualpipev", "zero-bubble"};

// A grid strategy's parallel layout, sequence, dtype and flash attention:
// the whole rank's model decides the micro-batches in flight, and the
// casts are left at their default, as `oprec fit` leaves them.
HfStrategy layout_of(HfStrategy s) {
    s.param_casts = false;
    s.micro_factor = Number::integer(1);
    return s;
}

std::vector<std::int64_t> wholes(const std::vector<std::string>& texts, const char* option, std::int64_t fallback,
                                 std::int64_t least) {
    if (texts.empty()) return {fallback};
    std::vector<std::int64_t> out;
    for (const std::string& t : list_items(texts, option)) out.push_back(parse_whole(t, option, least));
    drop_repeats(out);
    return out;
}

// Each strategy is up to three whole-rank fits (about 20 us each): a
// million is a minute's sweep; more is a slip of the grid.
constexpr std::size_t kMaxFitStrategies = 1'000'000;

struct Fitted {
    FitStrategy strategy;
    std::string schedule;
    std::size_t recompute = 0;  // index into kRecompute
    FitResult result;
};

std::string gib(double bytes) { return fmt::format("{:.2f}", bytes / (1024.0 * 1024 * 1024)); }

// The layer options the table has no column for (cp-algo, sp, dtype, flash
// attention): those the grid varies get one, or two rows could look alike.
std::array<std::string, 4> other_options(const FitStrategy& s) {
    return {s.layer.cp_algo, s.layer.sp ? "sp" : "no-sp", s.layer.dtype.value_or("dtype?"),
            s.layer.flash_attention ? "fa" : "no-fa"};
}

std::string table(const std::vector<Fitted>& fits, const std::string& head, std::size_t shown_at_most) {
    std::string out = head;
    if (fits.empty()) return out + "no strategy fits\n";
    std::array<bool, 4> varies{};
    const auto first = other_options(fits.front().strategy);
    for (const Fitted& f : fits) {
        const auto options = other_options(f.strategy);
        for (std::size_t i = 0; i < varies.size(); ++i) varies[i] = varies[i] || options[i] != first[i];
    }
    const bool vary = std::find(varies.begin(), varies.end(), true) != varies.end();
    const auto shown_options = [&](const FitStrategy& s) {
        std::string text;
        const auto all = other_options(s);
        for (std::size_t i = 0; i < all.size(); ++i)
            if (varies[i]) text += (text.empty() ? "" : " ") + all[i];
        return text;
    };
    out += fmt::format("  {:>3} {:>3} {:>4} {:>3} {:>3} {:>4} {:>4} {:>5} {:>5} {:>4}  {:<11} {:<10} {:>9} {:>6}{}\n",
                       "tp", "pp", "vpp", "cp", "ep", "etp", "mbs", "gbs", "seq", "zero", "schedule", "recompute",
                       "peak GiB", "stage", vary ? "    layer options" : "");
    bool balanced = false;
    for (std::size_t i = 0; i < fits.size() && i < shown_at_most; ++i) {
        const Fitted& f = fits[i];
        const FitStrategy& s = f.strategy;
        // Layers that do not split evenly were balanced over the stages: the
        // strategy (JSON) states how, as fit --stage-layers takes it.
        const bool uneven = f.result.strategy.find(" stage-layers=") != std::string::npos;
        balanced = balanced || uneven;
        out += fmt::format("  {:>3} {:>3} {:>4} {:>3} {:>3} {:>4} {:>4} {:>5} {:>5} {:>4}  {:<11} {:<10} {:>9} {:>6}{}\n",
                           s.layer.tp, s.pp, s.vpp, s.layer.cp, s.layer.ep, s.layer.etp, s.layer.mbs,
                           f.result.micro_batches * s.layer.mbs * f.result.dp,
                           s.layer.seq ? fmt::to_string(*s.layer.seq) : "model", s.zero, f.schedule,
                           kRecompute[f.recompute], gib(f.result.peak_bytes), f.result.peak_stage,
                           std::string(uneven ? " *" : vary ? "  " : "") + (vary ? "  " + shown_options(s) : ""));
    }
    if (fits.size() > shown_at_most)
        out += fmt::format("  ... {} more fit (--format json lists every one)\n", fits.size() - shown_at_most);
    if (balanced)
        out += "  * the layers do not split evenly over pp * vpp: they are balanced over the stages "
               "(--format json states the counts, as fit --stage-layers takes them)\n";
    return out;
}

std::string json(const std::vector<Fitted>& fits, const FitSweepArgs& args, std::size_t tried, std::size_t skipped,
                 std::size_t too_big, std::size_t unpriced, bool interrupted) {
    JsonWriter w(2);
    w.begin_object();
    w.key("config");
    w.string(args.config);
    w.key("budget_bytes");
    w.value(Value::real(args.budget));
    w.key("strategies_tried");
    w.value(Value::integer(static_cast<std::int64_t>(tried)));
    w.key("skipped");
    w.value(Value::integer(static_cast<std::int64_t>(skipped)));
    w.key("too_big");
    w.value(Value::integer(static_cast<std::int64_t>(too_big)));
    w.key("unpriced");
    w.value(Value::integer(static_cast<std::int64_t>(unpriced)));
    w.key("interrupted");
    w.boolean(interrupted);
    w.key("fits");
    w.begin_array();
    for (const Fitted& f : fits) {
        const FitStrategy& s = f.strategy;
        w.begin_object();
        for (auto [name, v] : {std::pair{"tp", s.layer.tp}, {"pp", s.pp}, {"vpp", s.vpp}, {"cp", s.layer.cp},
                               {"ep", s.layer.ep}, {"etp", s.layer.etp}, {"mbs", s.layer.mbs}, {"zero", std::int64_t{s.zero}}}) {
            w.key(name);
            w.value(Value::integer(v));
        }
        w.key("schedule");
        w.string(f.schedule);
        w.key("recompute");
        w.string(kRecompute[f.recompute]);
        w.key("strategy");
        w.string(f.result.strategy);
        w.key("peak_bytes");
        w.value(Value::real(f.result.peak_bytes));
        w.key("peak_stage");
        w.value(Value::integer(static_cast<std::int64_t>(f.result.peak_stage)));
        w.end_object();
    }
    w.end_array();
    w.end_object();
    return w.take() + "\n";
}

}  // namespace

int run_fit_sweep(const FitSweepArgs& args) {
    std::optional<Records> records;
    std::filesystem::path path;  // what --records names
    try {
        RecordsOptions options = records_options();
        options.profiles = args.strategy.profiles;
        const std::string& r = args.records;
        path = resolve_records(r == "calibrated" || r == "reference" ? "rank_" + r : r);
        records = Records::load(path, options);
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, isatty(2) != 0) << records_hint(path, "calibrated, reference");
        return kCannotRun;
    }
    std::optional<FitModel> model;
    std::vector<HfStrategy> layers;
    std::vector<std::int64_t> pps, vpps, zeros;
    std::vector<std::string> schedules{""};  // "": the default of each row's vpp
    std::int64_t gpus = 0;
    std::optional<std::int64_t> gbs;
    try {
        const StrategyGrid grid = parse_grid(args.strategy);
        if (!args.schedule.empty()) schedules = list_items(args.schedule, "schedule");
        drop_repeats(schedules);
        pps = wholes(args.pp, "pp", 1, 1);
        vpps = wholes(args.vpp, "vpp", 1, 1);
        zeros = wholes(args.zero, "zero", 1, 0);
        // Counted before the layer strategies are listed: a slip of a grid
        // once ran for hours (or could not be held in memory).
        std::size_t count = grid.size();
        for (std::size_t n : {pps.size(), vpps.size(), zeros.size(), schedules.size()})
            if (count != SIZE_MAX && __builtin_mul_overflow(count, n, &count)) count = SIZE_MAX;
        if (count > kMaxFitStrategies)
            throw std::invalid_argument(fmt::format(
                "the grid has {} strategies: at most {} in one --budget sweep (each is a whole-rank fit)",
                count == SIZE_MAX ? std::string("more than 2^64") : std::to_string(count), kMaxFitStrategies));
        layers = grid.strategies();
        for (std::int64_t z : zeros)
            if (z > 3) throw std::invalid_argument(fmt::format("--zero {}: a ZeRO stage is 0, 1, 2 or 3", z));
        for (const std::string& name : schedules)
            if (!name.empty() && std::find(std::begin(kSchedules), std::end(kSchedules), name) == std::end(kSchedules))
                throw std::invalid_argument(
                    fmt::format("--schedule {}: expected 1f1b, interleaved, gpipe, dualpipev or zero-bubble", name));
        gpus = parse_whole(args.gpus.empty() ? "8" : args.gpus, "gpus", 1);
        if (!args.gbs.empty()) gbs = parse_whole(args.gbs, "gbs", 1);
        const auto family = args.strategy.family.empty() ? std::nullopt : std::optional(args.strategy.family);
        model.emplace(*records, args.config, family);
    } catch (const std::exception& e) {  // a bad option value, LayerError
        std::cerr << "oprec sweep: " << e.what() << '\n';
        return kCannotRun;
    }
    const std::size_t total = layers.size() * pps.size() * vpps.size() * zeros.size() * schedules.size();
    const InterruptGuard interrupt;
    Progress progress(total, !args.no_progress && (args.progress || isatty(2) != 0));
    const auto start = std::chrono::steady_clock::now();
    std::vector<Fitted> fits;
    std::size_t tried = 0, skipped = 0, too_big = 0, unpriced = 0;
    std::string first_refusal;   // why the first strategy that cannot run cannot
    std::string first_unpriced;  // the records' first error at a strategy that runs
    const bool interleaved_rows =
        std::any_of(vpps.begin(), vpps.end(), [](std::int64_t v) { return v > 1; }) ||
        std::find(schedules.begin(), schedules.end(), "interleaved") != schedules.end();
    for (const HfStrategy& layer : layers)
        for (std::int64_t pp : pps)
            for (std::int64_t vpp : vpps)
                for (std::int64_t zero : zeros)
                    for (const std::string& schedule : schedules) {
                        if (interrupt.interrupted()) goto done;
                        progress.update(++tried);
                        Fitted f;
                        f.strategy.layer = layout_of(layer);
                        f.strategy.gpus = gpus;
                        f.strategy.pp = pp;
                        f.strategy.vpp = vpp;
                        f.strategy.zero = static_cast<int>(zero);
                        f.strategy.gbs = gbs;
                        // Unstated, one batch for every schedule of a pp: the
                        // interleaved rows' least, so the 1F1B rows compare.
                        f.strategy.interleaved_batch = interleaved_rows;
                        if (!schedule.empty()) f.strategy.schedule = schedule;
                        f.strategy.device_bytes = args.budget;
                        f.strategy.balance_layers = true;
                        f.schedule = schedule.empty() ? (vpp > 1 ? "interleaved" : "1f1b") : schedule;
                        bool fitted = false, priced = false, broken = false;
                        for (f.recompute = 0; f.recompute < 3 && !fitted; ++f.recompute) {
                            f.strategy.layer.recompute = kRecompute[f.recompute];
                            try {
                                f.result = model->fit(f.strategy);
                            } catch (const LayerError& e) {  // sizes that do not divide: not a strategy
                                if (first_refusal.empty()) first_refusal = e.what();
                                break;
                            } catch (const PricingError& e) {
                                if (e.kind() == PricingError::Kind::Overflow) {  // a product past 64 bits at this one
                                    if (first_refusal.empty()) first_refusal = e.what();
                                } else {  // the records' own error (a division by zero): said, not hidden
                                    if (first_unpriced.empty()) first_unpriced = e.what();
                                    broken = true;
                                }
                                break;
                            }
                            priced = true;
                            if (f.result.fits) {
                                fitted = true;
                                fits.push_back(f);
                            }
                        }
                        if (broken) ++unpriced;
                        else if (!priced) ++skipped;
                        else if (!fitted) ++too_big;
                    }
done:
    progress.clear();
    const bool interrupted = interrupt.interrupted();
    std::stable_sort(fits.begin(), fits.end(), [](const Fitted& a, const Fitted& b) {
        if (a.recompute != b.recompute) return a.recompute < b.recompute;
        return a.result.peak_bytes < b.result.peak_bytes;
    });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!args.plot.empty()) {
        std::string why;
        const auto html = serve::sweep_plot_html(fmt::format("oprec sweep: {}", args.config),
                                                 json(fits, args, tried, skipped, too_big, unpriced, interrupted), web_dir(),
                                                 chart_library_dir(), why);
        if (!html || !write_file(args.plot, *html, why)) {
            std::cerr << "oprec sweep: --plot " << args.plot << ": " << why << '\n';
            return kCannotRun;
        }
    }
    if (args.format == "json") {
        std::cout << json(fits, args, tried, skipped, too_big, unpriced, interrupted);
    } else {
        const std::string head = fmt::format(
            "{}: {}; {} strategies on {} GPUs against {:.2f} GiB a GPU in {:.2f} s: {} fit, {} do not fit even "
            "fully recomputed, {} cannot run{}\n\n",
            args.config, records->source(), tried, gpus, args.budget / (1024.0 * 1024 * 1024), seconds, fits.size(),
            too_big, skipped, skipped == 0 ? "" : " (the first: " + first_refusal + ")");
        std::cout << table(fits, head, 20);
        // With no batch stated a pipeline holds fewer micro-batches than a
        // real job's: said, since the peaks then read low.
        if (!gbs && std::any_of(pps.begin(), pps.end(), [](std::int64_t p) { return p > 1; }))
            std::cout << "\nnote: no --gbs: each row takes the least batch its schedule runs (the interleaved one's "
                         "where the grid holds interleaved rows; the gbs column), so a pipeline holds fewer "
                         "micro-batches than a real job's; give the job's --gbs\n";
    }
    std::cout << std::flush;
    if (interrupted) {
        std::cerr << fmt::format("oprec sweep: interrupted after {} of {} strategies\n", tried, total);
        return interrupt.exit_status();
    }
    if (unpriced > 0)  // the records' error, at strategies that run: no answer for those
        std::cerr << fmt::format("oprec sweep: {} {} could not be priced by the records; the first: {}\n", unpriced,
                                 unpriced == 1 ? "strategy" : "strategies", first_unpriced);
    if (tried > 0 && skipped == tried) {  // nothing priced: no answer, not "nothing fits"
        std::cerr << "oprec sweep: no strategy of the grid can run on this model; the first: " << first_refusal << '\n';
        return kCannotRun;
    }
    return fits.empty() || unpriced > 0 ? kProblems : kOk;
}

}  // namespace oprec::cli
