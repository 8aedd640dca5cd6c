// The compiled form of expressions: one flat array of nodes per program,
// names resolved to indices, children by index. Evaluating it allocates
// nothing, looks up no string and makes no virtual call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "diag/source.h"
#include "value/arith.h"
#include "value/value.h"

namespace oprec {

using NodeId = std::uint32_t;
using NameId = std::uint32_t;

enum class Op : std::uint8_t {
    Const,     // consts[a]
    Load,      // the name names[a]
    Param,     // the fn parameter a
    Total,     // the slot's summed elements
    Neg, Pos, Not,                                 // a
    Add, Sub, Mul, Div, FloorDiv, Mod, Pow,        // a op b
    And, Or,                                       // lists[a .. a+n): Python's operand-returning and/or
    IfElse,                                        // a if b else c
    Compare,                                       // lists[a .. a+n) chained by cmp_ops[b .. b+n-1)
    Max, Min,                                      // lists[a .. a+n), n >= 2
    CallFn,                                        // fns[c](lists[a .. a+n))
    ArgCountError,                                 // max/min with fewer than 2 arguments: Python's TypeError
};

struct Node {
    Op op = Op::Const;
    std::uint16_t n = 0;
    std::uint32_t a = 0, b = 0, c = 0;
};

struct CompiledFn {
    std::string name;
    std::uint32_t params = 0;
    NodeId body = 0;
};

// What a straight-line instruction's operands name (OPREC_LOPS' args
// column), for its listing (dump_code): 0 none; C consts[a]; N the name a;
// P the fn parameter a; J the instruction a (a jump's target); F fns[a].
enum class LArgs : std::uint8_t { None, C, N, P, J, F };

// The straight-line ops, each declared once, M(name, args), in the order of
// enum class LOp (the interpreter's dispatch table follows it too). Only the
// operand kinds: fused forms (name op name, const op name, two operators in
// one) were measured to save 1-2% of a fit or an `eval --jsonl` run and
// are gone (docs/performance.md).
#define OPREC_LOPS(M)                                                                              \
    /* acc = operand; push acc; push the name a (b: its node) */                                  \
    M(Const, C) M(Load, N) M(Param, P) M(Total, 0) M(Push, 0) M(PushN, N)                          \
    /* acc = acc op the constant (C), the name (N), the parameter (P), total (T), or the value */  \
    /* popped (S): five kinds (kLOpKinds) of each of Add..Pow, in that order */                    \
    M(AddC, C) M(AddN, N) M(AddP, P) M(AddT, 0) M(AddS, 0)                                         \
    M(SubC, C) M(SubN, N) M(SubP, P) M(SubT, 0) M(SubS, 0)                                         \
    M(MulC, C) M(MulN, N) M(MulP, P) M(MulT, 0) M(MulS, 0)                                         \
    M(DivC, C) M(DivN, N) M(DivP, P) M(DivT, 0) M(DivS, 0)                                         \
    M(FloorDivC, C) M(FloorDivN, N) M(FloorDivP, P) M(FloorDivT, 0) M(FloorDivS, 0)                \
    M(ModC, C) M(ModN, N) M(ModP, P) M(ModT, 0) M(ModS, 0)                                         \
    M(PowC, C) M(PowN, N) M(PowP, P) M(PowT, 0) M(PowS, 0)                                         \
    M(Neg, 0) M(Pos, 0) M(Not, 0)                                                                  \
    /* to a; the conditional ones test acc and keep it */                                          \
    M(Jump, J) M(JumpIfFalse, J) M(JumpIfTrue, J)                                                  \
    M(CmpChain, J)   /* lhs = pop; if not (lhs cmp acc): acc = False, jump to a (acc stays the next lhs otherwise) */ \
    M(CmpLast, 0)    /* acc = (pop cmp acc) */                                                     \
    M(Max, 0) M(Min, 0) /* of the n-1 values pushed and acc */                                     \
    M(Call, F)       /* fns[a] of the n values pushed */                                           \
    M(Return, 0)

// The straight-line form of a whole expression (see interp.h): an
// accumulator machine. Each instruction leaves its result in the
// accumulator; a binary operator whose right operand is a constant, a name,
// a parameter or `total` takes it directly (AddC, AddN, ...), any other right
// operand is computed after the left one is pushed, then AddS pops it.
// Jumps keep Python's laziness. Same operations in the same order as the
// tree, so the same bits and the same errors, at a fraction of the cost.
enum class LOp : std::uint8_t {
#define OPREC_LOP_ENUM(NAME, ARGS) NAME,
    OPREC_LOPS(OPREC_LOP_ENUM)
#undef OPREC_LOP_ENUM
};

struct LOpInfo {
    const char* name;
    LArgs args;
};
namespace lop_detail {
inline constexpr LArgs A_0 = LArgs::None, A_C = LArgs::C, A_N = LArgs::N, A_P = LArgs::P, A_J = LArgs::J,
                       A_F = LArgs::F;
inline constexpr LOpInfo kInfo[] = {
#define OPREC_LOP_INFO(NAME, ARGS) {#NAME, A_##ARGS},
    OPREC_LOPS(OPREC_LOP_INFO)
#undef OPREC_LOP_INFO
};
}  // namespace lop_detail
static_assert(std::size(lop_detail::kInfo) == static_cast<std::size_t>(LOp::Return) + 1);
constexpr const LOpInfo& lop_info(LOp op) { return lop_detail::kInfo[static_cast<std::size_t>(op)]; }
constexpr const char* lop_name(LOp op) { return op <= LOp::Return ? lop_info(op).name : "?"; }
// Whether an instruction's a is an instruction to jump to.
constexpr bool lop_jumps(LOp op) {
    return lop_info(op).args == LArgs::J;
}

// The operand kinds of a binary LOp, in the order above (the compiler
// computes AddC + kLOpKinds * op + kind: the table keeps that order).
inline constexpr int kLOpKinds = 5;
static_assert(static_cast<int>(LOp::PowS) - static_cast<int>(LOp::AddC) == 7 * kLOpKinds - 1 &&
                  static_cast<int>(LOp::MulP) - static_cast<int>(LOp::AddC) == 2 * kLOpKinds + 2,
              "the compiler picks these ops by their place in the run of ops: keep it together, in order");

struct Instr {
    LOp op = LOp::Return;
    py::CmpOp cmp = py::CmpOp::Eq;
    std::uint16_t n = 0;        // a count (Max, Min, Call)
    std::uint32_t a = 0;        // a const, name or param index; a jump target; an fn
    NodeId node = 0;            // the node it computes, whose span an error gets (kNoNode: none)
    std::uint32_t b = 0;        // the operand's own node: a name's is where its error is placed
};

inline constexpr std::uint32_t kNoEntry = 0xffffffffu;
inline constexpr NodeId kNoNode = 0xffffffffu;

struct Code {
    std::vector<Node> nodes;
    std::vector<Span> spans;  // parallel to nodes: where each came from, for errors
    std::vector<Value> consts;
    std::vector<NodeId> lists;
    std::vector<py::CmpOp> cmp_ops;
    std::vector<CompiledFn> fns;

