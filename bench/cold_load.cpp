// One load and check of the shipped records, the first in its process (so
// with ANTLR's parser set up from scratch): prints the CPU nanoseconds it
// took (every thread of the process: the parser runs on its own), then the
// wall nanoseconds. bench_load.cpp runs it in a fresh process each time.
#include <chrono>
#include <cstdio>
#include <ctime>

#include "check/loader.h"

namespace {
long long cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}
}  // namespace

int main() {
    const long long cpu_start = cpu_ns();
    const auto wall_start = std::chrono::steady_clock::now();
    const oprec::LoadResult r = oprec::load_file(OPREC_SOURCE_DIR "/records/op_records.rec",
                                                 {{OPREC_SOURCE_DIR "/stdlib"}});
    const long long cpu = cpu_ns() - cpu_start;
    const auto wall = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - wall_start);
    if (!r.ok()) return 1;
    std::printf("%lld %lld\n", cpu, static_cast<long long>(wall.count()));
    return 0;
}
