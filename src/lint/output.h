// The forms `oprec lint` writes: text as a compiler writes it, JSON (one
// object per diagnostic) and SARIF 2.1.0 for code-scanning tools.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lint/lint.h"

namespace oprec::lint {

// Where a span is, for the machine forms: 1-based lines and columns in
// characters, the end column one past the last character (SARIF's way).
struct Range {
    std::uint32_t line = 0, column = 0, end_line = 0, end_column = 0;
};
std::optional<Range> range_of(const Span& span, const SourceMap& sources);

std::string text_output(const std::vector<Report>& reports, bool color);
nlohmann::ordered_json json_output(const std::vector<Report>& reports);
nlohmann::ordered_json sarif_output(const std::vector<Report>& reports);

}  // namespace oprec::lint
