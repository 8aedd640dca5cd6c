// oprec bench: how fast the records price a layer on this machine, as
// `zstd -b` or `openssl speed` measure theirs: the layer's parts (every
// `when`, every held slot, by part), each held slot alone, and all 2^n
// switch settings, each in a loop, with the same formulas hand-written in
// C++ beside where the library has them (bench/native_baseline.h).
#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "diag/read_file.h"
#include "check/loader.h"
#include "cli/commands.h"
#include "cli/file_io.h"
#include "cli/layer_options.h"
#include "cli/paths.h"
#include "diag/diagnostic.h"
#include "model/layer_settings.h"
#include "native_baseline.h"
#include "model/evaluator.h"
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

struct Measured {
    double records_ns = 0;
    std::optional<double> native_ns;  // where the baseline has the formulas and gives the same bits
};

std::string ns_text(double ns) { return ns < 10 ? fmt::format("{:.2f} ns", ns) : fmt::format("{:.0f} ns", ns); }

std::string row(const std::string& what, const Measured& m) {
    std::string native = m.native_ns ? ns_text(*m.native_ns) : "-";
    std::string ratio = m.native_ns ? fmt::format("{:.2f}x", m.records_ns / *m.native_ns) : "";
    return fmt::format("  {:<28} {:>12} {:>14} {:>8}\n", what, ns_text(m.records_ns), native, ratio);
}

std::string read_layer_text(const std::string& path) {
    std::string why;
    std::optional<std::string> text = read_text(path, why, kMaxDocumentBytes);
    if (!text) throw std::runtime_error(fmt::format("cannot read `{}`: {}", path, why));
    return std::move(*text);
}

int run(const BenchArgs& args) {
    std::optional<Program> program;
    try {
        program = load_records_file(resolve_records(args.records), load_options());
    } catch (const LoadError& e) {
        std::cerr << render_all(e.diagnostics(), e.sources(), isatty(2) != 0);
        return kCannotRun;
    }
    std::string path = args.layer_path;
    if (path.empty()) path = (data_dir() / "examples" / "llama2-7b.json").string();
    LayerDoc layer;
    try {
        layer = parse_layer_doc_text(read_layer_text(path), path == "-" ? "<stdin>" : path);
        apply_edits(layer, args.edits, *program);
    } catch (const std::exception& e) {
        std::cerr << "oprec bench: " << e.what() << '\n';
        return kCannotRun;
    }

    const RecordsEvaluator records(*program);
    const PreparedLayer prepared(records, layer);
    const auto native = NativeBaseline::for_program(*program);
    const double seconds = std::max(args.seconds, 0.01);
    PartBytes out, native_out;
    try {
        prepared.price(out);  // a layer that cannot be priced is reported, not timed
    } catch (const EvalError& e) {
        std::cerr << "oprec bench: the layer cannot be priced: " << e.what() << '\n';
        return kProblems;
    }

    // One pricing of the layer's parts.
    Measured layer_m;
    layer_m.records_ns = ns_per_call([&] { prepared.price(out); }, seconds);
    if (native) {
        native->price_layer(prepared.names(), prepared.keep(), native_out);
        if (same_bits(out, native_out))
            layer_m.native_ns = ns_per_call([&] { native->price_layer(prepared.names(), prepared.keep(), native_out); }, seconds / 4);
    }
    const std::vector<SlotId> held = out.held;

    // Each held slot alone.
    std::vector<std::pair<std::string, Measured>> slots;
    for (SlotId s : held) {
        Measured m;
        const Value want = prepared.slot(s);
        m.records_ns = ns_per_call([&] { (void)prepared.slot(s); }, seconds / 4);
        if (native) {
            const auto got = native->slot(s, prepared.names(), prepared.keep());
            if (got && same_bits(*got, want))
                m.native_ns = ns_per_call([&] { (void)native->slot(s, prepared.names(), prepared.keep()); }, seconds / 4);
        }
        slots.emplace_back(program->slots[s].name, m);
    }

    // Every setting of the switches, on the layer as a selective one.
    std::optional<double> all_settings_ns;
    std::size_t settings = std::size_t(1) << program->switches.size();
    std::vector<Value> parts;
    try {
        all_settings_ns = ns_per_call([&] {
            const LayerSettings all(records, layer);
            for (std::uint32_t bits = 0; bits < settings; ++bits) all.selective_parts(bits, parts);
        }, seconds / 2);
    } catch (const EvalError&) {
        all_settings_ns.reset();  // some setting cannot be priced
    }

    if (args.format == "json") {
        nlohmann::ordered_json doc;
        doc["layer"] = path;
        doc["layer_ns"] = layer_m.records_ns;
        nlohmann::ordered_json by_slot = nlohmann::ordered_json::object();
        for (const auto& [name, m] : slots) by_slot[name] = m.records_ns;
        doc["slots_ns"] = by_slot;
        doc["all_switch_settings_ns"] = all_settings_ns ? nlohmann::ordered_json(*all_settings_ns) : nlohmann::ordered_json();
        doc["switch_settings"] = settings;
        nlohmann::ordered_json baseline = nlohmann::ordered_json::object();
        if (layer_m.native_ns) baseline["layer_ns"] = *layer_m.native_ns;
        nlohmann::ordered_json native_slots = nlohmann::ordered_json::object();
        for (const auto& [name, m] : slots)
            if (m.native_ns) native_slots[name] = *m.native_ns;
        baseline["slots_ns"] = native_slots;
        doc["hand_written_ns"] = baseline;
        std::cout << json_text(doc, 2) << '\n';
        return kOk;
    }

    std::cout << fmt::format("{}: {} layer, {} slots held; the fastest of ~{:.2g} s of runs each\n\n", path,
                             node_kind_name(layer.context.node), held.size(), seconds);
    std::cout << fmt::format("  {:<28} {:>12} {:>14} {:>8}\n", "ns per pricing", "records", "hand-written", "ratio");
    std::cout << row("layer (by part)", layer_m);
    for (const auto& [name, m] : slots) std::cout << row("slot " + name, m);
    if (all_settings_ns) {
        std::cout << fmt::format("  {:<28} {:>12} {:>14} {:>8}\n", fmt::format("all {} switch settings", settings),
                                 ns_text(*all_settings_ns), "-",
                                 fmt::format("{:.1f}x one", *all_settings_ns / layer_m.records_ns));
    }
    if (!native) std::cout << "\n  (no hand-written baseline: these are not the shipped records)\n";
    std::cout << fmt::format("\n  the Python reference takes about 48 us per layer: {:.0f}x that\n",
                             48000.0 / layer_m.records_ns);
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
