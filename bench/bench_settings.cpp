// All 2^n switch settings of a layer (256 for the shipped vocabulary's eight
// switches), each priced exactly, with the sweep's LayerSettings: names
// bound once, each held slot's entries evaluated once, re-summed per setting.
#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "model/layer_settings.h"
#include "model/records_eval.h"

namespace oprec::bench {
namespace {

void BM_AllSwitchSettings(benchmark::State& state) {
    const RecordsEvaluator records(shipped());
    const LayerDoc doc = layer(static_cast<std::size_t>(state.range(0)));
    const std::uint32_t settings = 1u << shipped().switches.size();
    for (auto _ : state) {
        const LayerSettings all(records, doc);
        for (std::uint32_t bits = 0; bits < settings; ++bits) benchmark::DoNotOptimize(all.parts(all.selective(bits)));
    }
    state.SetLabel(kLayers.at(static_cast<std::size_t>(state.range(0))) + ", " + std::to_string(settings) + " settings");
}
BENCHMARK(BM_AllSwitchSettings)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace oprec::bench
