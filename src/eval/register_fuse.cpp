// fuse_pairs: fewer instructions for a typed run. A dispatch costs about as
// much as the arithmetic it leads to (bench_dispatch), so two typed
// operations where the second reads the first's value as the value before
// (`s * b * h`, `e * (a + b)`), or its cell where nothing else reads it,
// become one, where nothing else reads the cell the first wrote.
#include <cstdint>
#include <vector>

#include "eval/register_edit.h"
#include "eval/register_fuse.h"

namespace oprec {

namespace {
bool float_at(unsigned types, int bit) { return (types >> bit) & 1; }
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
        const ROpInfo& f = rop_info(first.op);
        const ROpInfo& s = rop_info(second.op);
        // The first a typed Add..Div; the second a typed AddX..DivY reading
        // its value as the value before, or a typed Add..Div reading its cell
        // on one side (the cell's one read).
        const bool plain = s.kind == RKind::Typed && plain_binary(s.base);
        const bool x_op = s.kind == RKind::Typed && s.reads == (kReadsLast | kReadsY);
        const bool y_op = s.kind == RKind::Typed && s.reads == (kReadsX | kReadsLast);
        if (f.kind != RKind::Typed || !plain_binary(f.base) || !(plain || x_op || y_op) || landings[i + 1] != 0)
            continue;
        if (plain ? reads[first.dst] != 1 || (second.x == first.dst) == (second.y == first.dst)
                  : reads[first.dst] != 0)
            continue;
        const bool y_side = plain ? second.y == first.dst : y_op;  // the first's value on the right
        // The third operand: the X op's c[y] (its second), the Y op's c[x] (its first).
        const bool third_float = y_side ? float_at(s.types, 1) : float_at(s.types, 0);
        const unsigned types = (float_at(f.types, 1) ? 4u : 0u) + (float_at(f.types, 0) ? 2u : 0u) + (third_float ? 1u : 0u);
        first.op = pair_form(f.base, s.base, y_side, types);
        first.dst = second.dst;
        first.z = y_side ? second.x : second.y;
        gone[i + 1] = 1;
        any = true;
        ++i;
    }
    if (any) drop_instructions(code.instrs, gone);
}

}  // namespace oprec
