#include "value/byte_size.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

namespace oprec {

std::optional<double> parse_byte_size(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    std::size_t end = 0;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' || text[end] == '_'))
        ++end;
    // An exponent (1e11, 1.5e9): no unit begins with `e`.
    if (end > 0 && end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
        std::size_t exp = end + 1;
        if (exp < text.size() && (text[exp] == '+' || text[exp] == '-')) ++exp;
        const std::size_t digits = exp;
        while (exp < text.size() && std::isdigit(static_cast<unsigned char>(text[exp]))) ++exp;
        if (exp > digits) end = exp;
    }
    std::string number;
    for (std::size_t i = 0; i < end; ++i) {
        // An underscore groups digits ("1_000"): between two of them, or a slip ("_80", "8__0").
        if (text[i] == '_' && (i == 0 || i + 1 >= end || !std::isdigit(static_cast<unsigned char>(text[i - 1])) ||
                               !std::isdigit(static_cast<unsigned char>(text[i + 1]))))
            return std::nullopt;
        if (text[i] != '_') number += text[i];
    }
    if (number.empty()) return std::nullopt;
    double value = 0;
    auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (ec != std::errc() || ptr != number.data() + number.size()) return std::nullopt;
    std::string unit;
    for (char c : text.substr(end))
        if (!std::isspace(static_cast<unsigned char>(c))) unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const struct {
        const char* name;
        double scale;
    } units[] = {
        {"", 1},           {"b", 1},
        {"k", 1024.0},     {"kib", 1024.0},           {"kb", 1e3},
        {"m", 1048576.0},  {"mib", 1048576.0},        {"mb", 1e6},
        {"g", 1073741824.0}, {"gib", 1073741824.0},   {"gb", 1e9},
        {"t", 1099511627776.0}, {"tib", 1099511627776.0}, {"tb", 1e12},
    };
    for (const auto& u : units)
        if (unit == u.name) {
            const double bytes = value * u.scale;
            return std::isfinite(bytes) ? std::optional(bytes) : std::nullopt;
        }
    return std::nullopt;
}

std::optional<std::string> device_size_problem(double bytes) {
    if (!(bytes > 0)) return "a size above 0";
    if (bytes < 1048576.0)
        return "a size with its unit: a bare number counts bytes, and a device's memory is more than a MiB";
    return std::nullopt;
}

}  // namespace oprec
