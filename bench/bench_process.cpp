// The command as a user runs it: `oprec eval` of one layer, process start
// to exit, and `oprec eval --jsonl` throughput in layers per second (over
// the bundled and golden layers, errors and all).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "bench_support.h"
#include "golden/golden_support.h"
#include "model/layer_json.h"

namespace oprec::bench {
namespace {

// Timed by the child's CPU time (see run_process); its wall time is the
// wall_ms counter, which equals it on an idle machine.
void BM_EvalOneLayer_Process(benchmark::State& state) {
    const std::string layer = layer_path(static_cast<std::size_t>(state.range(0)));
    double wall = 0;
    for (auto _ : state) {
        double cpu = 0;
        const auto start = std::chrono::steady_clock::now();
        if (run_process({OPREC_BINARY, "eval", layer}, "", nullptr, &cpu) != 0)
            return state.SkipWithError("oprec eval failed");
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.SetIterationTime(cpu);
    }
    state.counters["wall_ms"] = benchmark::Counter(wall * 1e3 / double(state.iterations()));
    state.SetLabel(kLayers.at(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_EvalOneLayer_Process)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);

// The REPL's peak resident memory over a short session (where src/repl is
// built), as /usr/bin/time reports it: the spawned child's own rusage would
// count this process's memory too (posix_spawn shares it until exec).
void BM_Repl_ResidentMemory(benchmark::State& state) {
    const std::string session = temp_file("repl-session.txt", "layer\nqkv\nexplain qkv\nops\nh * s / t\n:quit\n");
    const std::string report = temp_file("repl-rss.txt", "");
    double rss_kb = 0;
    for (auto _ : state) {
        double cpu = 0;
        if (run_process({"/usr/bin/time", "-f", "%M", "-o", report, OPREC_BINARY, "repl", "--no-history", "--layer",
                         layer_path(0)},
                        session, nullptr, &cpu) != 0)
            return state.SkipWithError("oprec repl failed (is it built? is /usr/bin/time there?)");
        state.SetIterationTime(cpu);
        rss_kb = std::max(rss_kb, std::stod(read_file(report)));
    }
    state.counters["max_rss_MB"] = benchmark::Counter(rss_kb / 1024.0);
}
BENCHMARK(BM_Repl_ResidentMemory)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

// `lines` layer documents, one per line: the bundled example layers and
// every golden layer (tests/golden/records_cases.json), in turn.
std::string jsonl(std::size_t lines) {
    std::vector<std::string> docs;
    for (std::size_t k = 0; k < kLayers.size(); ++k)
        docs.push_back(nlohmann::json::parse(read_file(layer_path(k))).dump());
    const auto golden = golden::load_json(OPREC_SOURCE_DIR "/tests/golden/records_cases.json");
    for (const auto& c : golden["cases"]) docs.push_back(layer_doc_json(golden::layer_doc(c)).dump());
    std::string text;
    for (std::size_t i = 0; i < lines; ++i) text += docs[i % docs.size()] + "\n";
    return text;
}

// items_per_second is layers per second (of the process's CPU time).
void BM_EvalJsonl_Throughput(benchmark::State& state) {
    const auto lines = static_cast<std::size_t>(state.range(0));
    const std::string input = temp_file("layers-" + std::to_string(lines) + ".jsonl", jsonl(lines));
    for (auto _ : state) {
        double cpu = 0;
        // Exit 1: some golden layers hold values that cannot be computed (as in the reference).
        const int status = run_process({OPREC_BINARY, "eval", "--jsonl", "--format", "json"}, input, nullptr, &cpu);
        if (status != 0 && status != 1) return state.SkipWithError("oprec eval --jsonl failed");
        state.SetIterationTime(cpu);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * lines));
}
BENCHMARK(BM_EvalJsonl_Throughput)->Arg(2000)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace
}  // namespace oprec::bench
