// All 2^n switch settings of a layer (256 for the shipped vocabulary's eight
// switches), each priced exactly, with the sweep's LayerSettings: from the
// layer document, names bound once, each held slot priced once per way of
// keeping its own entries, then each setting's parts summed. The target
// compares it with one pricing from the document (BM_Layer_FromDocument).
#include <benchmark/benchmark.h>

#include "bench_support.h"
#include "model/layer_settings.h"
#include "model/evaluator.h"

namespace oprec::bench {
namespace {

void BM_AllSwitchSettings(benchmark::State& state) {
    const RecordsEvaluator records(shipped());
    const LayerDoc doc = layer(static_cast<std::size_t>(state.range(0)));
    const std::uint32_t settings = 1u << shipped().switches.size();
    std::vector<Value> parts;
    for (auto _ : state) {
        const LayerSettings all(records, doc);
        for (std::uint32_t bits = 0; bits < settings; ++bits) {
            all.selective_parts(bits, parts);
            benchmark::DoNotOptimize(parts.data());
        }
    }
    state.SetLabel(kLayers.at(static_cast<std::size_t>(state.range(0))) + ", " + std::to_string(settings) + " settings");
}
BENCHMARK(BM_AllSwitchSettings)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace oprec::bench
