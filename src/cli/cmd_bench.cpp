// oprec bench: how fast the records price a layer on this machine, as
// `zstd -b` or `openssl speed` measure theirs, through the calls an
// embedder makes (oprec/layer.h): the layer's parts (every `when`, every
// held slot, by part), each held slot alone, and all 2^n switch settings.
// The same formulas hand-written in C++ are the developers' yardstick, in
// bench/ (scripts/bench), not here.
#include <algorithm>
#include <chrono>
#include <functional>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "cli/layer_options.h"
#include "cli/paths.h"
#include "diag/read_file.h"
#include "oprec/oprec.h"
#include "value/json_writer.h"

namespace oprec::cli {

namespace {

struct BenchArgs {
    std::string layer_path;
    LayerEdits edits;
    std::string records;
    std::string format = "table";
    double seconds = 1.0;
};

// Nanoseconds per call of `f`: batches grown until one takes a few
// milliseconds, then batches until `seconds` have passed; the fastest
// batch's mean, which a busy machine disturbs least.
double ns_per_call(const std::function<void()>& f, double seconds) {
    using clock = std::chrono::steady_clock;
    auto time = [&](std::size_t n) {
        const auto start = clock::now();
        for (std::size_t i = 0; i < n; ++i) f();
        return std::chrono::duration<double, std::nano>(clock::now() - start).count();
    };
    std::size_t batch = 1;
    double spent = time(batch);
    while (spent < 2e6 && batch < (std::size_t(1) << 30)) {
        batch *= 4;
        spent = time(batch);
    }
    double best = spent / double(batch);
    const auto until = clock::now() + std::chrono::duration<double>(seconds);
    while (clock::now() < until) best = std::min(best, time(batch) / double(batch));
    return best;
}

std::string ns_text(double ns) { return ns < 10 ? fmt::format("{:.2f} ns", ns) : fmt::format("{:.0f} ns", ns); }

std::string row(const std::string& what, const std::string& figure, const std::string& note = "") {
    return fmt::format("  {:<28} {:>12}  {}\n", what, figure, note);
}

std::string read_layer_text(const std::string& path) {
    std::string why;
    std::optional<std::string> text = read_text(path, why, kMaxDocumentBytes);
    if (!text) throw LayerError(fmt::format("cannot read `{}`: {}", path, why));
    return std::move(*text);
}

int run(const BenchArgs& args) {
    std::optional<Records> records;
    try {
        records = Records::load(resolve_records(args.records), records_options());
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, isatty(2) != 0);
        return kCannotRun;
    }
    std::string path = args.layer_path;
    if (path.empty()) path = (data_dir() / "examples" / "llama2-7b.json").string();
    std::optional<Layer> bound;
    try {
        bound = records->layer(read_layer_text(path), path == "-" ? "<stdin>" : path);
        apply_edits(*bound, *records, args.edits);
    } catch (const LayerError& e) {
        std::cerr << "oprec bench: " << e.what() << '\n';
        return kCannotRun;
    }
    const Layer& layer = *bound;
    const double seconds = std::max(args.seconds, 0.01);
    Named<std::string> held;
    try {
        (void)layer.parts();  // a layer that cannot be priced is reported, not timed
        held = layer.held_slots();
    } catch (const PricingError& e) {
        std::cerr << "oprec bench: the layer cannot be priced: " << e.what() << '\n';
        return kProblems;
    }

    // One pricing of the layer's parts.
    const double layer_ns = ns_per_call([&] { (void)layer.parts(); }, seconds);
    // Each held slot alone.
    std::vector<std::pair<std::string, double>> slots;
    for (const auto& [slot, part] : held)
        slots.emplace_back(slot, ns_per_call([&, name = slot] { (void)layer.slot(name); }, seconds / 4));
    // Every setting of the switches, on the layer as a selective one.
    const std::size_t settings = std::size_t(1) << records->switches().size();
    std::optional<double> all_settings_ns;
    try {
        all_settings_ns = ns_per_call([&] { (void)layer.settings(); }, seconds / 2);
    } catch (const PricingError&) {
        all_settings_ns.reset();  // some setting cannot be priced
    }

    if (args.format == "json") {
        nlohmann::ordered_json doc;
        doc["layer"] = path;
        doc["layer_ns"] = layer_ns;
        nlohmann::ordered_json by_slot = nlohmann::ordered_json::object();
        for (const auto& [name, ns] : slots) by_slot[name] = ns;
        doc["slots_ns"] = by_slot;
        doc["all_switch_settings_ns"] = all_settings_ns ? nlohmann::ordered_json(*all_settings_ns) : nlohmann::ordered_json();
        doc["switch_settings"] = settings;
        std::cout << json_text(doc, 2) << '\n';
        return kOk;
    }

    std::cout << fmt::format("{}: {} layer, {} slots held; the fastest of ~{:.2g} s of runs each\n\n", path,
                             recompute_name(layer.recompute()), held.size(), seconds);
    std::cout << row("ns per call", "");
    std::cout << row("layer (by part)", ns_text(layer_ns), "Layer::parts");
    for (const auto& [name, ns] : slots) std::cout << row("slot " + name, ns_text(ns), "Layer::slot");
    if (all_settings_ns)
        std::cout << row(fmt::format("all {} switch settings", settings), ns_text(*all_settings_ns),
                         fmt::format("Layer::settings, {:.1f}x one pricing", *all_settings_ns / layer_ns));
    std::cout << fmt::format("\n  the Python reference takes about 48 us per layer: {:.0f}x that\n", 48000.0 / layer_ns);
    return kOk;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<BenchArgs>();
    CLI::App* cmd = app.add_subcommand("bench", "Measure how fast the records price a layer on this machine");
    cmd->add_option("layer", args->layer_path, "A layer document (JSON; - reads standard input; default: the bundled llama2-7b example)");
    add_layer_edit_options(*cmd, args->edits);
    cmd->add_option("--records", args->records, "The records: a file, or a name in records/ such as calibrated (default: the shipped records)");
    cmd->add_option("--time", args->seconds, "Seconds to spend on the layer's pricing (the rest get a share of it)")
        ->check(CLI::Range(0.01, 60.0));
    cmd->add_option("--format", args->format, "table or json")->check(CLI::IsMember({"table", "json"}));
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
