// Python's arithmetic and formatting, checked against values computed by
// CPython 3.11 (floats compared by their float.hex() text, so to the bit).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "value/arith.h"
#include "value/format.h"

using namespace oprec;

namespace {

constexpr double inf_ = std::numeric_limits<double>::infinity();
constexpr double nan_ = std::numeric_limits<double>::quiet_NaN();

Value B(bool v) { return Value::boolean(v); }
Value I(std::int64_t v) { return Value::integer(v); }
Value F(double v) { return Value::real(v); }

// "int 7", "float 0x1.8000000000000p+1", "bool True": type and exact value.
std::string describe(Value v) {
    return std::string(type_name(v.type)) + " " + (v.is_float() ? float_hex(v.f) : repr(v));
}

Value apply(const std::string& op, Value a, Value b) {
    using py::CmpOp;
    if (op == "+") return py::add(a, b);
    if (op == "-") return py::sub(a, b);
    if (op == "*") return py::mul(a, b);
    if (op == "/") return py::truediv(a, b);
    if (op == "//") return py::floordiv(a, b);
    if (op == "%") return py::mod(a, b);
    if (op == "**") return py::pow(a, b);
    const CmpOp c = op == "<" ? CmpOp::Lt : op == "<=" ? CmpOp::Le : op == ">" ? CmpOp::Gt
                  : op == ">=" ? CmpOp::Ge : op == "==" ? CmpOp::Eq : CmpOp::Ne;
    return Value::boolean(py::compare(c, a, b));
}

// The result's description, or "error <kind>: <message>".
std::string eval(const std::string& op, Value a, Value b) {
    try {
        return describe(apply(op, a, b));
    } catch (const EvalError& e) {
        return std::string("error ") + error_kind_name(e.kind()) + ": " + e.what();
    }
}

std::string eval1(Value (*f)(Value), Value a) {
    try {
        return describe(f(a));
    } catch (const EvalError& e) {
        return std::string("error ") + error_kind_name(e.kind()) + ": " + e.what();
    }
}

constexpr std::int64_t MAX = INT64_MAX, MIN = INT64_MIN;

}  // namespace

TEST_CASE("names of error kinds and types", "[value]") {
    CHECK(std::string(error_kind_name(ErrorKind::DivisionByZero)) == "division-by-zero");
    CHECK(std::string(error_kind_name(ErrorKind::UnboundName)) == "unbound-name");
    CHECK(std::string(error_kind_name(ErrorKind::MissingField)) == "missing-field");
    CHECK(std::string(error_kind_name(ErrorKind::Overflow)) == "overflow");
    CHECK(std::string(error_kind_name(ErrorKind::TypeError)) == "type-error");
    CHECK(std::string(error_kind_name(ErrorKind::UnknownSlot)) == "unknown-slot");
    CHECK(std::string(error_kind_name(ErrorKind::UnknownOp)) == "unknown-op");
    CHECK(std::string(type_name(ValueType::Bool)) == "bool");
    CHECK(std::string(type_name(ValueType::Int)) == "int");
    CHECK(std::string(type_name(ValueType::Float)) == "float");
}

TEST_CASE("bools are ints in arithmetic", "[arith]") {
    CHECK(eval("+", B(true), B(true)) == "int 2");
    CHECK(eval("-", B(false), B(true)) == "int -1");
    CHECK(eval("*", B(true), F(2.5)) == "float 0x1.4000000000000p+1");
    CHECK(eval("/", B(true), B(true)) == "float 0x1.0000000000000p+0");
    CHECK(eval("//", B(true), I(2)) == "int 0");
    CHECK(eval("**", B(true), B(false)) == "int 1");
    CHECK(eval("%", B(true), B(false)) == "error division-by-zero: integer modulo by zero");
    CHECK(eval1(py::neg, B(true)) == "int -1");
    CHECK(eval1(py::pos, B(true)) == "int 1");
    CHECK(eval1(py::neg, B(false)) == "int 0");
    CHECK(eval("==", B(true), I(1)) == "bool True");
    CHECK(eval("==", B(true), F(1.0)) == "bool True");
    CHECK(eval("<", B(false), B(true)) == "bool True");
}

TEST_CASE("int results outside int64 are overflow errors", "[arith]") {
    CHECK(eval("+", I(MAX), I(1)) == "error overflow: integer overflow: 9223372036854775807 + 1");
    CHECK(eval("-", I(MIN), I(1)) == "error overflow: integer overflow: -9223372036854775808 - 1");
    CHECK(eval("*", I(4611686018427387904), I(4)) ==
          "error overflow: integer overflow: 4611686018427387904 * 4");
    CHECK(eval("*", I(3037000500), I(3037000500)).rfind("error overflow", 0) == 0);
    CHECK(eval("*", I(3037000499), I(3037000499)) == "int 9223372030926249001");
    CHECK(eval("//", I(MIN), I(-1)) == "error overflow: integer overflow: -9223372036854775808 // -1");
    CHECK(eval("%", I(MIN), I(-1)) == "int 0");
    CHECK(eval("//", I(MAX), I(-1)) == "int -9223372036854775807");
    CHECK(eval("**", I(2), I(63)) == "error overflow: integer overflow: 2 ** 63");
    CHECK(eval("**", I(2), I(62)) == "int 4611686018427387904");
    CHECK(eval("**", I(-2), I(63)) == "int -9223372036854775808");
    CHECK(eval("**", I(-2), I(64)).rfind("error overflow", 0) == 0);
    CHECK(eval("**", I(3), I(40)) == "error overflow: integer overflow: 3 ** 40");
    CHECK(eval("**", I(3), I(39)) == "int 4052555153018976267");
    CHECK(eval("**", I(-1), I(MAX)) == "int -1");
    CHECK(eval("**", I(1), I(MAX)) == "int 1");
    CHECK(eval("**", I(0), I(MAX)) == "int 0");
    CHECK(eval1(py::neg, I(MIN)).rfind("error overflow: integer overflow", 0) == 0);
    CHECK(eval1(py::neg, I(MAX)) == "int -9223372036854775807");
    // A float operand never overflows: it goes to inf.
    CHECK(eval("*", F(1e308), I(10)) == "float inf");
}

