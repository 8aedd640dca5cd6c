// Loading: the shipped records cold (the first load in a fresh process, so
// with ANTLR's parser set up from scratch) and warm (again in this process),
// and a generated 10,000-slot records file: linted, where src/lint is built
// in, else loaded and checked.
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <functional>
#include <regex>
#include <sstream>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_support.h"
#include "check/loader.h"
#include "syntax/parse.h"
#if __has_include("lint/lint.h")
#include "lint/lint.h"
#define OPREC_BENCH_LINT 1
#endif

namespace oprec::bench {
namespace {

// The probe prints the CPU and wall nanoseconds its one load took; the
// process around it is not counted (the eval benchmark counts that).
void BM_LoadShippedRecords_Cold(benchmark::State& state) {
    double wall = 0;
    for (auto _ : state) {
        std::string out;
        if (run_process({OPREC_COLD_LOAD}, "", &out) != 0) return state.SkipWithError("the cold-load probe failed");
        std::istringstream fields(out);
        double cpu_ns = 0, wall_ns = 0;
        fields >> cpu_ns >> wall_ns;
        state.SetIterationTime(cpu_ns * 1e-9);
        wall += wall_ns * 1e-9;
    }
    state.counters["wall_ms"] = benchmark::Counter(wall * 1e3 / double(state.iterations()));
}
BENCHMARK(BM_LoadShippedRecords_Cold)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(40);

// The process's CPU seconds: the parser runs on a thread of its own, which
// the benchmark thread's CPU time would leave out.
double process_cpu() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void BM_LoadShippedRecords_Warm(benchmark::State& state) {
    const LoadOptions options{{kStdlib}};
    for (auto _ : state) {
        const double start = process_cpu();
        LoadResult r = load_file(kRecords, options);
        if (!r.ok()) return state.SkipWithError("the shipped records do not load");
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(process_cpu() - start);
    }
}
BENCHMARK(BM_LoadShippedRecords_Warm)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The shipped records with their slots copied, renamed, until there are `count`.
std::string many_slots(std::size_t count) {
    const std::string shipped = read_file(kRecords);
    const std::size_t first = shipped.find("\nslot ");
    const std::string head = shipped.substr(0, first + 1);
    const std::string slots = shipped.substr(first + 1);
    const std::regex name(R"(^slot (\w+) in)", std::regex::multiline);
    const auto per_copy = static_cast<std::size_t>(
        std::distance(std::sregex_iterator(slots.begin(), slots.end(), name), std::sregex_iterator()));
    std::string text = head;
    for (std::size_t copy = 0; copy * per_copy < count; ++copy)
        text += std::regex_replace(slots, name, "slot $1_" + std::to_string(copy) + " in");
    return text;
}

const std::string& big_records_path() {
    static const std::string path = temp_file("records-10000-slots.rec", many_slots(10000));
    return path;
}

#ifdef OPREC_BENCH_LINT
void BM_Lint_10000Slots(benchmark::State& state) {
    lint::Options options;
    options.load.search_path = {kStdlib};
    big_records_path();
    for (auto _ : state) {
        const double start = process_cpu();
        lint::Report report = lint::lint_file(big_records_path(), options);
        if (report.could_not_run || report.count(Severity::Error) != 0)
            return state.SkipWithError("the generated records do not load");
        benchmark::DoNotOptimize(report);
        state.SetIterationTime(process_cpu() - start);
    }
    state.SetLabel("lint::lint_file");
}
BENCHMARK(BM_Lint_10000Slots)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);
#endif

void BM_Load_10000Slots(benchmark::State& state) {
    const LoadOptions options{{kStdlib}};
    big_records_path();
    for (auto _ : state) {
        const double start = process_cpu();
        LoadResult r = load_file(big_records_path(), options);
        if (!r.ok() || r.program->slots.size() < 10000) return state.SkipWithError("the generated records do not load");
        benchmark::DoNotOptimize(r);
        state.SetIterationTime(process_cpu() - start);
    }
}
BENCHMARK(BM_Load_10000Slots)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

// The peak resident memory, in KiB, of a child process running `work`.
long child_max_rss_kib(const std::function<void()>& work) {
    const pid_t pid = fork();
    if (pid == 0) {
        work();
        _exit(0);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return usage.ru_maxrss;
}

// The parser's peak memory per byte of input, measured as a forked child's
// peak resident memory parsing the text, less a child's that does not:
// for the 10,000-slot records file (arg 0) and a 10 MB expression on one
// line (arg 1, refused past kMaxDeclarationTokens: docs/limits.md).
void BM_Parse_HeapPerInputByte(benchmark::State& state) {
    std::string text;
    if (state.range(0) == 0) {
        text = many_slots(10000);
    } else {
        text = "default x = 1";
        while (text.size() < 10'000'000) text += "+1";
        text += "\n";
    }
    double per_byte = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const long base = child_max_rss_kib([&] { benchmark::DoNotOptimize(text.data()); });
        const long parsed = child_max_rss_kib([&] {
            SourceMap sources;
            std::vector<Diagnostic> diags;
            const ast::Module m = parse_module(sources, sources.add("big.rec", text), diags);
            benchmark::DoNotOptimize(m);
        });
        if (base < 0 || parsed < 0) return state.SkipWithError("the child process failed");
        per_byte = double(std::max(0L, parsed - base)) * 1024.0 / double(text.size());
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    state.counters["heap_bytes_per_input_byte"] = benchmark::Counter(per_byte);
    state.counters["input_MB"] = benchmark::Counter(double(text.size()) / 1e6);
}
BENCHMARK(BM_Parse_HeapPerInputByte)->Arg(0)->Arg(1)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace oprec::bench
