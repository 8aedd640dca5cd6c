// Pricing through the records (the interpreter) against the same formulas
// hand-written in C++ (NativeBaseline), on layers bound once: the qkv slot,
// and a whole layer (every `when`, every held slot, by part). Each baseline
// benchmark first checks that both give the same bits.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "bench_support.h"
#include "eval/pricing.h"
#include "native_baseline.h"
#include "model/evaluator.h"

namespace oprec::bench {
namespace {

struct Fixture {
    explicit Fixture(std::size_t index, bool selective = false)
        : records(shipped()),
          doc(selective ? selective_layer(index) : layer(index)),
          prepared(records, doc),
          native(NativeBaseline::for_program(shipped())) {}
    RecordsEvaluator records;
    LayerDoc doc;
    PreparedLayer prepared;
    std::optional<NativeBaseline> native;
};

void label(benchmark::State& state) {
    state.SetLabel(kLayers.at(static_cast<std::size_t>(state.range(0))) + (state.range(1) ? " selective" : ""));
}

void BM_QkvSlot_Records(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    const SlotId qkv = f.records.slot_id("qkv");
    for (auto _ : state) benchmark::DoNotOptimize(f.prepared.slot(qkv));
    label(state);
}

void BM_QkvSlot_Native(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    if (!f.native) return state.SkipWithError("the records are not those the baseline was written for");
    const SlotId qkv = f.records.slot_id("qkv");
    if (!same_bits(f.native->qkv(f.prepared.names(), f.prepared.keep()), f.prepared.slot(qkv)))
        return state.SkipWithError("the baseline's qkv differs from the records'");
    for (auto _ : state) benchmark::DoNotOptimize(f.native->qkv(f.prepared.names(), f.prepared.keep()));
    label(state);
}

void BM_Layer_Records(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    PartBytes out;
    for (auto _ : state) {
        f.prepared.price(out);
        benchmark::DoNotOptimize(out.bytes.data());
    }
    label(state);
}

void BM_Layer_Native(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    if (!f.native) return state.SkipWithError("the records are not those the baseline was written for");
    PartBytes records, native;
    f.prepared.price(records);
    f.native->price_layer(f.prepared.names(), f.prepared.keep(), native);
    if (!same_bits(records, native)) return state.SkipWithError("the baseline's layer differs from the records'");
    for (auto _ : state) {
        f.native->price_layer(f.prepared.names(), f.prepared.keep(), native);
        benchmark::DoNotOptimize(native.bytes.data());
    }
    label(state);
}

// As a search prices: a strategy's names (t, cp) changed before each
// pricing. The typed run's pins are the names its branches test (the
// model's shape), so it still runs; the fixture checks that it does.
void BM_Layer_Search(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    const Program& program = f.records.program();
    const NameId t = *program.find_name("t"), cp = *program.find_name("cp");
    constexpr std::int64_t kT[] = {1, 2, 4, 8}, kCp[] = {1, 2};
    f.prepared.set_name(t, Value::integer(8));
    if (!f.prepared.runs_typed()) return state.SkipWithError("a strategy's names unpinned the typed run");
    PartBytes out;
    std::size_t k = 0;
    for (auto _ : state) {
        f.prepared.set_name(t, Value::integer(kT[k % 4]));
        f.prepared.set_name(cp, Value::integer(kCp[(k / 4) % 2]));
        ++k;
        f.prepared.price(out);
        benchmark::DoNotOptimize(out.bytes.data());
    }
    label(state);
}

// From the layer document: names bound, mask made, priced, parts named (the
// reference's layer_bytes call, which its 48 µs is the cost of).
void BM_Layer_FromDocument(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    for (auto _ : state) benchmark::DoNotOptimize(f.records.layer_bytes(f.doc));
    label(state);
}

void BM_Bind(benchmark::State& state) {
    Fixture f(static_cast<std::size_t>(state.range(0)), state.range(1) != 0);
    for (auto _ : state) benchmark::DoNotOptimize(f.records.bind(f.doc));
    label(state);
}

// The least of the repetitions beside their median: on a shared machine the
// noise only adds time, so the least is the steadier estimate of the cost.
double least(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

void layers(benchmark::internal::Benchmark* b) {
    for (int layer = 0; layer < 2; ++layer)
        for (int selective = 0; selective < 2; ++selective) b->Args({layer, selective});
    b->ComputeStatistics("min", least);
}

BENCHMARK(BM_QkvSlot_Records)->Apply(layers);
BENCHMARK(BM_QkvSlot_Native)->Apply(layers);
BENCHMARK(BM_Layer_Records)->Apply(layers);
BENCHMARK(BM_Layer_Native)->Apply(layers);
BENCHMARK(BM_Layer_Search)->Apply(layers);
BENCHMARK(BM_Layer_FromDocument)->Apply(layers);
BENCHMARK(BM_Bind)->Args({0, 0})->Args({1, 0});

}  // namespace
}  // namespace oprec::bench

BENCHMARK_MAIN();