TEST_CASE("int / int is correctly rounded from the exact integers", "[arith]") {
    CHECK(eval("/", I(9007199254740993), I(1)) == "float 0x1.0000000000000p+53");
    CHECK(eval("/", I(1099511627776LL * 1048576 + 1), I(3)) == "float 0x1.5555555555555p+58");
    CHECK(eval("/", I(1000000LL * 1000000 * 10080), I(8)) == "float 0x1.1e7da71ab0000p+50");
    CHECK(eval("/", I(7), I(2)) == "float 0x1.c000000000000p+1");
    CHECK(eval("/", I(0), I(-5)) == "float -0x0.0p+0");
    CHECK(eval("/", I(0), I(-(1LL << 60))) == "float -0x0.0p+0");
    CHECK(eval("/", I(MIN), I(-1)) == "float 0x1.0000000000000p+63");
    CHECK(eval("/", I(MAX), I(MIN)) == "float -0x1.0000000000000p+0");
    CHECK(eval("/", I(1), I(MAX)) == "float 0x1.0000000000000p-63");
    // Ties go to even: 2^53+1 and 2^53+3 are halfway between doubles.
    CHECK(eval("/", I(9007199254740995), I(1)) == "float 0x1.0000000000002p+53");
    CHECK(eval("/", I(18014398509481986), I(2)) == "float 0x1.0000000000000p+53");
    // Just above a tie: the sticky remainder rounds up.
    CHECK(eval("/", I(18014398509481987), I(2)) == "float 0x1.0000000000001p+53");
    CHECK(eval("/", I(1), I(0)) == "error division-by-zero: division by zero");
    CHECK(eval("/", F(1.0), I(0)) == "error division-by-zero: float division by zero");
    CHECK(eval("/", I(0), F(0.0)) == "error division-by-zero: float division by zero");
    CHECK(eval("/", I(1), F(-0.0)) == "error division-by-zero: float division by zero");
}

TEST_CASE("mixed int and float: the int converts to double", "[arith]") {
    CHECK(eval("+", I(9007199254740993), F(0.0)) == "float 0x1.0000000000000p+53");
    CHECK(eval("+", I(9007199254740995), F(0.0)) == "float 0x1.0000000000002p+53");
    CHECK(eval("+", F(1.5), I(5)) == "float 0x1.a000000000000p+2");
    CHECK(eval("-", I(7168), F(1e16)) == "float -0x1.1c37937e07200p+53");
    CHECK(eval("*", F(-0.0), I(3)) == "float -0x0.0p+0");
    CHECK(eval("*", F(0.5), B(false)) == "float 0x0.0p+0");
}

TEST_CASE("floor division and modulo", "[arith]") {
    CHECK(eval("//", I(-7), I(2)) == "int -4");
    CHECK(eval("%", I(-7), I(3)) == "int 2");
    CHECK(eval("%", I(7), I(-3)) == "int -2");
    CHECK(eval("//", I(7), I(-3)) == "int -3");
    CHECK(eval("//", I(-6), I(3)) == "int -2");
    CHECK(eval("%", I(MIN), I(MAX)) == "int 9223372036854775806");
    CHECK(eval("//", I(5), I(0)) == "error division-by-zero: integer division or modulo by zero");
    CHECK(eval("%", I(5), I(0)) == "error division-by-zero: integer modulo by zero");
    CHECK(eval("//", F(5.0), I(0)) == "error division-by-zero: float floor division by zero");
    CHECK(eval("%", I(5), F(0.0)) == "error division-by-zero: float modulo");
    CHECK(eval("//", F(7.5), I(-2)) == "float -0x1.0000000000000p+2");
    CHECK(eval("%", F(7.5), I(-2)) == "float -0x1.0000000000000p-1");
    CHECK(eval("//", F(1.0), F(0.1)) == "float 0x1.2000000000000p+3");
    CHECK(eval("%", F(1.0), F(0.1)) == "float 0x1.9999999999996p-4");
    CHECK(eval("//", F(-1e-300), F(1e300)) == "float -0x1.0000000000000p+0");
    CHECK(eval("%", F(-1e-300), F(1e300)) == "float 0x1.7e43c8800759cp+996");
    CHECK(eval("%", F(-0.0), I(3)) == "float 0x0.0p+0");
    CHECK(eval("%", I(5), F(-0.5)) == "float -0x0.0p+0");
    CHECK(eval("//", F(0.0), F(-1.0)) == "float -0x0.0p+0");
    CHECK(eval("%", F(1.0), F(inf_)) == "float 0x1.0000000000000p+0");
    CHECK(eval("%", F(-1.0), F(inf_)) == "float inf");
    CHECK(eval("//", F(1.0), F(inf_)) == "float 0x0.0p+0");
    CHECK(eval("//", F(-1.0), F(inf_)) == "float -0x1.0000000000000p+0");
    CHECK(eval("//", F(inf_), F(1.0)) == "float nan");
    CHECK(eval("%", F(inf_), F(1.0)) == "float nan");
}

