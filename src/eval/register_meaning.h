// What each register op computes, written once. The run (register_run.cpp)
// computes it on values with the fast arithmetic, pin_branches
// (register_pin.cpp) on values known ahead with the exact arithmetic, and
// specialise (register_types.cpp) on types: each passes its own domain, the
// meaning is the same.
//
// An op's operands are read in order (operand 0, 1, 2): the cells and the
// value before its `reads` names, the value before first (`last * x * y`),
// but a Y op's after c[x] (`x + last`); a sum's running total (c[dst]) is
// not one of them. A typed form's types (rop_info's `types`) are its
// operands' in that order, the first the highest bit.
//
// A domain D gives:
//   V                          what a cell holds (a Value, a known Value, a type)
//   arith<ROp base>(a, b)      Add..Pow of two Vs
//   neg, pos, logical_not(a)   -a, +a, not a (a V)
//   compare(cmp, a, b)         a cmp b as a V (a bool)
//   better(cmp, first, second) max (Gt) or min (Lt) of two: Python's, the first of equal ones
//   select(c, t, f)            t if c is true else f
//   copy(a)                    a, as a cell's value
//   zero()                     int 0 (a sum's start)
//   unknown()                  what a control op computes (nothing)
// and, for the tests: truth(a) and test(cmp, a, b), each a bool. The
// operands are passed one by one, not in a struct: in the run's handlers
// GCC kept such a struct in memory (stores a handler).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "eval/register_code.h"
#include "value/arith.h"