    // The straight-line form of each compiled root (Compiler::compile): by
    // NodeId, where its instructions start (kNoEntry: none, the tree is
    // walked) and the most values it pushes, fns it calls included.
    std::vector<Instr> instrs;
    std::vector<std::uint32_t> entry;
    std::vector<std::uint32_t> entry_depth;

    std::uint32_t entry_of(NodeId root) const { return root < entry.size() ? entry[root] : kNoEntry; }

    NodeId add(Node node, const Span& span) {
        nodes.push_back(node);
        spans.push_back(span);
        return static_cast<NodeId>(nodes.size() - 1);
    }
};

// The most parameters a fn may take: a call's arguments live in a fixed
// array on the C++ stack.
inline constexpr std::uint32_t kMaxFnParams = 16;
// A fn with the fns it calls counted as inlined (check/checker.cpp) nests at
// most this deep, so evaluating it cannot exhaust the stack, and does at most
// this many operations per call, so evaluation stays linear in the records'
// size however often a fn calls another (docs/limits.md).
inline constexpr std::uint64_t kMaxFnDepth = 1000;
inline constexpr std::uint64_t kMaxFnWork = std::uint64_t{1} << 20;
// The most values straight-line code may push; deeper expressions walk the tree.
inline constexpr std::uint32_t kMaxLinearDepth = 128;

}  // namespace oprec