TEST_CASE("power", "[arith]") {
    CHECK(eval("**", I(2), I(10)) == "int 1024");
    CHECK(eval("**", I(0), I(0)) == "int 1");
    CHECK(eval("**", I(-8), I(2)) == "int 64");
    CHECK(eval("**", I(2), I(-1)) == "float 0x1.0000000000000p-1");
    CHECK(eval("**", I(10), I(-400)) == "float 0x0.0p+0");
    CHECK(eval("**", I(0), I(-1)) == "error division-by-zero: 0.0 cannot be raised to a negative power");
    CHECK(eval("**", F(-0.0), F(-0.5)) ==
          "error division-by-zero: 0.0 cannot be raised to a negative power");
    CHECK(eval("**", F(nan_), I(0)) == "float 0x1.0000000000000p+0");
    CHECK(eval("**", F(nan_), F(-0.0)) == "float 0x1.0000000000000p+0");
    CHECK(eval("**", I(1), F(nan_)) == "float 0x1.0000000000000p+0");
    CHECK(eval("**", F(2.0), F(nan_)) == "float nan");
    CHECK(eval("**", F(nan_), I(1)) == "float nan");
    CHECK(eval("**", F(-1.0), F(inf_)) == "float 0x1.0000000000000p+0");
    CHECK(eval("**", F(-1.5), F(inf_)) == "float inf");
    CHECK(eval("**", F(0.5), F(-inf_)) == "float inf");
    CHECK(eval("**", F(0.5), F(inf_)) == "float 0x0.0p+0");
    CHECK(eval("**", F(inf_), I(-3)) == "float 0x0.0p+0");
    CHECK(eval("**", F(-inf_), I(-3)) == "float -0x0.0p+0");
    CHECK(eval("**", F(-inf_), I(3)) == "float -inf");
    CHECK(eval("**", F(-inf_), I(2)) == "float inf");
    CHECK(eval("**", F(-0.0), I(3)) == "float -0x0.0p+0");
    CHECK(eval("**", F(-0.0), F(3.5)) == "float 0x0.0p+0");
    CHECK(eval("**", F(-1.0), F(1e300)) == "float 0x1.0000000000000p+0");
    CHECK(eval("**", F(-10.0), I(-401)) == "float -0x0.0p+0");
    CHECK(eval("**", F(-2.0), I(3)) == "float -0x1.0000000000000p+3");
    CHECK(eval("**", F(10.0), I(400)) == "error overflow: (34, 'Numerical result out of range')");
    CHECK(eval("**", F(-2.0), F(1e300)) == "error overflow: (34, 'Numerical result out of range')");
    CHECK(eval("**", F(-4.0), F(0.5)) ==
          "error type-error: a negative number to a fractional power has a complex result");
    CHECK(eval("**", I(-8), F(1.0 / 3)) ==
          "error type-error: a negative number to a fractional power has a complex result");
    // Python's complex result overflows: OverflowError.
    CHECK(eval("**", F(-10.0), F(400.5)) == "error overflow: complex exponentiation");
    CHECK(eval("**", F(-10.0), F(-400.5)) ==
          "error type-error: a negative number to a fractional power has a complex result");
    CHECK(eval("**", I(2), F(0.5)) == "float 0x1.6a09e667f3bcdp+0");
    CHECK(eval("**", F(2.5), I(-2)) == "float 0x1.47ae147ae147bp-3");
    CHECK(eval("**", F(1e-3), I(2)) == "float 0x1.0c6f7a0b5ed8dp-20");
}

TEST_CASE("unary operators", "[arith]") {
    CHECK(eval1(py::neg, F(0.0)) == "float -0x0.0p+0");
    CHECK(eval1(py::neg, F(-0.0)) == "float 0x0.0p+0");
    CHECK(eval1(py::pos, F(-0.0)) == "float -0x0.0p+0");
    CHECK(eval1(py::neg, I(5)) == "int -5");
    CHECK(eval1(py::pos, I(-5)) == "int -5");
    CHECK(eval1(py::logical_not, I(0)) == "bool True");
    CHECK(eval1(py::logical_not, F(-0.0)) == "bool True");
    CHECK(eval1(py::logical_not, F(nan_)) == "bool False");
    CHECK(eval1(py::logical_not, B(true)) == "bool False");
    CHECK(eval1(py::logical_not, I(-3)) == "bool False");
}

TEST_CASE("comparisons are exact between ints and floats", "[arith]") {
    CHECK(eval(">", I(9007199254740993), F(9007199254740992.0)) == "bool True");
    CHECK(eval("==", I(9007199254740993), F(9007199254740992.0)) == "bool False");
    CHECK(eval("<", F(9007199254740992.0), I(9007199254740993)) == "bool True");
    CHECK(eval("==", I(MAX), F(0x1p63)) == "bool False");
    CHECK(eval("<", I(MAX), F(0x1p63)) == "bool True");
    CHECK(eval("==", I(MIN), F(-0x1p63)) == "bool True");
    CHECK(eval(">", I(MIN), F(-inf_)) == "bool True");
    CHECK(eval("<", I(MAX), F(inf_)) == "bool True");
    CHECK(eval("<", I(9007199254740993), F(9007199254740994.0)) == "bool True");
    CHECK(eval(">", I(9007199254740995), F(9007199254740994.0)) == "bool True");
    CHECK(eval("<=", I(9007199254740995), F(9007199254740996.0)) == "bool True");
    CHECK(eval(">=", I(-9007199254740993), F(-9007199254740992.0)) == "bool False");
    CHECK(eval("<", I(-9007199254740993), F(-9007199254740992.0)) == "bool True");
    CHECK(eval("==", I(1), F(1.0)) == "bool True");
    CHECK(eval("!=", F(-0.0), I(0)) == "bool False");
    for (const char* op : {"<", "<=", ">", ">=", "=="}) {
        CHECK(eval(op, F(nan_), F(nan_)) == "bool False");
        CHECK(eval(op, I(1), F(nan_)) == "bool False");
        CHECK(eval(op, F(nan_), I(MAX)) == "bool False");
    }
    CHECK(eval("!=", F(nan_), F(nan_)) == "bool True");
    CHECK(eval("!=", I(MAX), F(nan_)) == "bool True");
    CHECK(eval("!=", F(nan_), B(true)) == "bool True");
}

