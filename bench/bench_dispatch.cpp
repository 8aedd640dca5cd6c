// What one register instruction costs at least: the run_registers loop on
// made-up code, so a layer's pricing can be read as dispatches times this
// floor plus its arithmetic. Not a target: it says where the time of a
// layer's run goes (docs/performance.md).
//   /0  instructions that do almost nothing (set a memo bit): the dispatch alone
//   /1  independent float multiplications: dispatch, two cells read, one written
//   /2  the same multiplications, each reading the one before: latency too
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "eval/register_code.h"
#include "eval/register_run.h"

namespace oprec::bench {
namespace {

constexpr std::uint16_t kCount = 100;

RegisterCode made_up(int kind) {
    RegisterCode code;
    code.consts = {Value::real(1.0000001), Value::real(0.9999)};
    code.cells = static_cast<std::uint32_t>(code.consts.size()) + kCount;
    for (std::uint16_t k = 0; k < kCount; ++k) {
        RInstr i;
        const auto dst = static_cast<std::uint16_t>(2 + k);
        switch (kind) {
        case 0: i.op = ROp::SetMemo, i.x = static_cast<std::uint16_t>(k % 64); break;
        case 1: i.op = ROp::Mul, i.dst = dst, i.x = 0, i.y = 1; break;
        default: i.op = k == 0 ? ROp::Mul : ROp::MulX, i.dst = dst, i.x = 0, i.y = 1; break;
        }
        code.instrs.push_back(i);
    }
    code.instrs.push_back(RInstr{});  // Return
    code.memos = kind == 0 ? 64 : 0;
    thread_registers(code);
    return code;
}

void BM_RegisterDispatch(benchmark::State& state) {
    const int kind = static_cast<int>(state.range(0));
    const RegisterCode code = made_up(kind);
    std::vector<Value> cells;
    std::uint8_t keep = 1, held = 0;
    Value slot;
    if (!run_registers(code, nullptr, &keep, &held, &slot, cells)) return state.SkipWithError("the made-up code gave up");
    for (auto _ : state) {
        benchmark::DoNotOptimize(run_registers(code, nullptr, &keep, &held, &slot, cells));
        benchmark::ClobberMemory();
    }
    state.counters["per_instr"] =
        benchmark::Counter(kCount, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    static const char* const kLabels[] = {"memo bits: dispatch alone", "independent float products", "chained float products"};
    state.SetLabel(kLabels[kind]);
}
BENCHMARK(BM_RegisterDispatch)->DenseRange(0, 2);

}  // namespace
}  // namespace oprec::bench
