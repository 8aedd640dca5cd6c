// Python's arithmetic on Values, to the bit: the meaning of every operator of
// the records' language. Errors are thrown as EvalError (no position: the
// interpreter adds it).
#pragma once

#include "value/value.h"

namespace oprec::py {

Value add(Value a, Value b);
Value sub(Value a, Value b);
Value mul(Value a, Value b);
Value truediv(Value a, Value b);   // int/int correctly rounded from the exact integers
Value floordiv(Value a, Value b);  // Python's //, CPython's float algorithm for floats
Value mod(Value a, Value b);       // Python's %, the divisor's sign
Value pow(Value a, Value b);
Value neg(Value a);
Value pos(Value a);
Value logical_not(Value a);        // bool

enum class CmpOp : std::uint8_t { Lt, Le, Gt, Ge, Eq, Ne };
bool compare(CmpOp op, Value a, Value b);  // exact between ints and floats

}  // namespace oprec::py

namespace oprec {
// Operators for the native evaluators, so their C++ reads like the reference's Python.
inline Value operator+(Value a, Value b) { return py::add(a, b); }
inline Value operator-(Value a, Value b) { return py::sub(a, b); }
inline Value operator*(Value a, Value b) { return py::mul(a, b); }
inline Value operator/(Value a, Value b) { return py::truediv(a, b); }
inline Value operator-(Value a) { return py::neg(a); }
}  // namespace oprec
