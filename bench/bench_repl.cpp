// The REPL as a person uses it: a session with its records loaded and a
// layer set, one query typed (a slot, the whole layer, an expression), its
// text printed. In process, through Session::handle: what each line costs
// after the prompt, reload check included.
#include <benchmark/benchmark.h>

#include <sstream>

#include "bench_support.h"
#include "repl/session.h"

namespace oprec::bench {
namespace {

const char* const kQueries[] = {"qkv", "layer", "h * s / t", "qkv only attMM"};

void BM_Repl_Query(benchmark::State& state) {
    std::ostringstream out, err;
    const repl::Output output{out, err, false};
    repl::SessionOptions options;
    options.records = kRecords;
    options.load.data_dir = OPREC_SOURCE_DIR;
    repl::Session session(options);
    session.start(std::string(OPREC_SOURCE_DIR "/examples/") + kLayers[0] + ".json", {}, {});
    const std::string query = kQueries[state.range(0)];
    for (auto _ : state) {
        out.str({});
        if (!session.handle(query, output)) return state.SkipWithError(("the query failed: " + err.str()).c_str());
        benchmark::DoNotOptimize(out.str().size());
    }
    state.SetLabel(query);
}
BENCHMARK(BM_Repl_Query)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace oprec::bench
