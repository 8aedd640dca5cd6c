// Diagnostics and their fixes: the linter's output mapped onto LSP's.
#include "lsp/features.h"

#include "diag/codes.h"

namespace oprec::lsp {

namespace {

int severity(Severity s) { return s == Severity::Error ? 1 : s == Severity::Warning ? 2 : 3; }

// Where a diagnostic shows in the document: its own place, or, when it is in
// an imported file, the import that brought that file in.
std::optional<Range> place(const Analysis& a, const Text& text, const Span& span) {
    if (!a.root) return std::nullopt;
    if (span.file == *a.root) return span.known() ? text.span_range(span) : Range{};
    for (const ImportInfo& i : a.load.imports)
        if (i.from == *a.root && i.to == span.file) return text.span_range(i.span);
    return std::nullopt;
}

}  // namespace

json diagnostics(const Analysis& a, const Text& text) {
    json out = json::array();
    for (const Diagnostic& d : a.diagnostics) {
        const auto range = place(a, text, d.span);
        if (!range) continue;
        json item = {{"range", to_json(*range)},
                     {"severity", severity(d.severity)},
                     {"code", d.code},
                     {"source", "oprec"},
                     {"message", d.span.file == *a.root ? d.message : a.file_path(d.span.file) + ": " + d.message}};
        json related = json::array();
        for (const Note& n : d.notes) {
            if (n.span.known())
                related.push_back({{"location", location(a, n.span)}, {"message", n.message}});
            else  // a note with no place (where an import was searched for, advice): in the message
                item["message"] = item["message"].get<std::string>() + "\n" + n.message;
        }
        if (!related.empty()) item["relatedInformation"] = related;
        if (d.fix) item["data"] = {{"fix", d.fix->replacement}};
        out.push_back(std::move(item));
    }
    return out;
}

json code_actions(const Analysis& a, const Text& text, const std::string& uri, const Range& range) {
    json out = json::array();
    if (!a.root) return out;
    for (const Diagnostic& d : a.diagnostics) {
        if (!d.fix || d.span.file != *a.root || d.fix->span.file != *a.root) continue;
        const Range where = text.span_range(d.span);
        if (where.end < range.start || range.end < where.start) continue;
        const std::string title = d.fix->message.empty() ? "Replace with `" + d.fix->replacement + "`" : d.fix->message;
        json diag = {{"range", to_json(where)}, {"severity", severity(d.severity)}, {"code", d.code}, {"source", "oprec"}, {"message", d.message}};
        json edit = {{"range", to_json(text.span_range(d.fix->span))}, {"newText", d.fix->replacement}};
        out.push_back({{"title", title},
                       {"kind", "quickfix"},
                       {"diagnostics", json::array({diag})},
                       {"isPreferred", true},
                       {"edit", {{"changes", {{uri, json::array({edit})}}}}}});
    }
    return out;
}

}  // namespace oprec::lsp
