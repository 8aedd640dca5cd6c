#include "lint/output.h"

#include <algorithm>

#include <fmt/format.h>

namespace oprec::lint {

using nlohmann::ordered_json;

std::optional<Range> range_of(const Span& span, const SourceMap& sources) {
    if (!span.known() || span.file >= sources.size()) return std::nullopt;
    const std::string_view line = sources.file(span.file).line(span.line);
    const std::uint32_t col = std::max<std::uint32_t>(span.col, 1);
    const std::size_t from = byte_of_column(line, col);
    const std::size_t on_line = column_count(line.substr(from));
    const std::uint32_t len = static_cast<std::uint32_t>(std::max<std::size_t>(1, std::min<std::size_t>(span.len, on_line)));
    return Range{span.line, col, span.line, col + len};
}

std::string text_output(const std::vector<Report>& reports, bool color) {
    std::string out;
    std::size_t errors = 0, warnings = 0;
    for (const Report& r : reports) {
        out += render_all(r.diagnostics, r.sources, color);
        errors += r.count(Severity::Error);
        warnings += r.count(Severity::Warning);
    }
    if (errors + warnings > 0)
        out += fmt::format("{} error{}, {} warning{}\n", errors, errors == 1 ? "" : "s", warnings,
                           warnings == 1 ? "" : "s");
    return out;
}

namespace {

// file, line, column, end_line, end_column: null where unknown.
void put_place(ordered_json& j, const Span& span, const SourceMap& sources) {
    // An unknown place (a note about the formula, not a token) names no file:
    // its file index is 0, the root file's, by default only.
    j["file"] = span.known() && span.file < sources.size() ? ordered_json(sources.file(span.file).path()) : ordered_json();
    auto r = range_of(span, sources);
    j["line"] = r ? ordered_json(r->line) : ordered_json();
    j["column"] = r ? ordered_json(r->column) : ordered_json();
    j["end_line"] = r ? ordered_json(r->end_line) : ordered_json();
    j["end_column"] = r ? ordered_json(r->end_column) : ordered_json();
}

}  // namespace

ordered_json json_output(const std::vector<Report>& reports) {
    ordered_json all = ordered_json::array();
    for (const Report& r : reports)
        for (const Diagnostic& d : r.diagnostics) {
            ordered_json j;
            j["code"] = d.code;
            j["severity"] = severity_name(d.severity);
            j["message"] = d.message;
            put_place(j, d.span, r.sources);
            j["notes"] = ordered_json::array();
            for (const Note& n : d.notes) {
                ordered_json note{{"message", n.message}};
                put_place(note, n.span, r.sources);
                j["notes"].push_back(std::move(note));
            }
            j["fixes"] = ordered_json::array();
            if (d.fix) {
                ordered_json fix{{"message", d.fix->message.empty()
                                                 ? fmt::format("did you mean `{}`?", d.fix->replacement)
                                                 : d.fix->message},
                                 {"replacement", d.fix->replacement}};
                put_place(fix, d.fix->span, r.sources);
                j["fixes"].push_back(std::move(fix));
            }
            all.push_back(std::move(j));
        }
    return all;
}

}  // namespace oprec::lint