TEST_CASE("float repr and hex", "[format]") {
    CHECK(float_repr(1e16) == "1e+16");
    CHECK(float_repr(1e-5) == "1e-05");
    CHECK(float_repr(1e300) == "1e+300");
    CHECK(float_repr(3.3333333333333335e+21) == "3.3333333333333335e+21");
    CHECK(float_repr(9007199254740992.0) == "9007199254740992.0");
    CHECK(float_repr(0.1 + 0.2) == "0.30000000000000004");
    CHECK(float_repr(-0.0) == "-0.0");
    CHECK(float_repr(1260000000000000.0) == "1260000000000000.0");
    // Integral values below 2^53 (printed from their integer digits), and
    // just past it (the shortest digits again); from CPython's repr.
    CHECK(float_repr(0.0) == "0.0");
    CHECK(float_repr(1.0) == "1.0");
    CHECK(float_repr(-123.0) == "-123.0");
    CHECK(float_repr(42205184.0) == "42205184.0");
    CHECK(float_repr(4503599627370497.0) == "4503599627370497.0");
    CHECK(float_repr(9007199254740991.0) == "9007199254740991.0");
    CHECK(float_repr(-9007199254740991.0) == "-9007199254740991.0");
    CHECK(float_repr(9007199254740994.0) == "9007199254740994.0");
    CHECK(float_repr(9999999999999998.0) == "9999999999999998.0");
    CHECK(float_repr(123456789.5) == "123456789.5");
    CHECK(float_repr(inf_) == "inf");
    CHECK(float_repr(-inf_) == "-inf");
    CHECK(float_repr(nan_) == "nan");
    CHECK(float_repr(-nan_) == "nan");
    CHECK(float_hex(0x1.2p+26) == "0x1.2000000000000p+26");
    CHECK(float_hex(0.0) == "0x0.0p+0");
    CHECK(float_hex(-0.0) == "-0x0.0p+0");
    CHECK(float_hex(0.5) == "0x1.0000000000000p-1");
    CHECK(float_hex(0x0.0000000000001p-1022) == "0x0.0000000000001p-1022");
    CHECK(float_hex(inf_) == "inf");
    CHECK(float_hex(-inf_) == "-inf");
    CHECK(float_hex(nan_) == "nan");

    // Computed with CPython: repr(x) and x.hex().
    struct Case { double x; const char* repr; const char* hex; };
    static const Case table[] = {
    {0x0.0p+0, "0.0", "0x0.0p+0"},
    {-0x0.0p+0, "-0.0", "-0x0.0p+0"},
    {0x1.0000000000000p+0, "1.0", "0x1.0000000000000p+0"},
    {-0x1.8000000000000p+0, "-1.5", "-0x1.8000000000000p+0"},
    {0x1.999999999999ap-4, "0.1", "0x1.999999999999ap-4"},
    {0x1.3333333333334p-2, "0.30000000000000004", "0x1.3333333333334p-2"},
    {0x1.1c37937e08000p+53, "1e+16", "0x1.1c37937e08000p+53"},
    {0x1.c6bf526340000p+49, "1000000000000000.0", "0x1.c6bf526340000p+49"},
    {0x1.1c37937e07fffp+53, "9999999999999998.0", "0x1.1c37937e07fffp+53"},
    {0x1.a36e2eb1c432dp-14, "0.0001", "0x1.a36e2eb1c432dp-14"},
    {0x1.4f8b588e368f1p-17, "1e-05", "0x1.4f8b588e368f1p-17"},
    {0x1.02e4b6ce5dc68p-13, "0.00012345", "0x1.02e4b6ce5dc68p-13"},
    {0x1.9e3abe16fc70dp-17, "1.2345e-05", "0x1.9e3abe16fc70dp-17"},
    {0x1.7e43c8800759cp+996, "1e+300", "0x1.7e43c8800759cp+996"},
    {0x1.56e1fc2f8f359p-997, "1e-300", "0x1.56e1fc2f8f359p-997"},
    {0x0.0000000000001p-1022, "5e-324", "0x0.0000000000001p-1022"},
    {0x1.0000000000000p-1022, "2.2250738585072014e-308", "0x1.0000000000000p-1022"},
    {0x0.fffffffffffffp-1022, "2.225073858507201e-308", "0x0.fffffffffffffp-1022"},
    {0x1.fffffffffffffp+1023, "1.7976931348623157e+308", "0x1.fffffffffffffp+1023"},
    {0x1.b69b4ba630f35p+56, "1.2345678901234568e+17", "0x1.b69b4ba630f35p+56"},
    {0x1.1e7da71ab0000p+50, "1260000000000000.0", "0x1.1e7da71ab0000p+50"},
    {0x1.696695dbd1cc3p+71, "3.3333333333333335e+21", "0x1.696695dbd1cc3p+71"},
    {0x1.0000000000000p+53, "9007199254740992.0", "0x1.0000000000000p+53"},
    {0x0.0000000000003p-1022, "1.5e-323", "0x0.0000000000003p-1022"},
    {0x1.5555555555555p-2, "0.3333333333333333", "0x1.5555555555555p-2"},
    {0x1.5555555555555p-1, "0.6666666666666666", "0x1.5555555555555p-1"},
    {0x1.921fb54442d18p+1, "3.141592653589793", "0x1.921fb54442d18p+1"},
    {-0x1.5bf0a8b145769p+1, "-2.718281828459045", "-0x1.5bf0a8b145769p+1"},
    {0x1.9000000000000p+6, "100.0", "0x1.9000000000000p+6"},
    {0x1.aa535d3d0c000p+53, "1.5e+16", "0x1.aa535d3d0c000p+53"},
    {0x1.81cd6c8b43958p+13, "12345.678", "0x1.81cd6c8b43958p+13"},
    {0x1.3270e269e0d37p+594, "7.761117632285041e+178", "0x1.3270e269e0d37p+594"},
    {0x1.a5a9a704c7780p+59, "9.495e+17", "0x1.a5a9a704c7780p+59"},
    {0x1.651f08e000000p+35, "47932000000.0", "0x1.651f08e000000p+35"},
    {0x1.675cc81e74ef5p-144, "6.294675241195386e-44", "0x1.675cc81e74ef5p-144"},
    {0x1.d549b6f03675ap+689, "4.708325160387546e+207", "0x1.d549b6f03675ap+689"},
    {-0x1.16ece1738f7d9p-814, "-9.973130378568733e-246", "-0x1.16ece1738f7d9p-814"},
    {0x1.36dd72f378c45p-14, "7.4116e-05", "0x1.36dd72f378c45p-14"},
    {0x1.7342dcd4852e7p+54, "2.612518314634742e+16", "0x1.7342dcd4852e7p+54"},
    {0x1.e1e4b7c0f4485p+13, "15420.589723499734", "0x1.e1e4b7c0f4485p+13"},
    {0x1.cd7b03898d190p-833, "3.147219420523724e-251", "0x1.cd7b03898d190p-833"},
    {0x1.174bc6a7ef9dbp+4, "17.456", "0x1.174bc6a7ef9dbp+4"},
    {0x1.293f0263207a9p-14, "7.0869e-05", "0x1.293f0263207a9p-14"},
    {0x1.97a5695eb0530p+62, "7.3435e+18", "0x1.97a5695eb0530p+62"},
    {0x1.9291dc8000000p+33, "13508000000.0", "0x1.9291dc8000000p+33"},
    {0x1.33d0000000000p+11, "2462.5", "0x1.33d0000000000p+11"},
    {0x1.2f037b64ce422p-766, "3.0496182610151205e-231", "0x1.2f037b64ce422p-766"},
    {0x1.4c5436b8f9b13p-4, "0.081135", "0x1.4c5436b8f9b13p-4"},
    {0x1.544d800000000p+19, "696940.0", "0x1.544d800000000p+19"},
    {-0x1.066fdb14858ffp+26, "-68796268.320652", "-0x1.066fdb14858ffp+26"},
    {-0x1.c74273f98e277p+182, "-1.0901301243108798e+55", "-0x1.c74273f98e277p+182"},
    {0x1.d1bfbc7a2ea20p-24, "1.084406323928777e-07", "0x1.d1bfbc7a2ea20p-24"},
    {-0x1.347214cdd2055p-920, "-1.3593855381697515e-277", "-0x1.347214cdd2055p-920"},
    {0x1.ffd45ae7c9000p+51, "4502100000000000.0", "0x1.ffd45ae7c9000p+51"},
    {0x1.0bd323d237dddp-17, "7.9818e-06", "0x1.0bd323d237dddp-17"},
    {0x1.af4d46b0a18e8p-348, "2.938345597354166e-105", "0x1.af4d46b0a18e8p-348"},
    {-0x1.034aaea4be628p+36, "-69603093067.89905", "-0x1.034aaea4be628p+36"},
    {0x1.25e2f12f0a623p-17, "8.7585e-06", "0x1.25e2f12f0a623p-17"},
    {0x1.2b1d3f9404268p-3, "0.14605188055476792", "0x1.2b1d3f9404268p-3"},
    {-0x1.89fcd59a54a7bp-637, "-2.698580563432011e-192", "-0x1.89fcd59a54a7bp-637"},
    {0x1.9148beeaf4c69p-18, "5.9796e-06", "0x1.9148beeaf4c69p-18"},
    {0x1.090cf3471451ep+33, "8893621902.158749", "0x1.090cf3471451ep+33"},
    {0x1.6dee6404080dcp-24, "8.52e-08", "0x1.6dee6404080dcp-24"},
    {-0x1.b0e717ba3fa32p+51, "-3807852469812505.0", "-0x1.b0e717ba3fa32p+51"},
    {0x1.a5f4089aef0c5p-8, "0.006438495732194298", "0x1.a5f4089aef0c5p-8"},
    {0x1.35a1da12dd827p+6, "77.40805844761836", "0x1.35a1da12dd827p+6"},
    {0x1.fb2297631a992p+432, "2.1970596639628e+130", "0x1.fb2297631a992p+432"},
    {0x1.2aa0a1df9fd78p+999, "6.249646571111859e+300", "0x1.2aa0a1df9fd78p+999"},
    {0x1.52399c4aaeac1p+154, "3.0170681842882087e+46", "0x1.52399c4aaeac1p+154"},
    {0x1.c9f503f63af83p+606, "4.750750204750985e+182", "0x1.c9f503f63af83p+606"},
    };
    for (const Case& c : table) {
        INFO(c.hex);
        CHECK(float_repr(c.x) == c.repr);
        CHECK(float_hex(c.x) == c.hex);
    }
}

