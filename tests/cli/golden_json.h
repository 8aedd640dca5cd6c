// Comparing what `oprec` writes as JSON with the golden vectors' encoded
// values (tests/golden/FORMAT.md): ints by their digits, floats by the bits of the
// double the JSON number parses to, bools, errors by kind, dicts in order.
#pragma once

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "golden/golden_support.h"
#include "value/format.h"

namespace oprec::testing {

// "" when `got` (parsed from oprec's output, keys in its order) is the
// golden `expected`, else what differs.
inline std::string json_mismatch(const nlohmann::json& expected, const nlohmann::ordered_json& got) {
    const std::string shown = got.dump();
    if (expected.contains("error")) {
        const auto kind = golden::error_kind_for(expected["error"].get<std::string>());
        if (!kind) return "unknown golden error class " + expected["error"].dump();
        if (!got.is_object() || !got.contains("error") || !got["error"].is_object())
            return fmt::format("expected a {} error, got {}", error_kind_name(*kind), shown);
        if (got["error"].value("kind", "") != error_kind_name(*kind))
            return fmt::format("expected a {} error, got {}", error_kind_name(*kind), shown);
        if (!got["error"].contains("message") || got["error"]["message"].get<std::string>().empty())
            return "an error with no message: " + shown;
        return "";
    }
    const std::string type = expected.value("type", "");
    const std::string repr = expected.value("repr", "");
    if (type == "int") {
        if (got.is_number_unsigned() && std::to_string(got.get<std::uint64_t>()) == repr) return "";
        if (got.is_number_integer() && !got.is_number_unsigned() && std::to_string(got.get<std::int64_t>()) == repr)
            return "";
        return fmt::format("expected int {}, got {}", repr, shown);
    }
    if (type == "float") {
        const std::string hex = expected["hex"].get<std::string>();
        if (got.is_number_float() && float_hex(got.get<double>()) == hex) return "";
        // Non-finite floats are the strings "inf", "-inf", "nan": float.hex's spelling too.
        if (got.is_string() && got.get<std::string>() == hex) return "";
        return fmt::format("expected float {} ({}), got {}", repr, hex, shown);
    }
    if (type == "bool") {
        if (got.is_boolean() && (got.get<bool>() ? "True" : "False") == repr) return "";
        return fmt::format("expected bool {}, got {}", repr, shown);
    }
    if (type == "dict") {
        const auto& items = expected["items"];
        if (!got.is_object() || got.contains("error")) return "expected a dict, got " + shown;
        if (got.size() != items.size()) return fmt::format("expected {} items, got {}", items.size(), shown);
        std::size_t i = 0;
        for (const auto& [key, value] : got.items()) {
            if (items[i][0] != key) return fmt::format("item {}: expected key {}, got {}", i, items[i][0].dump(), key);
            const std::string diff = json_mismatch(items[i][1], value);
            if (!diff.empty()) return key + ": " + diff;
            ++i;
        }
        return "";
    }
    return "unexpected golden value " + expected.dump();
}

}  // namespace oprec::testing
