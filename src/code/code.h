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
// P the fn parameter a; J the instruction a (a jump's target); F fns[a];
// NN the names a and b; CN consts[a] and the name b; CP consts[a] and the
// parameter b; NC the name a and consts[b]; CNN consts[n] and the names a
// and b.
enum class LArgs : std::uint8_t { None, C, N, P, J, F, NN, CN, CP, NC, CNN };

// The straight-line ops, each declared once, M(name, args), in the order of
// enum class LOp (the interpreter's dispatch table follows it too).
#define OPREC_LOPS(M)                                                                              \
    /* acc = operand; push acc */                                                                  \
    M(Const, C) M(Load, N) M(Param, P) M(Total, 0) M(Push, 0)                                      \
    /* acc = acc op the constant (C), the name (N), the parameter (P), total (T), or the value */  \
    /* popped (S): five kinds (kLOpKinds) of each of Add..Pow, in that order */                    \
    M(AddC, C) M(AddN, N) M(AddP, P) M(AddT, 0) M(AddS, 0)                                         \
    M(SubC, C) M(SubN, N) M(SubP, P) M(SubT, 0) M(SubS, 0)                                         \
    M(MulC, C) M(MulN, N) M(MulP, P) M(MulT, 0) M(MulS, 0)                                         \
    M(DivC, C) M(DivN, N) M(DivP, P) M(DivT, 0) M(DivS, 0)                                         \
    M(FloorDivC, C) M(FloorDivN, N) M(FloorDivP, P) M(FloorDivT, 0) M(FloorDivS, 0)                \
    M(ModC, C) M(ModN, N) M(ModP, P) M(ModT, 0) M(ModS, 0)                                         \
    M(PowC, C) M(PowN, N) M(PowP, P) M(PowT, 0) M(PowS, 0)                                         \
    /* acc = consts[a] op acc, where the left operand is a constant and the right one is not */    \
    /* simple: the constant cannot fail, so it is read after */                                    \
    M(AddR, C) M(SubR, C) M(MulR, C) M(DivR, C) M(FloorDivR, C) M(ModR, C) M(PowR, C)              \
    /* acc = the name a op the name b, the commonest pair (`s * b`): Load+MulN in one; their */    \
    /* nodes, for errors, are node's operands */                                                  \
    M(AddNN, NN) M(SubNN, NN) M(MulNN, NN) M(DivNN, NN) M(FloorDivNN, NN) M(ModNN, NN) M(PowNN, NN) \
    M(PushL, N)      /* push acc, then acc = the name a (b: its node): Push+Load */               \
    /* push acc, then AddNN..DivNN (`... * (n_attMM + n_attParamCast)`) */                         \
    M(PushAddNN, NN) M(PushSubNN, NN) M(PushMulNN, NN) M(PushDivNN, NN)                            \
    /* acc = consts[a] op the name b (`0.5 * h`; the name's node: node's rhs) */                   \
    M(AddCN, CN) M(SubCN, CN) M(MulCN, CN) M(DivCN, CN) M(FloorDivCN, CN) M(ModCN, CN) M(PowCN, CN) \
    /* acc = (acc op1 the name a) op2 the name b, or op2 total (`... * cp / kv_shards`, */         \
    /* `* bytes_compute * total`): node is op2's, its lhs op1's */                                 \
    M(MulNMulN, NN) M(MulNDivN, NN) M(DivNMulN, NN) M(DivNDivN, NN)                                \
    M(MulNMulT, N) M(MulNDivT, N) M(DivNMulT, N) M(DivNDivT, N)                                    \
    /* acc = consts[a] op the fn parameter b (`0.5 * width`) */                                    \
    M(AddCP, CP) M(SubCP, CP) M(MulCP, CP) M(DivCP, CP) M(FloorDivCP, CP) M(ModCP, CP) M(PowCP, CP) \
    M(CmpNC, NC)     /* acc = (the name a cmp consts[b]) (the name's node: node's first operand) */ \
    /* acc = acc outer (the name a inner the name b), `/ (t * cp)`, for outer Add, Sub, Mul, */    \
    /* Div and inner Add, Mul, in this order: node is the outer operator, its rhs the inner one */ \
    M(AddAddNN, NN) M(AddMulNN, NN) M(SubAddNN, NN) M(SubMulNN, NN)                                \
    M(MulAddNN, NN) M(MulMulNN, NN) M(DivAddNN, NN) M(DivMulNN, NN)                                \
    /* the same with consts[n] for acc, `0.25 * (n_attMM + n_attParamCast)` */                     \
    M(AddAddCNN, CNN) M(AddMulCNN, CNN) M(SubAddCNN, CNN) M(SubMulCNN, CNN)                        \
    M(MulAddCNN, CNN) M(MulMulCNN, CNN) M(DivAddCNN, CNN) M(DivMulCNN, CNN)                        \
    M(PushN, N)      /* push the name a (b: its node) */                                           \
    M(CmpC, C)       /* acc = (acc cmp consts[a]) */                                               \
    M(CmpN, N)       /* acc = (acc cmp the name a) (b: its node) */                                \
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
                       A_F = LArgs::F, A_NN = LArgs::NN, A_CN = LArgs::CN, A_CP = LArgs::CP, A_NC = LArgs::NC,
                       A_CNN = LArgs::CNN;
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
              static_cast<int>(LOp::MulP) - static_cast<int>(LOp::AddC) == 2 * kLOpKinds + 2);
static_assert(static_cast<int>(LOp::PowR) - static_cast<int>(LOp::AddR) == 6 &&
              static_cast<int>(LOp::PowNN) - static_cast<int>(LOp::AddNN) == 6 &&
              static_cast<int>(LOp::PushDivNN) - static_cast<int>(LOp::PushAddNN) == 3 &&
              static_cast<int>(LOp::PowCN) - static_cast<int>(LOp::AddCN) == 6 &&
              static_cast<int>(LOp::PowCP) - static_cast<int>(LOp::AddCP) == 6 &&
              static_cast<int>(LOp::DivNDivT) - static_cast<int>(LOp::MulNMulN) == 7 &&
              static_cast<int>(LOp::DivMulNN) - static_cast<int>(LOp::AddAddNN) == 7 &&
              static_cast<int>(LOp::DivMulCNN) - static_cast<int>(LOp::AddAddCNN) == 7,
              "the compiler picks these ops by their place in a run of ops: keep each run together, in order");

struct Instr {
    LOp op = LOp::Return;
    py::CmpOp cmp = py::CmpOp::Eq;
    std::uint16_t n = 0;        // a count; a CNN op's const
    std::uint32_t a = 0;        // a const, name or param index; a jump target; an fn
    NodeId node = 0;            // the node it computes, whose span an error gets (kNoNode: none)
    std::uint32_t b = 0;        // a fused operand's own node (a name that raises)
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
