#include "exercise.h"

#include <stdexcept>

#include <fmt/format.h>

#include "diag/codes.h"
#include "lint/lint.h"
#include "lint/output.h"
#include "syntax/scanner.h"

namespace oprec::lint {

namespace {

void check_place(const Span& span, const SourceMap& sources, const std::string& what) {
    if (!span.known()) return;
    if (span.file >= sources.size() || span.line > sources.file(span.file).line_count() + 1 || span.col == 0)
        throw std::logic_error(fmt::format("{} at {}:{}:{} lies outside its file", what, span.file, span.line, span.col));
}

}  // namespace

void exercise_front_end(std::string_view text) {
    // The parser's fast path scans with a hand-written scanner: wherever it
    // takes the text, its tokens must be ANTLR's lexer's.
    if (const auto difference = scanner_disagreement(text)) throw std::logic_error(*difference);
    Options options;
    options.load.search_path.push_back(std::string(OPREC_SOURCE_DIR) + "/stdlib");
    const std::vector<Report> reports{lint_text(std::string(text), "fuzz.rec", options)};
    const Report& r = reports.front();
    for (const Diagnostic& d : r.diagnostics) {
        if (find_code(d.code) == nullptr) throw std::logic_error("undocumented code " + d.code + ": " + d.message);
        check_place(d.span, r.sources, d.code);
        for (const Note& n : d.notes) check_place(n.span, r.sources, d.code + " note");
        if (d.fix) check_place(d.fix->span, r.sources, d.code + " fix");
    }
    (void)text_output(reports, true);
    (void)json_output(reports).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)sarif_output(reports).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace oprec::lint
