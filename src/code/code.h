// The compiled form of expressions: one flat array of nodes per program,
// names resolved to indices, children by index. Evaluating it allocates
// nothing, looks up no string and makes no virtual call.
#pragma once

#include <cstdint>
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

// The straight-line form of a whole expression (see interp.h): an
// accumulator machine. Each instruction leaves its result in the
// accumulator; a binary operator whose right operand is a constant, a name,
// a parameter or `total` takes it directly (AddC, AddN, ...), any other right
// operand is computed after the left one is pushed, then AddS pops it.
// Jumps keep Python's laziness. Same operations in the same order as the
// tree, so the same bits and the same errors, at a fraction of the cost.
enum class LOp : std::uint8_t {
    Const, Load, Param, Total,  // acc = operand
    Push,                       // push acc
    AddC, AddN, AddP, AddT, AddS,
    SubC, SubN, SubP, SubT, SubS,
    MulC, MulN, MulP, MulT, MulS,
    DivC, DivN, DivP, DivT, DivS,
    FloorDivC, FloorDivN, FloorDivP, FloorDivT, FloorDivS,
    ModC, ModN, ModP, ModT, ModS,
    PowC, PowN, PowP, PowT, PowS,
    // acc = consts[a] op acc, where the left operand is a constant and the
    // right one is not simple: the constant cannot fail, so it is read after.
    AddR, SubR, MulR, DivR, FloorDivR, ModR, PowR,
    // acc = the name a op the name b, the commonest pair (`s * b`): one
    // instruction for Load+MulN. Their nodes, for errors, are node's operands.
    AddNN, SubNN, MulNN, DivNN, FloorDivNN, ModNN, PowNN,
    PushL,      // push acc, then acc = the name a (b: its node): Push+Load
    // push acc, then AddNN, SubNN, MulNN, DivNN (`... * (n_attMM + n_attParamCast)`)
    PushAddNN, PushSubNN, PushMulNN, PushDivNN,
    // acc = consts[a] op the name b (`0.5 * h`; the name's node: node's rhs).
    AddCN, SubCN, MulCN, DivCN, FloorDivCN, ModCN, PowCN,
    // acc = (acc op1 the name a) op2 the name b, or op2 total (`... * cp / kv_shards`,
    // `* bytes_compute * total`): node is op2's, its lhs op1's.
    MulNMulN, MulNDivN, DivNMulN, DivNDivN, MulNMulT, MulNDivT, DivNMulT, DivNDivT,
    // acc = consts[a] op the fn parameter b (`0.5 * width`).
    AddCP, SubCP, MulCP, DivCP, FloorDivCP, ModCP, PowCP,
    CmpNC,      // acc = (the name a cmp consts[b]) (the name's node: node's first operand)
    // acc = acc outer (the name a inner the name b), `/ (t * cp)`, for outer
    // Add, Sub, Mul, Div and inner Add, Mul, in this order: node is the
    // outer operator, its rhs the inner one, whose operands are the names.
    AddAddNN, AddMulNN, SubAddNN, SubMulNN, MulAddNN, MulMulNN, DivAddNN, DivMulNN,
    // The same with consts[n] for acc, `0.25 * (n_attMM + n_attParamCast)`.
    AddAddCNN, AddMulCNN, SubAddCNN, SubMulCNN, MulAddCNN, MulMulCNN, DivAddCNN, DivMulCNN,
    PushN,      // push the name a (b: its node)
    CmpC,       // acc = (acc cmp consts[a])
    CmpN,       // acc = (acc cmp the name a) (b: its node)
    Neg, Pos, Not,
    Jump, JumpIfFalse, JumpIfTrue,  // to a; the conditional ones test acc and keep it
    CmpChain,   // lhs = pop; if not (lhs cmp acc): acc = False, jump to a (acc stays the next lhs otherwise)
    CmpLast,    // acc = (pop cmp acc)
    Max, Min,   // of the n-1 values pushed and acc
    Call,       // fns[a] of the n values pushed
    // A layer's run (layer_code.h) only: b is a record or slot.
    Kept,            // unless keep[b]: jump to a
    KeptFirst,       // unless keep[b]: total = int 0, jump to a (a slot's first entry)
    ZeroTotal,       // total = int 0
    FirstTotal,      // total = int 0 + acc (Python's sum, its first step)
    AddTotal,        // total = total + acc (Python's sum)
    // FirstTotal or AddTotal, then the next entry's Kept, which follows it
    // for a jump from a dropped entry to land on: kept, skip it.
    FirstTotalKept, AddTotalKept,
    Held,            // held[a] = bool(acc)
    HeldNC,          // held[n] = (the name a cmp consts[b]): a `when` that is CmpNC alone (n_exp == 1)
    SkipUnlessHeld,  // unless held[b]: jump to a
    StoreSlot,       // held[a] = true, slot_values[a] = acc (a slot with no `when` is written here alone)
    // A call of fns[b] inlined into a layer's run, where no fn's frame is
    // live: Enter makes the n values pushed the parameters (or, too deep for
    // the stack, walks the body's tree as Call does and jumps to a); the
    // body's code follows, then Leave pops them.
    Enter, Leave,
    Return,
};
// The operand kinds of a binary LOp, in the order above.
inline constexpr int kLOpKinds = 5;

struct Instr {
    LOp op = LOp::Return;
    py::CmpOp cmp = py::CmpOp::Eq;
    std::uint16_t n = 0;        // a count; a CNN op's const; a HeldNC's slot
    std::uint32_t a = 0;        // a const, name or param index; a jump target; an fn
    NodeId node = 0;            // the node it computes, whose span an error gets (kNoNode: none)
    std::uint32_t b = 0;        // a fused operand's own node (a name that raises); a record or slot
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
// The most values straight-line code may push; deeper expressions walk the tree.
inline constexpr std::uint32_t kMaxLinearDepth = 128;

}  // namespace oprec
