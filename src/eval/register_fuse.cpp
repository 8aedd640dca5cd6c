// fuse_pairs: fewer instructions for a typed run. A dispatch costs about as
// much as the arithmetic it leads to (bench_dispatch), so two typed
// operations where the second reads the first's value as the value before
// (`s * b * h`, `e * (a + b)`), or its cell where nothing else reads it,
// become one, where nothing else reads the cell the first wrote.
#include <cstdint>
#include <vector>

#include "eval/register_edit.h"

namespace oprec {

namespace {
bool float_at(int pair, int bit) { return (pair >> bit) & 1; }
// Add..Div's typed forms, then AddX..DivX's, then AddY..DivY's: OPREC_TYPED_BASES' order.
static_assert(static_cast<int>(ROp::AddII) == kFirstTyped && static_cast<int>(ROp::AddXII) == kFirstTyped + 16 &&
              static_cast<int>(ROp::AddYII) == kFirstTyped + 32 && static_cast<int>(ROp::DivYFF) == kFirstTyped + 47);
}  // namespace

void fuse_pairs(RegisterCode& code) {
    code.threaded.clear();  // the instructions change: thread_registers again after
    const std::vector<std::uint32_t> reads = read_counts(code, code.cells);
    const std::vector<std::uint32_t> landings = landing_counts(code.instrs);
    std::vector<std::uint8_t> gone(code.instrs.size(), 0);
    bool any = false;
    for (std::size_t i = 0; i + 1 < code.instrs.size(); ++i) {
        RInstr& first = code.instrs[i];
        const RInstr& second = code.instrs[i + 1];
        const int f = static_cast<int>(first.op) - kFirstTyped;  // its place among the typed forms
        const int s = static_cast<int>(second.op) - kFirstTyped;
        // The first a typed Add..Div (bases 0-3); the second a typed AddX..DivY
        // (4-11) reading its value as the value before, or a typed Add..Div
        // reading its cell on one side (the cell's one read).
        if (f < 0 || f >= 4 * 4 || s < 0 || s >= 12 * 4 || landings[i + 1] != 0) continue;
        const bool plain = s < 4 * 4;
        if (plain ? reads[first.dst] != 1 || (second.x == first.dst) == (second.y == first.dst)
                  : reads[first.dst] != 0)
            continue;
        const int op1 = f / 4, op2 = plain ? s / 4 : (s / 4 - 4) % 4;
        const bool y_side = plain ? second.y == first.dst : s / 4 >= 8;  // the first's value on the right
        // The third operand: the X op's c[y] (its second), the Y op's c[x] (its first).
        const bool third_float = y_side ? float_at(s % 4, 1) : float_at(s % 4, 0);
        const int types = (float_at(f % 4, 1) ? 4 : 0) + (float_at(f % 4, 0) ? 2 : 0) + (third_float ? 1 : 0);
        const int pair = ((op1 * 4 + op2) * 2 + (y_side ? 1 : 0)) * 8 + types;
        first.op = static_cast<ROp>(static_cast<int>(ROp::PairAddAddXIII) + pair);
        first.dst = second.dst;
        first.z = y_side ? second.x : second.y;
        gone[i + 1] = 1;
        any = true;
        ++i;
    }
    if (any) drop_instructions(code.instrs, gone);
}

}  // namespace oprec
