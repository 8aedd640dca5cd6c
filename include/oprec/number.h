// A number as the records compute it: Python's bool, int (64-bit) or float.
// Bytes are often floats (a formula divides), sometimes ints; the kind is
// kept so a caller can print them as the reference does.
#pragma once

#include <cstdint>
#include <string>

namespace oprec {

struct Number {
    enum class Kind : std::uint8_t { Bool, Int, Float };
    Kind kind = Kind::Int;
    std::int64_t i = 0;  // Bool (0 or 1) and Int
    double f = 0.0;      // Float

    static Number boolean(bool v) { return {Kind::Bool, v ? 1 : 0, 0.0}; }
    static Number integer(std::int64_t v) { return {Kind::Int, v, 0.0}; }
    static Number real(double v) { return {Kind::Float, 0, v}; }

    bool is_float() const { return kind == Kind::Float; }
    double to_double() const { return kind == Kind::Float ? f : static_cast<double>(i); }
    // Python's repr: "True", "42", "1.5e+16", "109051903.99999999".
    std::string repr() const;
    // The same value bit for bit (a float's -0.0 is not 0.0).
    bool identical(const Number& o) const;
};

}  // namespace oprec
