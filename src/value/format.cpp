#include "value/format.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace oprec {

// Python's repr(float): the shortest round-trip digits (what to_chars gives),
// laid out as CPython's 'r' format does: exponent form when the decimal
// exponent is < -4 or >= 16, else positional with at least one fraction digit.
void append_float_repr(std::string& out, double x) {
    if (std::isnan(x)) {
        out += "nan";
        return;
    }
    if (std::isinf(x)) {
        out += x > 0 ? "inf" : "-inf";
        return;
    }
    // An integral value below 2^53 (most byte counts): every integer there
    // is a double, so the shortest digits that read back are its own, and
    // Python prints them with ".0" (-0.0 too).
    if (const double magnitude = std::fabs(x); magnitude < 9007199254740992.0 && x == std::trunc(x)) {
        if (std::signbit(x)) out += '-';
        char whole[24];
        out.append(whole, std::to_chars(whole, whole + sizeof whole, static_cast<std::uint64_t>(magnitude)).ptr);
        out += ".0";
        return;
    }
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf - 1, x, std::chars_format::scientific);
    *res.ptr = '\0';
    // buf holds [-]d[.ddd]e(+|-)XX; gather the digits and the exponent.
    const char* p = buf;
    if (*p == '-') { out += '-'; ++p; }
    char digits[20];
    int n = 0;
    for (; *p != 'e'; ++p)
        if (*p != '.') digits[n++] = *p;
    const int exp = std::atoi(p + 1);

    if (exp < -4 || exp >= 16) {
        out += digits[0];
        if (n > 1) { out += '.'; out.append(digits + 1, std::size_t(n - 1)); }
        out += exp < 0 ? "e-" : "e+";
        const int e = std::abs(exp);
        if (e < 10) out += '0';
        char exp_digits[8];
        out.append(exp_digits, std::to_chars(exp_digits, exp_digits + sizeof exp_digits, e).ptr);
    } else if (exp < 0) {
        out += "0.";
        out.append(std::size_t(-exp - 1), '0');
        out.append(digits, std::size_t(n));
    } else if (n <= exp + 1) {
        out.append(digits, std::size_t(n));
        out.append(std::size_t(exp + 1 - n), '0');
        out += ".0";
    } else {
        out.append(digits, std::size_t(exp + 1));
        out += '.';
        out.append(digits + exp + 1, std::size_t(n - exp - 1));
    }
}

std::string float_repr(double x) {
    std::string out;
    append_float_repr(out, x);
    return out;
}

// Python's float.hex(): one leading digit (0 only for subnormals), always 13
// hex digits of fraction, decimal binary exponent.
std::string float_hex(double x) {
    if (std::isnan(x) || std::isinf(x)) return float_repr(x);
    const bool negative = std::signbit(x);
    if (x == 0.0) return negative ? "-0x0.0p+0" : "0x0.0p+0";
    const auto bits = std::bit_cast<std::uint64_t>(x);
    const int biased = int((bits >> 52) & 0x7ff);
    std::uint64_t frac = bits & ((std::uint64_t(1) << 52) - 1);
    const int exp = biased == 0 ? -1022 : biased - 1023;
    std::string out = negative ? "-0x" : "0x";
    out += biased == 0 ? "0." : "1.";
    static constexpr char hex[] = "0123456789abcdef";
    for (int shift = 48; shift >= 0; shift -= 4) out += hex[(frac >> shift) & 0xf];
    out += exp < 0 ? "p-" : "p+";
    out += std::to_string(std::abs(exp));
    return out;
}

std::string repr(Value v) {
    switch (v.type) {
    case ValueType::Bool: return v.b ? "True" : "False";
    case ValueType::Int: return std::to_string(v.i);
    case ValueType::Float: return float_repr(v.f);
    }
    return "";
}

void append_json_text(std::string& out, Value v) {
    switch (v.type) {
    case ValueType::Bool: out += v.b ? "true" : "false"; return;
    case ValueType::Int: {
        char buf[24];
        out.append(buf, std::to_chars(buf, buf + sizeof buf, v.i).ptr);
        return;
    }
    case ValueType::Float:
        if (!std::isfinite(v.f)) {
            out += '"';
            append_float_repr(out, v.f);
            out += '"';
            return;
        }
        append_float_repr(out, v.f);
        return;
    }
}

std::string to_json_text(Value v) {
    std::string out;
    append_json_text(out, v);
    return out;
}

std::string str_repr(std::string_view s) {
    const char quote = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos ? '"' : '\'';
    static constexpr char kHex[] = "0123456789abcdef";
    auto hex = [&](std::string& out, unsigned c) {
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    };
    std::string out(1, quote);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '\\' || c == static_cast<unsigned char>(quote)) {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            hex(out, c);
        } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xa0 &&
                   static_cast<unsigned char>(s[i + 1]) >= 0x80) {
            hex(out, static_cast<unsigned char>(s[++i]));  // U+0080..U+009F, the C1 controls (CSI among them)
        } else {
            out += static_cast<char>(c);  // printable ASCII, and other UTF-8 as it is
        }
    }
    out += quote;
    return out;
}

std::string quoted_name(std::string_view name) {
    const std::string repr = str_repr(name);
    // The repr escapes nothing but the quotes and backslashes of a plain name.
    const bool plain = std::none_of(name.begin(), name.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 0x20 || u == 0x7f || u == 0xc2;
    });
    return plain ? "`" + std::string(name) + "`" : repr;
}

}  // namespace oprec
