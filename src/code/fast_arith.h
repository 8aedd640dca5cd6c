// Python's arithmetic inline for the cases pricing meets all the time
// (float with float or int, int with int when nothing overflows), and
// py:: for every other case (errors, int true division of large values,
// overflow, bools), so every result is py::'s to the bit. The interpreter and
// the hand-written baseline both use these, so comparing them measures the
// interpretation alone. Each is inlined by force, in both alike: in the
// interpreter's one large function GCC otherwise leaves some of them calls
// (a tenth of a layer's pricing in a profile).
#pragma once

#include <cstdint>

#include "value/arith.h"
#include "value/value.h"

namespace oprec::fast {

// The slow path: py::'s arithmetic, called as it is. The interpreter gives
// its own (interp.h), which calls it out of line so that an error unwinds
// no handler in the interpreter's loop.
struct Exact {
    Value operator()(Value (*op)(Value, Value), Value a, Value b) const { return op(a, b); }
};

// Int or Float (not Bool, not a name with no value): one compare.
[[gnu::always_inline]] inline bool numeric(Value v) { return static_cast<std::uint64_t>(v.type) - 1 < 2; }
// An Int or Float as a double, without a branch where the compiler can.
[[gnu::always_inline]] inline double to_double(Value v) {
    const double as_int = static_cast<double>(v.i);
    return v.type == ValueType::Float ? v.f : as_int;
}

template <class Slow = Exact>
[[gnu::always_inline]] inline Value add(Value a, Value b, const Slow& slow = {}) {
    if (a.type == ValueType::Float && b.type == ValueType::Float) [[likely]] return Value::real(a.f + b.f);
    if (a.type == ValueType::Int && b.type == ValueType::Int) {
        std::int64_t r;
        if (!__builtin_add_overflow(a.i, b.i, &r)) [[likely]] return Value::integer(r);
    } else if (a.type == ValueType::Float && b.type == ValueType::Int) {
        return Value::real(a.f + static_cast<double>(b.i));
    } else if (a.type == ValueType::Int && b.type == ValueType::Float) {
        return Value::real(static_cast<double>(a.i) + b.f);
    }
    return slow(&py::add, a, b);
}

template <class Slow = Exact>
[[gnu::always_inline]] inline Value sub(Value a, Value b, const Slow& slow = {}) {
    if (a.type == ValueType::Float && b.type == ValueType::Float) [[likely]] return Value::real(a.f - b.f);
    if (a.type == ValueType::Int && b.type == ValueType::Int) {
        std::int64_t r;
        if (!__builtin_sub_overflow(a.i, b.i, &r)) [[likely]] return Value::integer(r);
    } else if (a.type == ValueType::Float && b.type == ValueType::Int) {
        return Value::real(a.f - static_cast<double>(b.i));
    } else if (a.type == ValueType::Int && b.type == ValueType::Float) {
        return Value::real(static_cast<double>(a.i) - b.f);
    }
    return slow(&py::sub, a, b);
}

template <class Slow = Exact>
[[gnu::always_inline]] inline Value mul(Value a, Value b, const Slow& slow = {}) {
    if (a.type == ValueType::Float && b.type == ValueType::Float) [[likely]] return Value::real(a.f * b.f);
    if (a.type == ValueType::Int && b.type == ValueType::Int) {
        std::int64_t r;
        if (!__builtin_mul_overflow(a.i, b.i, &r)) [[likely]] return Value::integer(r);
    } else if (a.type == ValueType::Float && b.type == ValueType::Int) {
        return Value::real(a.f * static_cast<double>(b.i));
    } else if (a.type == ValueType::Int && b.type == ValueType::Float) {
        return Value::real(static_cast<double>(a.i) * b.f);
    }
    return slow(&py::mul, a, b);
}

// Both ints within 2^53 convert exactly, so one division rounds correctly
// (py::truediv's own first case); a zero divisor goes to py:: to raise, as
// does anything not an int or a float (a bool; a name with no value, which
// as_double would read as 0).
template <class Slow = Exact>
[[gnu::always_inline]] inline Value truediv(Value a, Value b, const Slow& slow = {}) {
    constexpr std::int64_t exact = std::int64_t(1) << 53;
    if (numeric(a) && numeric(b)) [[likely]] {
        if (a.type == ValueType::Int && b.type == ValueType::Int) {
            if (b.i != 0 && a.i <= exact && a.i >= -exact && b.i <= exact && b.i >= -exact)
                return Value::real(static_cast<double>(a.i) / static_cast<double>(b.i));
        } else {
            const double y = to_double(b);
            if (y != 0.0) [[likely]] return Value::real(to_double(a) / y);
        }
    }
    return slow(&py::truediv, a, b);
}

[[gnu::always_inline]] inline bool compare(py::CmpOp op, Value a, Value b) {
    if (a.type == b.type && a.type != ValueType::Bool) {
        if (a.type == ValueType::Float) {
            switch (op) {
            case py::CmpOp::Lt: return a.f < b.f;
            case py::CmpOp::Le: return a.f <= b.f;
            case py::CmpOp::Gt: return a.f > b.f;
            case py::CmpOp::Ge: return a.f >= b.f;
            case py::CmpOp::Eq: return a.f == b.f;
            case py::CmpOp::Ne: return a.f != b.f;
            }
        } else {
            switch (op) {
            case py::CmpOp::Lt: return a.i < b.i;
            case py::CmpOp::Le: return a.i <= b.i;
            case py::CmpOp::Gt: return a.i > b.i;
            case py::CmpOp::Ge: return a.i >= b.i;
            case py::CmpOp::Eq: return a.i == b.i;
            case py::CmpOp::Ne: return a.i != b.i;
            }
        }
    }
    return py::compare(op, a, b);
}

}  // namespace oprec::fast
