// Python's arithmetic on Values. Each operator tries float-float first (the
// common case in the records), then mixed (the int converts to double, as
// Python does), then exact int64 arithmetic with overflow checks.
#include "value/arith.h"

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <string>

namespace oprec::py {
namespace {

using std::int64_t;
using std::uint64_t;

[[noreturn, gnu::cold]] void int_overflow(int64_t a, const char* op, int64_t b) {
    throw EvalError(ErrorKind::Overflow, "integer overflow: " + std::to_string(a) + " " + op +
                                             " " + std::to_string(b));
}

[[noreturn, gnu::cold]] void zero_division(const char* message) {
    throw EvalError(ErrorKind::DivisionByZero, message);
}

bool any_float(Value a, Value b) { return a.is_float() || b.is_float(); }

uint64_t magnitude(int64_t x) { return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x); }

// CPython's long_true_divide: the exact quotient, correctly rounded.
double int_true_divide(int64_t x, int64_t y) {
    const uint64_t ux = magnitude(x), uy = magnitude(y);
    constexpr uint64_t exact_limit = uint64_t(1) << 53;
    if (ux <= exact_limit && uy <= exact_limit) return double(x) / double(y);  // both exact
    // Scale so the integer quotient has >= 55 bits: its low bit then lies
    // below the rounding bit and can carry the sticky (inexact) flag.
    int shift = 55 - (std::bit_width(ux) - std::bit_width(uy));
    if (shift < 0) shift = 0;
    __extension__ using u128 = unsigned __int128;
    const u128 n = u128(ux) << shift;  // < 2^(55 + 64)
    const uint64_t q = uint64_t(n / uy);  // < 2^56, or <= 2^63 when shift == 0
    const bool sticky = n % uy != 0;
    // uint64 -> double rounds half-even; ldexp is exact (no under/overflow here).
    const double r = std::ldexp(double(q | uint64_t(sticky)), -shift);
    return (x < 0) != (y < 0) ? -r : r;
}

// CPython's float_rem.
double float_mod(double vx, double wx) {
    double m = std::fmod(vx, wx);
    if (m != 0.0) {
        if ((wx < 0) != (m < 0)) m += wx;  // the divisor's sign
    } else {
        m = std::copysign(0.0, wx);
    }
    return m;
}

// CPython's _float_div_mod, the floor quotient part.
double float_floordiv(double vx, double wx) {
    const double m = std::fmod(vx, wx);
    double div = (vx - m) / wx;
    if (m != 0.0 && (wx < 0) != (m < 0)) div -= 1.0;
    if (div != 0.0) {
        double floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;  // snap to the nearest integer
        return floordiv;
    }
    return std::copysign(0.0, vx / wx);  // zero with the true quotient's sign
}

bool is_odd_integer(double x) { return std::fmod(std::fabs(x), 2.0) == 1.0; }

// CPython's float_pow, special cases first so libm pow only sees finite,
// positive bases other than 1 and finite nonzero exponents.
double float_pow(double iv, double iw) {
    if (iw == 0.0) return 1.0;
    if (std::isnan(iv)) return iv;
    if (std::isnan(iw)) return iv == 1.0 ? 1.0 : iw;
    if (std::isinf(iw)) {
        iv = std::fabs(iv);
        if (iv == 1.0) return 1.0;
        if ((iw > 0.0) == (iv > 1.0)) return std::fabs(iw);
        return 0.0;
    }
    if (std::isinf(iv)) {
        const bool odd = is_odd_integer(iw);
        if (iw > 0.0) return odd ? iv : std::fabs(iv);
        return odd ? std::copysign(0.0, iv) : 0.0;
    }
    if (iv == 0.0) {
        if (iw < 0.0) zero_division("0.0 cannot be raised to a negative power");
        return is_odd_integer(iw) ? iv : 0.0;
    }
    bool negate = false;
    if (iv < 0.0) {
        if (iw != std::floor(iw)) {
            // Python computes a complex number (whose modulus is |iv|**iw),
            // raising OverflowError when that modulus overflows.
            if (std::isinf(std::pow(-iv, iw)))
                throw EvalError(ErrorKind::Overflow, "complex exponentiation");
            throw EvalError(ErrorKind::TypeError,
                            "a negative number to a fractional power has a complex result");
        }
        iv = -iv;
        negate = is_odd_integer(iw);
    }
    if (iv == 1.0) return negate ? -1.0 : 1.0;
    // As CPython's _Py_ADJUST_ERANGE1: an infinite result is an overflow,
    // an underflow to zero is not an error.
    errno = 0;
    double ix = std::pow(iv, iw);
    int err = errno;
    if (err == 0) {
        if (std::isinf(ix)) err = ERANGE;
    } else if (err == ERANGE && ix == 0.0) {
        err = 0;
    }
    if (err != 0) {
        if (err == ERANGE)
            throw EvalError(ErrorKind::Overflow, "(34, 'Numerical result out of range')");
        throw EvalError(ErrorKind::TypeError, "math domain error");  // libm bug; not expected
    }
    return negate ? -ix : ix;
}

// Exact non-negative integer power, by squaring.
int64_t int_pow(int64_t base, int64_t exp) {
    if (base == 0) return exp == 0 ? 1 : 0;
    if (base == 1) return 1;
    if (base == -1) return (exp & 1) ? -1 : 1;
    int64_t result = 1, b = base;
    for (uint64_t e = static_cast<uint64_t>(exp);;) {
        if ((e & 1) && __builtin_mul_overflow(result, b, &result)) int_overflow(base, "**", exp);
        e >>= 1;
        if (e == 0) return result;
        // |base| >= 2: if this square overflows, so does the final result.
        if (__builtin_mul_overflow(b, b, &b)) int_overflow(base, "**", exp);
    }
}

// Three-way result of comparing, or Unordered when a NaN is involved.
constexpr int Unordered = 2;

int cmp3(int64_t x, int64_t y) { return (x > y) - (x < y); }

// The exact order of an int and a double (CPython's float_richcompare).
int cmp_int_double(int64_t i, double f) {
    if (std::isnan(f)) return Unordered;
    if (magnitude(i) <= (uint64_t(1) << 53)) {  // i converts exactly
        const double d = double(i);
        return (d > f) - (d < f);
    }
    if (f >= 0x1p63) return -1;  // also +inf
    if (f < -0x1p63) return 1;   // also -inf
    const double t = std::trunc(f);
    const int64_t ti = static_cast<int64_t>(t);  // in range, exact
    if (i != ti) return cmp3(i, ti);
    const double frac = f - t;  // exact
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

bool holds(CmpOp op, int c) {
    if (c == Unordered) return op == CmpOp::Ne;
    switch (op) {
    case CmpOp::Lt: return c < 0;
    case CmpOp::Le: return c <= 0;
    case CmpOp::Gt: return c > 0;
    case CmpOp::Ge: return c >= 0;
    case CmpOp::Eq: return c == 0;
    case CmpOp::Ne: return c != 0;
    }
    return false;
}

}  // namespace

Value add(Value a, Value b) {
    if (a.is_float() && b.is_float()) [[likely]] return Value::real(a.f + b.f);
    if (any_float(a, b)) return Value::real(a.as_double() + b.as_double());
    int64_t r;
    if (__builtin_add_overflow(a.as_int(), b.as_int(), &r)) int_overflow(a.as_int(), "+", b.as_int());
    return Value::integer(r);
}

Value sub(Value a, Value b) {
    if (a.is_float() && b.is_float()) [[likely]] return Value::real(a.f - b.f);
    if (any_float(a, b)) return Value::real(a.as_double() - b.as_double());
    int64_t r;
    if (__builtin_sub_overflow(a.as_int(), b.as_int(), &r)) int_overflow(a.as_int(), "-", b.as_int());
    return Value::integer(r);
}

Value mul(Value a, Value b) {
    if (a.is_float() && b.is_float()) [[likely]] return Value::real(a.f * b.f);
    if (any_float(a, b)) return Value::real(a.as_double() * b.as_double());
    int64_t r;
    if (__builtin_mul_overflow(a.as_int(), b.as_int(), &r)) int_overflow(a.as_int(), "*", b.as_int());
    return Value::integer(r);
}

Value truediv(Value a, Value b) {
    if (any_float(a, b)) [[likely]] {
        const double y = b.as_double();
        if (y == 0.0) zero_division("float division by zero");
        return Value::real(a.as_double() / y);
    }
    const int64_t y = b.as_int();
    if (y == 0) zero_division("division by zero");
    return Value::real(int_true_divide(a.as_int(), y));
}

Value floordiv(Value a, Value b) {
    if (any_float(a, b)) [[likely]] {
        const double y = b.as_double();
        if (y == 0.0) zero_division("float floor division by zero");
        return Value::real(float_floordiv(a.as_double(), y));
    }
    const int64_t x = a.as_int(), y = b.as_int();
    if (y == 0) zero_division("integer division or modulo by zero");
    if (y == -1) {  // C's INT64_MIN / -1 is undefined
        if (x == INT64_MIN) int_overflow(x, "//", y);
        return Value::integer(-x);
    }
    int64_t q = x / y;  // truncates toward zero; floor it
    if (x % y != 0 && (x < 0) != (y < 0)) --q;
    return Value::integer(q);
}

Value mod(Value a, Value b) {
    if (any_float(a, b)) [[likely]] {
        const double y = b.as_double();
        if (y == 0.0) zero_division("float modulo");
        return Value::real(float_mod(a.as_double(), y));
    }
    const int64_t x = a.as_int(), y = b.as_int();
    if (y == 0) zero_division("integer modulo by zero");
    if (y == -1) return Value::integer(0);  // C's INT64_MIN % -1 is undefined
    int64_t r = x % y;
    if (r != 0 && (r < 0) != (y < 0)) r += y;  // opposite signs: cannot overflow
    return Value::integer(r);
}

Value pow(Value a, Value b) {
    if (any_float(a, b)) [[likely]] return Value::real(float_pow(a.as_double(), b.as_double()));
    const int64_t x = a.as_int(), e = b.as_int();
    if (e < 0) return Value::real(float_pow(double(x), double(e)));  // as CPython's long_pow
    return Value::integer(int_pow(x, e));
}

Value neg(Value a) {
    if (a.is_float()) [[likely]] return Value::real(-a.f);
    const int64_t x = a.as_int();
    if (x == INT64_MIN) throw EvalError(ErrorKind::Overflow, "integer overflow: -(" + std::to_string(x) + ")");
    return Value::integer(-x);
}

Value pos(Value a) { return a.is_float() ? a : Value::integer(a.as_int()); }

Value logical_not(Value a) { return Value::boolean(!a.truthy()); }

bool compare(CmpOp op, Value a, Value b) {
    if (a.is_float() && b.is_float()) [[likely]] {
        switch (op) {
        case CmpOp::Lt: return a.f < b.f;
        case CmpOp::Le: return a.f <= b.f;
        case CmpOp::Gt: return a.f > b.f;
        case CmpOp::Ge: return a.f >= b.f;
        case CmpOp::Eq: return a.f == b.f;
        case CmpOp::Ne: return a.f != b.f;
        }
        return false;
    }
    if (!a.is_float() && !b.is_float()) return holds(op, cmp3(a.as_int(), b.as_int()));
    if (b.is_float()) return holds(op, cmp_int_double(a.as_int(), b.f));
    const int c = cmp_int_double(b.as_int(), a.f);  // reversed
    return holds(op, c == Unordered ? c : -c);
}

}  // namespace oprec::py
