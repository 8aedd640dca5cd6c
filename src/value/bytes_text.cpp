#include "value/bytes_text.h"

#include <cmath>

#include <fmt/format.h>

#include "value/format.h"

namespace oprec {

namespace {
// Groups the digits before the decimal point of a number's text.
std::string grouped(const std::string& text) {
    if (text.find_first_of("eEn") != std::string::npos) return text;  // exponent, inf, nan
    std::size_t start = text[0] == '-' ? 1 : 0;
    std::size_t end = text.find('.');
    if (end == std::string::npos) end = text.size();
    std::string out = text.substr(0, start);
    for (std::size_t i = start; i < end; ++i) {
        out += text[i];
        const std::size_t left = end - i - 1;
        if (left > 0 && left % 3 == 0) out += ',';
    }
    return out + text.substr(end);
}
}  // namespace

std::string exact_bytes(Value v) {
    if (v.is_float() && std::isfinite(v.f) && v.f == std::floor(v.f) && std::fabs(v.f) < 9.007199254740992e15)
        return grouped(fmt::format("{:.0f}", v.f));
    return grouped(repr(v));
}

std::string human_bytes(double b) {
    if (!std::isfinite(b)) return "";
    static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double x = std::fabs(b);
    int u = 0;
    while (x >= 1024.0 && u < 5) {
        x /= 1024.0;
        ++u;
    }
    if (u == 0) return fmt::format("{}{:.0f} B", b < 0 ? "-" : "", x);
    // Past a million PiB, three digits: not three hundred.
    if (x >= 1e6) return fmt::format("{}{:.3g} {}", b < 0 ? "-" : "", x, units[u]);
    return fmt::format("{}{:.2f} {}", b < 0 ? "-" : "", x, units[u]);
}

}  // namespace oprec
