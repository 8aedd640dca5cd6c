// What an instruction reads and where it jumps, by what its op does (a
// typed form does what its base does); dropping instructions.
#include "eval/register_edit.h"

#include <cstddef>
#include <iterator>

namespace oprec {

namespace {

// OPREC_TYPED_BASES in order, for the op a typed form is of.
constexpr ROp kTypedBases[] = {
#define OPREC_BASE_OP(OP) ROp::OP,
    OPREC_TYPED_BASES(OPREC_BASE_OP)
#undef OPREC_BASE_OP
};
constexpr int kTypedCount = static_cast<int>(std::size(kTypedBases)) * 4;
static_assert(kFirstTyped + kTypedCount == static_cast<int>(ROp::MulMulXIII));
static_assert(static_cast<int>(ROp::DivDivXFFF) + 1 == static_cast<int>(ROp::PairAddAddXIII));

bool is_pair(ROp op) { return op >= ROp::PairAddAddXIII && op < ROp::Count_; }

// What a typed form does untyped (a pair: itself).
ROp base_of(ROp op) {
    const int k = static_cast<int>(op);
    if (k < kFirstTyped || is_pair(op)) return op;
    if (k < kFirstTyped + kTypedCount) return kTypedBases[(k - kFirstTyped) / 4];
    return static_cast<ROp>(static_cast<int>(ROp::MulMulX) + (k - static_cast<int>(ROp::MulMulXIII)) / 8);
}

}  // namespace

// fields_read knows what each of these ops reads: an op added needs its line there.
static_assert(static_cast<int>(ROp::Return) == 48, "a new op: say in fields_read which cells it reads");

unsigned fields_read(const RInstr& in) {
    const ROp op = base_of(in.op);
    if (is_pair(op)) return kReadsX | kReadsY | kReadsZ;
    switch (op) {
    case ROp::Move: case ROp::Neg: case ROp::Pos: case ROp::Not:
    case ROp::AddY: case ROp::SubY: case ROp::MulY: case ROp::DivY:
    case ROp::JumpIfFalse: case ROp::JumpIfTrue:
        return kReadsX;
    case ROp::AddX: case ROp::SubX: case ROp::MulX: case ROp::DivX:
    case ROp::Held: case ROp::Store:
        return kReadsY;
    case ROp::Add: case ROp::Sub: case ROp::Mul: case ROp::Div: case ROp::FloorDiv: case ROp::Mod: case ROp::Pow:
    case ROp::Cmp: case ROp::Max2: case ROp::Min2:
    case ROp::MulMulX: case ROp::MulDivX: case ROp::DivMulX: case ROp::DivDivX:
    case ROp::JumpUnlessCmp: case ROp::FirstMulIf: case ROp::HeldCmp: case ROp::MulStore: case ROp::DivStore:
        return kReadsX | kReadsY;
    case ROp::Select:
        return kReadsX | kReadsY | kReadsZ;
    case ROp::SumAdd: case ROp::SumSub: case ROp::SumMul: case ROp::SumDiv: case ROp::SumMulIf:
        return kReadsDst | kReadsX | kReadsY;
    default:  // jumps on a record, a held flag or a memo bit; KeptZero (writes c[y]); memo bits; the end
        return 0;
    }
}

int cells_read(const RInstr& in, std::array<std::uint16_t, 3>& out) {
    const unsigned fields = fields_read(in);
    int n = 0;
    if (fields & kReadsDst) out[static_cast<std::size_t>(n++)] = in.dst;
    if (fields & kReadsX) out[static_cast<std::size_t>(n++)] = in.x;
    if (fields & kReadsY) out[static_cast<std::size_t>(n++)] = in.y;
    if (fields & kReadsZ) out[static_cast<std::size_t>(n++)] = in.z;
    return n;
}

std::vector<std::uint32_t> read_counts(const RegisterCode& code, std::uint32_t cells) {
    std::vector<std::uint32_t> reads(cells, 0);
    for (const RInstr& in : code.instrs) {
        std::array<std::uint16_t, 3> read{};
        const int n = cells_read(in, read);
        for (int k = 0; k < n; ++k) ++reads[read[static_cast<std::size_t>(k)]];
    }
    return reads;
}

std::vector<std::uint32_t> landing_counts(const std::vector<RInstr>& code) {
    std::vector<std::uint32_t> landings(code.size() + 1, 0);
    for (const RInstr& in : code)
        if (jumps(in.op)) ++landings[in.dst];
    return landings;
}

void drop_instructions(std::vector<RInstr>& code, const std::vector<std::uint8_t>& gone) {
    // Where each instruction goes: after the ones kept before it. A jump to
    // a dropped one lands on the next kept.
    std::vector<std::uint16_t> to(code.size() + 1);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        to[i] = static_cast<std::uint16_t>(kept);
        if (!gone[i]) ++kept;
    }
    to[code.size()] = static_cast<std::uint16_t>(kept);
    std::size_t next = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (gone[i]) continue;
        RInstr in = code[i];
        if (jumps(in.op)) in.dst = to[in.dst];
        code[next++] = in;
    }
    code.resize(next);
}

}  // namespace oprec
