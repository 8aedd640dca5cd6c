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
//   arith<ROp base>(a, b)      Add..Pow of two operands
//   neg, pos, logical_not(a)   -a, +a, not a
//   compare(cmp, a, b)         a cmp b as a cell's value (a bool)
//   better(cmp, first, second) max (Gt) or min (Lt) of two: Python's, the first of equal ones
//   select(c, t, f)            t if c is true else f
//   copy(a)                    a, as a cell's value
//   zero()                     int 0 (a sum's start)
//   unknown()                  what a control op computes (nothing)
// and, where test_result is used with it, truth(a) and test(cmp, a, b),
// each a bool. The operands are passed one by one, not in a struct: in the
// run's handlers GCC kept such a struct in memory (a store in every
// handler).
#pragma once

#include <cstdint>
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
        static_assert(i.writes != RWrites::Dst && i.writes != RWrites::Sum && i.writes != RWrites::StoreX &&
                          i.writes != RWrites::StoreDst,
                      "an op that writes a value with no meaning here");
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
// (the passes read untyped code only; any other op is taken as Return).
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

// The cell a field of an instruction names (kReadsX: x, kReadsY: y,
// kReadsZ: z, kReadsDst: dst); 0xffff for the value before and for 0 (an
// operand the op does not read).
constexpr std::uint16_t kNoCell = 0xffff;
constexpr std::uint16_t field_cell(const RInstr& in, unsigned field) {
    switch (field) {
    case kReadsX: return in.x;
    case kReadsY: return in.y;
    case kReadsZ: return in.z;
    case kReadsDst: return in.dst;
    default: return kNoCell;
    }
}

// computed and test_result of an untyped instruction known at run time (the
// passes' walks): `at(field)` gives what each operand's field holds
// (kReadsLast: the value before; 0: an operand the op does not read).
template <class D, class At>
auto computed_at(const D& d, const RInstr& in, const At& at) {
    return visit_untyped(in.op, [&](auto op) {
        constexpr OperandFields f = operand_fields(decltype(op)::value);
        return computed<decltype(op)::value>(d, at(f.field[0]), at(f.field[1]), at(f.field[2]), at(kReadsDst), in.cmp);
    });
}
template <class D, class At>
bool test_result_at(const D& d, const RInstr& in, const At& at) {
    return visit_untyped(in.op, [&](auto op) {
        constexpr OperandFields f = operand_fields(decltype(op)::value);
        return test_result<decltype(op)::value>(d, at(f.field[0]), at(f.field[1]), in.cmp);
    });
}

}  // namespace oprec
