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

struct Code {
    std::vector<Node> nodes;
    std::vector<Span> spans;  // parallel to nodes: where each came from, for errors
    std::vector<Value> consts;
    std::vector<NodeId> lists;
    std::vector<py::CmpOp> cmp_ops;
    std::vector<CompiledFn> fns;

    NodeId add(Node node, const Span& span) {
        nodes.push_back(node);
        spans.push_back(span);
        return static_cast<NodeId>(nodes.size() - 1);
    }
};

// The most parameters a fn may take: a call's arguments live in a fixed
// array on the C++ stack.
inline constexpr std::uint32_t kMaxFnParams = 16;

}  // namespace oprec
