// The public API as a planner uses it: a layer bound once, a strategy's
// field changed, the layer priced again.
#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "oprec/oprec.h"

namespace oprec::bench {
namespace {

// Alternates t (or cp) between two values before each pricing: set() and
// total() through the public API, the typed run kept (its pins are the
// model's shape, not the strategy).
void BM_Api_Reprice(benchmark::State& state) {
    const Records records = Records::shipped();
    Layer layer = records.layer_file(layer_path(static_cast<std::size_t>(state.range(0))));
    const char* field = state.range(1) == 0 ? "t" : "cp";
    std::int64_t k = 0;
    for (auto _ : state) {
        layer.set(field, std::int64_t{1} << (k++ & 1));
        benchmark::DoNotOptimize(layer.total());
    }
    state.SetLabel(kLayers.at(static_cast<std::size_t>(state.range(0))) + " set " + field);
}
BENCHMARK(BM_Api_Reprice)->Args({0, 0})->Args({1, 0})->Args({0, 1})->Args({1, 1});

// The full report (what `oprec eval --format json` prints) of a bound layer.
void BM_Api_Report(benchmark::State& state) {
    const Records records = Records::shipped();
    const Layer layer = records.layer_file(layer_path(static_cast<std::size_t>(state.range(0))));
    for (auto _ : state) benchmark::DoNotOptimize(layer.report_json());
    state.SetLabel(kLayers.at(static_cast<std::size_t>(state.range(0))));
}
BENCHMARK(BM_Api_Report)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace oprec::bench
