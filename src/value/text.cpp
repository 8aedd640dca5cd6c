#include "value/text.h"

#include <charconv>
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
    double d = 0;
    auto [q, ec2] = std::from_chars(text.data(), end, d);
    if (ec2 == std::errc() && q == end) return Value::real(d);
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

}  // namespace oprec
