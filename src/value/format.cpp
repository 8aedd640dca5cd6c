#include "value/format.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

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

namespace {

// A code point Python's str.isprintable() calls unprintable, of those a
// terminal acts on or hides: the C0 and C1 controls, DEL, and the Unicode
// spaces, format and bidirectional controls (U+202E turns text around).
bool unprintable(char32_t c) {
    return c < 0x20 || (c >= 0x7f && c <= 0xa0) || c == 0xad || c == 0x1680 || (c >= 0x2000 && c <= 0x200f) ||
           (c >= 0x2028 && c <= 0x202f) || (c >= 0x205f && c <= 0x206f) || c == 0x3000 || c == 0xfeff ||
           (c >= 0xfff9 && c <= 0xfffb);
}

// The code point at s[i] and its length in bytes; a byte that starts no
// well-formed sequence stands for itself (length 1).
std::pair<char32_t, std::size_t> decode(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    const std::size_t n = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 1;
    if (n == 1 || c >= 0xf5 || i + n > s.size()) return {c, 1};
    char32_t cp = c & (0x7f >> n);
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xc0) != 0x80) return {c, 1};
        cp = (cp << 6) | (b(i + k) & 0x3f);
    }
    return {cp, n};
}

}  // namespace

std::string str_repr(std::string_view s) {
    const char quote = s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos ? '"' : '\'';
    std::string out(1, quote);
    for (std::size_t i = 0; i < s.size();) {
        const auto [c, n] = decode(s, i);
        if (c == '\\' || c == static_cast<char32_t>(quote)) {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (unprintable(c)) {  // as Python writes them: \xNN, \uNNNN
            char buf[8];
            const int len = std::snprintf(buf, sizeof buf, c < 0x100 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(c));
            out.append(buf, static_cast<std::size_t>(len));
        } else {
            out.append(s.substr(i, n));  // printable, or a byte that is no UTF-8 (the text was checked before)
        }
        i += n;
    }
    out += quote;
    return out;
}

std::string quoted_name(std::string_view name) {
    for (std::size_t i = 0; i < name.size();) {
        const auto [c, n] = decode(name, i);
        if (unprintable(c)) return str_repr(name);
        i += n;
    }
    return "`" + std::string(name) + "`";
}

}  // namespace oprec