TEST_CASE("repr and JSON text of values", "[format]") {
    CHECK(repr(B(true)) == "True");
    CHECK(repr(B(false)) == "False");
    CHECK(repr(I(MIN)) == "-9223372036854775808");
    CHECK(repr(F(2.0)) == "2.0");
    CHECK(repr(F(-inf_)) == "-inf");
    CHECK(to_json_text(B(true)) == "true");
    CHECK(to_json_text(B(false)) == "false");
    CHECK(to_json_text(I(-42)) == "-42");
    CHECK(to_json_text(F(1.0)) == "1.0");
    CHECK(to_json_text(F(1e300)) == "1e+300");
    CHECK(to_json_text(F(-0.0)) == "-0.0");
    CHECK(to_json_text(F(inf_)) == "\"inf\"");
    CHECK(to_json_text(F(-inf_)) == "\"-inf\"");
    CHECK(to_json_text(F(nan_)) == "\"nan\"");
}

// Binary operations evaluated by CPython 3.11: the simple binary expressions
// of tests/golden/expr_cases.json, then random pairs of edge values and big
// int divisions. An int result beyond int64 is expected as our overflow error;
// a complex result as our type-error.
TEST_CASE("binary operations match CPython", "[arith]") {
    struct Case { Value a; const char* op; Value b; const char* expected; };
    const Case table[] = {
    {I(1), "==", F(0x1.0000000000000p+0), "bool True"},
    {F(-0x0.0p+0), "!=", I(0), "bool False"},
    {B(true), "+", B(true), "int 2"},
    {B(true), "*", F(0x1.4000000000000p+1), "float 0x1.4000000000000p+1"},
    {B(false), "/", I(2), "float 0x0.0p+0"},
    {B(true), "//", I(2), "int 0"},
    {B(false), "-", B(true), "int -1"},
    {B(true), "**", I(2), "int 1"},
    {I(-7), "//", I(2), "int -4"},
    {I(-7), "%", I(3), "int 2"},
    {I(7), "%", I(-3), "int -2"},
    {F(0x1.e000000000000p+2), "//", I(-2), "float -0x1.0000000000000p+2"},
    {F(0x1.e000000000000p+2), "%", I(-2), "float -0x1.0000000000000p-1"},
    {F(-0x0.0p+0), "%", I(3), "float 0x0.0p+0"},
    {F(0x1.0000000000000p+0), "//", F(0x1.999999999999ap-4), "float 0x1.2000000000000p+3"},
    {F(0x1.0000000000000p+0), "%", F(0x1.999999999999ap-4), "float 0x1.9999999999996p-4"},
    {F(-0x1.56e1fc2f8f359p-997), "//", F(0x1.7e43c8800759cp+996), "float -0x1.0000000000000p+0"},
    {F(-0x1.56e1fc2f8f359p-997), "%", F(0x1.7e43c8800759cp+996), "float 0x1.7e43c8800759cp+996"},
    {I(5), "%", F(0x0.0p+0), "error division-by-zero: float modulo"},
    {F(0x1.4000000000000p+2), "//", I(0), "error division-by-zero: float floor division by zero"},
    {I(5), "%", I(0), "error division-by-zero: integer modulo by zero"},
    {I(5), "//", I(0), "error division-by-zero: integer division or modulo by zero"},
    {I(7), "/", I(2), "float 0x1.c000000000000p+1"},
    {I(1), "/", I(0), "error division-by-zero: division by zero"},
    {F(0x1.0000000000000p+0), "/", I(0), "error division-by-zero: float division by zero"},
    {I(0), "/", F(0x0.0p+0), "error division-by-zero: float division by zero"},
    {I(9007199254740993), "/", I(1), "float 0x1.0000000000000p+53"},
    {F(0x1.999999999999ap-4), "+", F(0x1.999999999999ap-3), "float 0x1.3333333333334p-2"},
    {I(2), "**", I(-1), "float 0x1.0000000000000p-1"},
    {I(2), "**", I(10), "int 1024"},
    {I(0), "**", I(-1), "error division-by-zero: 0.0 cannot be raised to a negative power"},
    {F(0x0.0p+0), "**", I(-2), "error division-by-zero: 0.0 cannot be raised to a negative power"},
    {F(0x1.4000000000000p+3), "**", I(400), "error overflow: (34, 'Numerical result out of range')"},
    {I(-8), "**", I(2), "int 64"},
    {I(4), "**", F(0x1.0000000000000p-1), "float 0x1.0000000000000p+1"},
    {I(0), "**", I(0), "int 1"},
    {F(0x0.0p+0), "*", I(-1), "float -0x0.0p+0"},
    {F(-0x0.0p+0), "-", F(-0x0.0p+0), "float 0x0.0p+0"},
    {F(0x1.1ccf385ebc8a0p+1023), "*", I(10), "float inf"},
    {I(9007199254740993), ">", F(0x1.0000000000000p+53), "bool True"},
    {I(9007199254740993), "==", F(0x1.0000000000000p+53), "bool False"},
    {I(4611686018427387904), "*", I(4), "error overflow: integer overflow: 4611686018427387904 * 4"},
    {I(9223372036854775807), "+", I(1), "error overflow: integer overflow: 9223372036854775807 + 1"},
    {F(0x1.f400000000000p+9), "*", I(2), "float 0x1.f400000000000p+10"},
    {F(-0x1.0000000000000p+2), "**", F(0x1.0000000000000p-1), "error type-error: a negative number to a fractional power has a complex result"},
    {F(0x1.0000000000000p+12), "*", F(0x1.56e1fc2f8f359p-997), "float 0x1.56e1fc2f8f359p-985"},
    {I(-4096), "*", B(false), "int 0"},
    {F(0x1.1c37937e08000p+53), "*", B(false), "float 0x0.0p+0"},
    {F(-0x0.0p+0), "*", F(0x0.0p+0), "float -0x0.0p+0"},
    {I(4), "!=", I(1), "bool True"},
    {I(-7), "==", I(1), "bool False"},
    {F(-0x0.0p+0), "*", I(3), "float -0x0.0p+0"},
    {F(0x1.5555555555555p-2), "*", I(8), "float 0x1.5555555555555p+1"},
    {F(0x1.0000000000000p-1), "*", F(0x1.0000000000000p+12), "float 0x1.0000000000000p+11"},
    {F(0x1.999999999999ap-4), "*", I(1), "float 0x1.999999999999ap-4"},
    {F(0x1.0000000000000p-1), "*", B(false), "float 0x0.0p+0"},
    {I(4), "*", I(10), "int 40"},
    {I(128), "+", I(-7), "int 121"},
    {F(0x1.999999999999ap-4), "!=", I(3), "bool True"},
    {F(0x1.999999999999ap-4), ">=", F(0x1.5555555555555p-2), "bool False"},
    {F(0x1.8000000000000p+0), "+", F(0x1.1c37937e08000p+53), "float 0x1.1c37937e08001p+53"},
    {I(16), "*", F(0x1.5555555555555p-2), "float 0x1.5555555555555p+2"},
    {I(1000000), "**", I(2), "int 1000000000000"},
    {I(7168), "-", I(4), "int 7164"},
    {I(16), "*", F(0x1.999999999999ap-4), "float 0x1.999999999999ap+0"},
    {F(0x1.921fb54442d18p+1), "//", I(10), "float 0x0.0p+0"},
    {I(8), "%", F(0x1.0000000000000p+1), "float 0x0.0p+0"},
    {F(0x1.4000000000000p+1), "*", I(-3), "float -0x1.e000000000000p+2"},
    {F(0x1.8000000000000p+0), "+", I(5), "float 0x1.a000000000000p+2"},
    {I(1), "*", I(-3), "int -3"},
    {I(8), "*", F(0x1.0000000000000p+0), "float 0x1.0000000000000p+3"},
    {F(0x1.4000000000000p+1), "**", I(-2), "float 0x1.47ae147ae147bp-3"},
    {F(0x0.0p+0), "+", I(8), "float 0x1.0000000000000p+3"},
    {I(3), "+", I(-1), "int 2"},
    {F(0x1.0000000000000p+1), "**", I(-1), "float 0x1.0000000000000p-1"},
    {I(1), "%", I(5), "int 1"},
    {I(1000000), "-", B(false), "int 1000000"},
    {I(128), ">", F(0x1.e240c9fbe76c9p+16), "bool False"},
    {F(0x0.0p+0), "*", F(0x0.0p+0), "float 0x0.0p+0"},
    {I(3), "-", I(1000000), "int -999997"},
    {I(5), "<", I(2), "bool False"},
    {I(1), "/", I(10), "float 0x1.999999999999ap-4"},
    {I(7168), "-", F(0x1.1c37937e08000p+53), "float -0x1.1c37937e07200p+53"},
    {I(10), "+", I(0), "int 10"},
    {I(-3), "+", I(10), "int 7"},
    {I(0), "/", F(0x1.1c37937e08000p+53), "float 0x0.0p+0"},
    {I(7), "/", I(16), "float 0x1.c000000000000p-2"},
    {I(1), "/", F(0x1.999999999999ap-4), "float 0x1.4000000000000p+3"},
    {I(-1), ">", I(-1), "bool False"},
    {I(4096), "*", F(-0x1.4000000000000p+0), "float -0x1.4000000000000p+12"},
    {I(3), "*", I(128), "int 384"},
    {I(0), "**", I(2), "int 0"},
    {B(false), "+", F(0x0.0p+0), "float 0x0.0p+0"},
    {F(0x1.1c37937e08000p+53), "*", I(4096), "float 0x1.1c37937e08000p+65"},
    {I(4096), "-", I(16), "int 4080"},
    {I(1), "*", F(0x1.0000000000000p+0), "float 0x1.0000000000000p+0"},
    {B(true), "%", B(true), "int 0"},
    {B(false), "/", F(0x1.5555555555555p-2), "float 0x0.0p+0"},
    {I(1), "*", I(8), "int 8"},
    {I(-2), "-", I(16), "int -18"},
    {F(nan_), "!=", F(0x0.0p+0), "bool True"},
    {I(-9007199254740995), "!=", I(-13), "bool True"},
    {F(0x1.999999999999ap-4), "==", F(0x1.999999999999ap-4), "bool True"},
    {F(0x0.0p+0), "+", I(9007199254740992), "float 0x1.0000000000000p+53"},
    {I(INT64_MIN), ">", I(-7), "bool False"},
    {I(2), "**", F(-0x0.0p+0), "float 0x1.0000000000000p+0"},
    {I(INT64_MIN), ">=", F(nan_), "bool False"},
    {I(3), "*", I(-7), "int -21"},
    {I(1), "/", I(123456789012345678), "float 0x1.2ad656743a8c7p-57"},
    {I(0), "/", I(INT64_MIN), "float -0x0.0p+0"},
    {I(INT64_MIN), "**", F(0x1.4000000000000p+1), "error type-error: a negative number to a fractional power has a complex result"},
    {I(3037000500), "<", B(true), "bool False"},
    {F(0x1.999999999999ap-4), "**", I(9007199254740993), "float 0x0.0p+0"},
    {I(2), "==", F(inf_), "bool False"},
    {I(-9007199254740995), "%", I(4611686018427387904), "int 4602678819172646909"},
    {F(-0x1.0000000000000p-1), "/", I(3037000500), "float -0x1.6a09e667e7799p-33"},
    {F(-0x1.0000000000000p+63), "*", F(0x1.921fb54442d18p+1), "float -0x1.921fb54442d18p+64"},
    {I(2), ">=", F(-0x1.0000000000000p-1), "bool True"},
    {I(1), "%", F(0x1.0000000000000p+63), "float 0x1.0000000000000p+0"},
    {F(0x1.4000000000000p+1), "%", I(7), "float 0x1.4000000000000p+1"},
    {F(-0x1.e000000000000p+2), "==", F(0x1.1c37937e08000p+53), "bool False"},
    {F(0x0.0p+0), "!=", I(2), "bool True"},
    {I(-7), ">", F(nan_), "bool False"},
    {I(1000003), ">=", I(2), "bool True"},
    {I(9223372036854775807), "==", I(123456789012345678), "bool False"},
    {I(3037000500), "<=", I(0), "bool False"},
    {F(0x0.0p+0), "<=", I(1), "bool True"},
    {I(9007199254740993), "/", F(0x1.999999999999ap-4), "float 0x1.4000000000000p+56"},
    {F(0x1.999999999999ap-4), "!=", F(0x1.0000000000000p+63), "bool True"},
    {F(0x1.921fb54442d18p+1), "==", I(-1), "bool False"},
    {F(0x1.5555555555555p-2), "!=", I(-13), "bool True"},
    {I(-2), "==", I(-9007199254740995), "bool False"},
    {I(-9007199254740995), "+", B(true), "int -9007199254740994"},
    {F(-0x1.56e1fc2f8f359p-997), "//", B(true), "float -0x1.0000000000000p+0"},
    {B(true), "*", I(3), "int 3"},
    {I(9007199254740993), "%", F(-0x0.0p+0), "error division-by-zero: float modulo"},
    {F(0x1.1c37937e08000p+53), "<", F(-0x1.0000000000000p-1), "bool False"},
    {I(2), "-", I(9223372036854775807), "int -9223372036854775805"},
    {I(9007199254740992), "*", F(0x0.0000000000001p-1022), "float 0x1.0000000000000p-1021"},
    {B(true), "==", F(-0x1.e000000000000p+2), "bool False"},
    {I(1000003), "*", I(9223372036854775807), "error overflow: integer overflow: 1000003 * 9223372036854775807"},
    {B(true), "+", F(0x1.5555555555555p-2), "float 0x1.5555555555555p+0"},
    {I(2), "==", F(0x1.1c37937e08000p+53), "bool False"},
    {F(0x0.0p+0), ">=", I(-2), "bool True"},
    {F(-0x1.0000000000000p-1), "%", F(-0x1.e000000000000p+2), "float -0x1.0000000000000p-1"},
    {I(7), "==", I(9223372036854775807), "bool False"},
    {I(0), "%", I(2147483648), "int 0"},
    {I(4096), "/", I(123456789012345678), "float 0x1.2ad656743a8c7p-45"},
    {I(-13), "**", F(nan_), "float nan"},
    {I(-2), "%", F(nan_), "float nan"},
    {I(3), ">", I(-1), "bool True"},
    {F(-0x1.e000000000000p+2), ">", F(0x1.1ccf385ebc8a0p+1023), "bool False"},
    {F(-0x1.0000000000000p+63), ">=", I(INT64_MIN), "bool True"},
    {I(INT64_MIN), "!=", I(9007199254740993), "bool True"},
    {F(-0x1.e000000000000p+2), "==", F(-0x1.0000000000000p+63), "bool False"},
    {I(4096), "-", I(INT64_MIN), "error overflow: integer overflow: 4096 - -9223372036854775808"},
    {I(INT64_MIN), "<=", I(9007199254740992), "bool True"},
    {I(1000003), "==", F(0x1.921fb54442d18p+1), "bool False"},
    {F(-0x1.0000000000000p-1), "%", I(2147483648), "float 0x1.fffffffe00000p+30"},
    {F(0x1.921fb54442d18p+1), "!=", F(-0x1.56e1fc2f8f359p-997), "bool True"},
    {I(7), "%", F(inf_), "float 0x1.c000000000000p+2"},
    {I(10), "%", F(nan_), "float nan"},
    {F(-0x0.0p+0), "==", I(9007199254740993), "bool False"},
    {F(0x1.0000000000000p+63), "<", F(0x1.921fb54442d18p+1), "bool False"},
    {F(0x1.0000000000000p+63), "+", B(true), "float 0x1.0000000000000p+63"},
    {I(2), "!=", B(true), "bool True"},
    {F(0x1.5555555555555p-2), "-", F(0x1.1c37937e08000p+53), "float -0x1.1c37937e08000p+53"},
    {I(1000003), ">", I(1), "bool True"},
    {I(-1), "<=", I(4611686018427387904), "bool True"},
    {I(2147483648), "!=", I(0), "bool True"},
    {F(0x1.1c37937e08000p+53), "//", I(1000003), "float 0x1.2a05b76800000p+33"},
    {I(1000003), "!=", I(-9007199254740995), "bool True"},
    {F(-0x1.0000000000000p-1), "+", B(false), "float -0x1.0000000000000p-1"},
    {I(4096), ">", I(7), "bool True"},
    {I(0), "!=", F(0x0.0p+0), "bool False"},
    {I(-13), "//", I(7), "int -2"},
    {F(0x1.5555555555555p-2), "!=", I(123456789012345678), "bool True"},
    {F(0x0.0000000000001p-1022), "%", F(-0x0.0p+0), "error division-by-zero: float modulo"},
    {I(-9007199254740995), "%", I(3037000500), "int 605169505"},
    {I(10), "**", F(inf_), "float inf"},
    {I(6596043107120), "/", I(8209607241862309427), "float 0x1.af59e631787b6p-21"},
    {I(-841169201107055434), "/", I(-199274791787783), "float 0x1.07d26ee78bfb0p+12"},
    {I(16636022782091896), "/", I(29005078117004), "float 0x1.1ec71b6a3ca5ep+9"},
    {I(-3349075531324), "/", I(-69119267744848154), "float 0x1.967541d3684f2p-15"},
    {I(17537308895655), "/", I(533402719), "float 0x1.00dc5a843eb88p+15"},
    {I(-7548313581591011654), "/", I(62), "float -0x1.b0883ecd39c2ap+56"},
    {I(408877352109965981), "/", I(24680996), "float 0x1.edb8402e5bcebp+33"},
    {I(81831422216251), "/", I(307397), "float 0x1.fbc02fdec2c37p+27"},
    {I(10078897297450), "/", I(1001), "float 0x1.2c13109a7d920p+33"},
    {I(3215498100599064), "/", I(-81001063326024060), "float -0x1.45329d3c261abp-5"},
    {I(-142125697825873895), "/", I(-8141774706449), "float 0x1.10c16a09d64f7p+14"},
    {I(-375847218412246), "/", I(-218), "float 0x1.916a918c4e7c8p+40"},
    };
    for (const Case& c : table) {
        INFO(repr(c.a) << " " << c.op << " " << repr(c.b));
        CHECK(eval(c.op, c.a, c.b) == c.expected);
    }
}
