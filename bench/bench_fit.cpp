// The whole rank: one fit through the public API (a strategy changed before
// each, as a planner tries them), and `oprec sweep --budget` over every
// strategy of DeepSeek-V3 on 2,048 GPUs, the command end to end.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include <sys/resource.h>
#include <sys/wait.h>

#include "bench_support.h"
#include "oprec/oprec.h"

namespace oprec::bench {
namespace {

const std::string kDeepSeek = OPREC_SOURCE_DIR "/examples/hf/deepseek-v3.json";

// Alternates the ZeRO stage: the layers' pricing is reused, the stages' terms evaluated anew.
void BM_Fit_Api(benchmark::State& state) {
    RecordsOptions options;
    options.profiles = "profiles.rec";
    const Records records = Records::load(OPREC_SOURCE_DIR "/records/rank_calibrated.rec", options);
    const FitModel model(records, kDeepSeek);
    FitStrategy s;
    s.gpus = 2048;
    s.layer.tp = 8;
    s.layer.ep = 64;
    s.layer.seq = 4096;
    s.pp = state.range(0);
    s.gbs = 4096;
    s.balance_layers = true;
    int k = 0;
    for (auto _ : state) {
        s.zero = 1 + (k++ & 1);
        benchmark::DoNotOptimize(model.fit(s).peak_bytes);
    }
    state.SetLabel("deepseek-v3, pp=" + std::to_string(s.pp));
}
BENCHMARK(BM_Fit_Api)->Arg(1)->Arg(16)->Unit(benchmark::kMicrosecond);

// The child's CPU time, as the process reports it.
void BM_Fit_SweepDeepSeek_Process(benchmark::State& state) {
    const std::string cmd = std::string(OPREC_BINARY) + " sweep " + kDeepSeek +
                            " --gpus 2048 --tp 1,2,4,8 --pp 1,2,4,8,16 --vpp 1,2 --ep 1,2,4,8,16,32,64 --etp 1,2"
                            " --cp 1,2 --mbs 1,2 --zero 0,1,2,3 --gbs 4096 --seq 4096 --budget 80GiB --no-progress"
                            " > /dev/null";
    for (auto _ : state) {
        rusage before{}, after{};
        getrusage(RUSAGE_CHILDREN, &before);
        if (std::system(cmd.c_str()) != 0) state.SkipWithError("oprec sweep failed");
        getrusage(RUSAGE_CHILDREN, &after);
        auto seconds = [](const rusage& r) {
            return r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
        };
        state.SetIterationTime(seconds(after) - seconds(before));
    }
    state.SetLabel("8,960 strategies, CPU time");
}
BENCHMARK(BM_Fit_SweepDeepSeek_Process)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace oprec::bench
