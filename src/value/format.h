// How values are written: Python's repr, and JSON.
#pragma once

#include <string>

#include "value/value.h"

namespace oprec {

std::string float_repr(double x);   // Python repr: "1.0", "1e+300", "0.30000000000000004", "inf", "nan"
std::string float_hex(double x);    // Python float.hex: "0x1.2000000000000p+26", "-0x0.0p+0", "inf"
std::string repr(Value v);          // "True", "42", float_repr
// A JSON number token for v (floats keep a fraction or exponent: "1.0", "1e+300");
// non-finite floats as the JSON strings "inf", "-inf", "nan"; bools as true/false.
std::string to_json_text(Value v);
// The same, appended to `out` (no string of its own: a report writes hundreds).
void append_float_repr(std::string& out, double x);
void append_json_text(std::string& out, Value v);

}  // namespace oprec
