// code/fast_arith.h's inline paths give py::'s results to the bit, and
// leave every error to py::.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>

#include "code/fast_arith.h"

using namespace oprec;

namespace {

std::string outcome(Value (*op)(Value, Value), Value a, Value b) {
    try {
        const Value v = op(a, b);
        if (v.is_float()) return "float " + std::to_string(std::bit_cast<std::uint64_t>(v.f));
        return std::string(type_name(v.type)) + " " + std::to_string(v.as_int());
    } catch (const EvalError& e) {
        return std::string("raises ") + error_kind_name(e.kind());
    }
}

std::vector<Value> samples() {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<Value> out;
    for (double f : {0.0, -0.0, 1.0, -1.5, 0.25, 1.0 / 3.0, 1e308, -1e-310, inf, -inf, std::nan(""), 9007199254740993.0})
        out.push_back(Value::real(f));
    for (std::int64_t i : {std::int64_t(0), std::int64_t(1), std::int64_t(-1), std::int64_t(3), std::int64_t(-7),
                           (std::int64_t(1) << 53), (std::int64_t(1) << 53) + 1, -(std::int64_t(1) << 53) - 1,
                           std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()})
        out.push_back(Value::integer(i));
    out.push_back(Value::boolean(true));
    out.push_back(Value::boolean(false));
    return out;
}

}  // namespace

TEST_CASE("fast arithmetic agrees with py:: on every pair of edge values", "[arith][fast]") {
    const std::vector<Value> vs = samples();
    for (Value a : vs)
        for (Value b : vs) {
            INFO(outcome(py::add, a, Value::integer(0)) << " op " << outcome(py::add, b, Value::integer(0)));
            CHECK(outcome(+[](Value x, Value y) { return fast::add(x, y); }, a, b) == outcome(py::add, a, b));
            CHECK(outcome(+[](Value x, Value y) { return fast::sub(x, y); }, a, b) == outcome(py::sub, a, b));
            CHECK(outcome(+[](Value x, Value y) { return fast::mul(x, y); }, a, b) == outcome(py::mul, a, b));
            CHECK(outcome(+[](Value x, Value y) { return fast::truediv(x, y); }, a, b) == outcome(py::truediv, a, b));
            for (auto op : {py::CmpOp::Lt, py::CmpOp::Le, py::CmpOp::Gt, py::CmpOp::Ge, py::CmpOp::Eq, py::CmpOp::Ne})
                CHECK(fast::compare(op, a, b) == py::compare(op, a, b));
        }
}
