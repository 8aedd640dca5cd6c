#include "value/text.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <string>

namespace oprec {

std::optional<Value> parse_value_text(std::string_view text) {
    if (text == "true" || text == "True") return Value::boolean(true);
    if (text == "false" || text == "False") return Value::boolean(false);
    if (text == "inf" || text == "+inf") return Value::real(std::numeric_limits<double>::infinity());
    if (text == "-inf") return Value::real(-std::numeric_limits<double>::infinity());
    if (text == "nan") return Value::real(std::numeric_limits<double>::quiet_NaN());
    const char* end = text.data() + text.size();
    std::int64_t i = 0;
    auto [p, ec] = std::from_chars(text.data(), end, i);
    if (ec == std::errc() && p == end) return Value::integer(i);
    // Python would hold it exactly; a float would round it silently.
    if (ec == std::errc::result_out_of_range && p == end) throw EvalError(ErrorKind::Overflow, "an integer beyond 64 bits");
    double d = 0;
    auto [q, ec2] = std::from_chars(text.data(), end, d);
    if (ec2 == std::errc() && q == end) return Value::real(d);
    // Past a double's range Python's float() rounds, as strtod does: 1e400
    // is inf, 1e-400 is 0.0 (from_chars only says out of range).
    if (ec2 == std::errc::result_out_of_range && q == end) return Value::real(std::strtod(std::string(text).c_str(), nullptr));
    return std::nullopt;
}

namespace {
template <class Json>
std::optional<Value> from_json(const Json& j) {
    if (j.is_boolean()) return Value::boolean(j.template get<bool>());
    if (j.is_number_integer() && !j.is_number_unsigned()) return Value::integer(j.template get<std::int64_t>());
    if (j.is_number_unsigned()) {
        const auto u = j.template get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw EvalError(ErrorKind::Overflow, "an integer beyond 64 bits");
        return Value::integer(static_cast<std::int64_t>(u));
    }
    if (j.is_number_float()) return Value::real(j.template get<double>());
    if (j.is_string()) {
        const std::string s = j.template get<std::string>();
        if (s == "inf" || s == "-inf" || s == "nan") return parse_value_text(s);
    }
    return std::nullopt;
}
}  // namespace

std::optional<Value> value_from_json(const nlohmann::json& j) { return from_json(j); }
std::optional<Value> value_from_json(const nlohmann::ordered_json& j) { return from_json(j); }

std::optional<std::size_t> oversized_json_integer(std::string_view text) {
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (c == '"') {  // a string: its digits are not numbers
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
            continue;
        }
        if (c != '-' && !digit(c)) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        if (c == '-') ++i;
        while (i < text.size() && digit(text[i])) ++i;
        const bool integer = i == text.size() || (text[i] != '.' && text[i] != 'e' && text[i] != 'E');
        if (integer && i > start) {
            // Up to 2^64 - 1 the reader keeps an integer (value_from_json
            // refuses it, naming the field); beyond, it would make it a float.
            bool fits = false;
            if (c == '-') {
                std::int64_t v = 0;
                fits = std::from_chars(text.data() + start, text.data() + i, v).ec == std::errc();
            } else {
                std::uint64_t v = 0;
                fits = std::from_chars(text.data() + start, text.data() + i, v).ec == std::errc();
            }
            if (!fits) return start;
        }
        while (i < text.size() && (digit(text[i]) || text[i] == '.' || text[i] == 'e' || text[i] == 'E' ||
                                   text[i] == '+' || text[i] == '-'))
            ++i;
    }
    return std::nullopt;
}

nlohmann::ordered_json to_json(Value v) {
    switch (v.type) {
    case ValueType::Bool: return v.b;
    case ValueType::Int: return v.i;
    case ValueType::Float:
        if (std::isnan(v.f)) return "nan";
        if (std::isinf(v.f)) return v.f > 0 ? "inf" : "-inf";
        return v.f;
    }
    return nullptr;
}

std::pair<std::size_t, std::size_t> line_col(std::string_view text, std::size_t byte) {
    const std::size_t at = std::min(byte == 0 ? 0 : byte - 1, text.size());
    const std::string_view before = text.substr(0, at);
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t last_newline = before.rfind('\n');
    return {line, last_newline == std::string_view::npos ? at + 1 : at - last_newline};
}

std::size_t json_key_at(std::string_view text, std::size_t n) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '"') continue;
        const std::size_t start = i;
        for (++i; i < text.size() && text[i] != '"'; ++i)
            if (text[i] == '\\') ++i;
        std::size_t after = i + 1;
        while (after < text.size() && (text[after] == ' ' || text[after] == '\t' || text[after] == '\n' ||
                                       text[after] == '\r'))
            ++after;
        if (after < text.size() && text[after] == ':' && --n == 0) return start;
    }
    return std::string_view::npos;
}

std::optional<std::size_t> json_nested_past(std::string_view text, std::size_t limit) {
    std::size_t depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

std::string json_syntax_error(std::string_view source, std::string_view text, const nlohmann::json::parse_error& e) {
    const auto [line, col] = line_col(text, e.byte);
    // nlohmann's message less its "[json.exception.parse_error.101] parse error at line 1, column 2: ".
    const std::string what = e.what();
    const std::size_t start = what.find("parse error");
    const std::size_t colon = start == std::string::npos ? std::string::npos : what.find(": ", start);
    const std::string detail = colon == std::string::npos ? what : what.substr(colon + 2);
    return std::string(source) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": invalid JSON: " + detail;
}

}  // namespace oprec