namespace oprec {

// Which field each operand is in, in order: kReadsLast, kReadsX, ...
struct OperandFields {
    unsigned field[3] = {0, 0, 0};
    int count = 0;
};
constexpr OperandFields operand_fields(ROp op) {
    const unsigned reads = rop_info(op).reads;
    OperandFields out;
    if (reads == (kReadsX | kReadsLast)) {  // a Y op: c[x] op the value before
        out.field[0] = kReadsX, out.field[1] = kReadsLast, out.count = 2;
        return out;
    }
    for (const unsigned f : {kReadsLast, kReadsX, kReadsY, kReadsZ})
        if (reads & f) out.field[out.count++] = f;
    return out;
}
// Whether operand `k` of a typed form or pair is a float (else an int).
constexpr bool operand_is_float(ROp op, int k) {
    const int n = operand_fields(op).count;
    return (rop_info(op).types >> (n - 1 - k)) & 1;
}
// Whether the op's operands are of known types (a typed form or a pair).
constexpr bool operands_typed(ROp op) { return rop_info(op).kind != RKind::Untyped; }

// The value an op computes: what a value-writing op writes (and a sum's
// step adds in, a store stores, SumMulIf and FirstMulIf write where the
// entry is kept), from its operands a, b, c (operand 0, 1, 2; what an op
// does not read may be anything), a sum's running total and its
// comparison. Control ops compute nothing here (the domain's unknown()).
template <ROp op, class D, class A, class B, class C, class S>
[[gnu::always_inline]] inline auto computed([[maybe_unused]] const D& d, [[maybe_unused]] A&& a,
                                            [[maybe_unused]] B&& b, [[maybe_unused]] C&& c,
                                            [[maybe_unused]] S&& total, [[maybe_unused]] py::CmpOp cmp) {
    constexpr ROpInfo i = rop_info(op);
    constexpr ROp base = i.base;
    if constexpr (i.kind == RKind::Pair) {
        if constexpr (i.pair_y)
            return d.template arith<i.does>(c, d.template arith<i.first>(a, b));
        else
            return d.template arith<i.does>(d.template arith<i.first>(a, b), c);
    } else if constexpr (base == ROp::Move || base == ROp::Store) {
        return d.copy(a);
    } else if constexpr (base == ROp::Neg) {
        return d.neg(a);
    } else if constexpr (base == ROp::Pos) {
        return d.pos(a);
    } else if constexpr (base == ROp::Not) {
        return d.logical_not(a);
    } else if constexpr (base == ROp::Cmp) {
        return d.compare(cmp, a, b);
    } else if constexpr (base == ROp::Max2) {
        return d.better(py::CmpOp::Gt, a, b);
    } else if constexpr (base == ROp::Min2) {
        return d.better(py::CmpOp::Lt, a, b);
    } else if constexpr (base == ROp::Select) {
        return d.select(a, b, c);
    } else if constexpr (i.first != ROp::Count_) {  // a chain: (last op1 x) op2 y
        return d.template arith<i.does>(d.template arith<i.first>(a, b), c);
    } else if constexpr (base == ROp::FirstMulIf) {  // the sum's start, 0 + the entry
        return d.template arith<ROp::Add>(d.zero(), d.template arith<i.does>(a, b));
    } else if constexpr ((i.reads & kReadsDst) != 0) {  // a sum's step: total + the entry
        return d.template arith<ROp::Add>(total, d.template arith<i.does>(a, b));
    } else if constexpr (i.does != ROp::Count_) {
        return d.template arith<i.does>(a, b);
    } else {
        return d.unknown();
    }
}

// A test's result: a held flag's value (Held, HeldCmp), or whether a
// conditional jump jumps (JumpIfFalse, JumpIfTrue, JumpUnlessCmp); false
// for any other op.
template <ROp op, class D, class A, class B>
[[gnu::always_inline]] inline bool test_result([[maybe_unused]] const D& d, [[maybe_unused]] A&& a,
                                               [[maybe_unused]] B&& b, [[maybe_unused]] py::CmpOp cmp) {
    constexpr ROp base = rop_info(op).base;
    if constexpr (base == ROp::Held || base == ROp::JumpIfTrue) return d.truth(a);
    else if constexpr (base == ROp::JumpIfFalse) return !d.truth(a);
    else if constexpr (base == ROp::HeldCmp) return d.test(cmp, a, b);
    else if constexpr (base == ROp::JumpUnlessCmp) return !d.test(cmp, a, b);
    else return false;
}
// The ops test_result() is of.
constexpr bool is_test(ROp op) {
    const ROp base = rop_info(op).base;
    return base == ROp::Held || base == ROp::HeldCmp || base == ROp::JumpIfFalse || base == ROp::JumpIfTrue ||
           base == ROp::JumpUnlessCmp;
}

// f(std::integral_constant<ROp, op>) for an untyped op known at run time
// (the passes read untyped code only).
template <class F>
decltype(auto) visit_untyped(ROp op, F&& f) {
    switch (op) {
#define OPREC_VISIT(NAME, R, W, J, T, D) \
    case ROp::NAME: return std::forward<F>(f)(std::integral_constant<ROp, ROp::NAME>{});
        OPREC_ROPS(OPREC_VISIT)
#undef OPREC_VISIT
    default: return std::forward<F>(f)(std::integral_constant<ROp, ROp::Return>{});
    }
}

// Python's arithmetic on values, to the bit (the tree walk's): what the
// pins' domain computes where every operand is known.
struct ExactDomain {
    using V = Value;
    template <ROp base>
    static Value arith(Value a, Value b) {
        if constexpr (base == ROp::Add) return py::add(a, b);
        else if constexpr (base == ROp::Sub) return py::sub(a, b);
        else if constexpr (base == ROp::Mul) return py::mul(a, b);
        else if constexpr (base == ROp::Div) return py::truediv(a, b);
        else if constexpr (base == ROp::FloorDiv) return py::floordiv(a, b);
        else if constexpr (base == ROp::Mod) return py::mod(a, b);
        else return py::pow(a, b);
    }
    static Value neg(Value a) { return py::neg(a); }
    static Value pos(Value a) { return py::pos(a); }
    static Value logical_not(Value a) { return Value::boolean(!a.truthy()); }
    static Value compare(py::CmpOp cmp, Value a, Value b) { return Value::boolean(py::compare(cmp, a, b)); }
    static Value better(py::CmpOp cmp, Value first, Value second) { return py::compare(cmp, second, first) ? second : first; }
    static Value select(Value c, Value t, Value f) { return c.truthy() ? t : f; }
    static Value copy(Value a) { return a; }
    static Value zero() { return Value::integer(0); }
    static bool truth(Value a) { return a.truthy(); }
    static bool test(py::CmpOp cmp, Value a, Value b) { return py::compare(cmp, a, b); }
};

}  // namespace oprec
