// How values are written: Python's repr, and JSON.
#pragma once

#include <string>
#include <string_view>

#include "value/value.h"

namespace oprec {

std::string float_repr(double x);   // Python repr: "1.0", "1e+300", "0.30000000000000004", "inf", "nan"
std::string float_hex(double x);    // Python float.hex: "0x1.2000000000000p+26", "-0x0.0p+0", "inf"
std::string repr(Value v);          // "True", "42", float_repr
// Python's repr of a str: quoted, control characters escaped ("'a\\nb'",
// "\"it's\""), so text from a user's file never reaches a terminal raw.
std::string str_repr(std::string_view s);
// A name from a user's document in a message: `name` in backticks, or its
// str_repr where it holds a control character.
std::string quoted_name(std::string_view name);
// A JSON number token for v (floats keep a fraction or exponent: "1.0", "1e+300");
// non-finite floats as the JSON strings "inf", "-inf", "nan"; bools as true/false.
std::string to_json_text(Value v);
// The same, appended to `out` (no string of its own: a report writes hundreds).
void append_float_repr(std::string& out, double x);
void append_json_text(std::string& out, Value v);

}  // namespace oprec
