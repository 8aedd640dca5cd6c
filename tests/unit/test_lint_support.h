// Shared by the lint tests: a small records file that lints clean, and
// helpers to lint text and find a diagnostic.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "diag/diagnostic.h"
#include "lint/lint.h"

namespace oprec::lint_test {

// Every op of the vocabulary stated and kept, every switch used, every name
// in the schema: no error, no warning.
inline const std::string kClean = R"(import "vocabulary.rec"
import "fields.rec"

op attMM
op attBMM switch attBMM needs attMM
op softmax switch softmax needs attBMM
op dropout switch dropout needs softmax
op headCast switch headCast needs attBMM
op normOp switch normOp
op gather switch gather comm
op ffMM
op ffAct switch ffAct needs ffMM
op linrec needs attMM
part attUp of attMM switch attUp needs attMM

slot qkv in attention {
    bytes = micro_factor * (s * b * total) / (t * cp)
    attMM = h
    attUp = dh
    attBMM = n_attBMM * dh
    linrec = n_linrec * h
}

slot score in attention {
    bytes = micro_factor * (s * b * total) / (t * cp)
    softmax = n_softmax * bytes_softmax
    dropout = n_softmax * bytes_dropout
    headCast = n_softmax * bytes_compute
}

slot ffn in ffn {
    bytes = micro_factor * (s * b) * total / (t * cp)
    ffMM = hff
    ffAct = bytes_compute * hff
}

slot norm in norm {
    bytes = micro_factor * (s * b * bytes_norm * total) / (t * cp)
    normOp = h * n_normOp
}
)";

// The line the first line appended to kClean gets.
inline std::uint32_t first_added_line() {
    return static_cast<std::uint32_t>(std::count(kClean.begin(), kClean.end(), '\n') + 1);
}

inline lint::Options options() {
    lint::Options o;
    o.load.search_path.push_back(std::string(OPREC_SOURCE_DIR) + "/stdlib");
    return o;
}

inline lint::Report linted(const std::string& text, const std::string& name = "test.rec") {
    return lint::lint_text(text, name, options());
}

inline std::vector<Diagnostic> with_code(const lint::Report& r, const std::string& code) {
    std::vector<Diagnostic> out;
    std::copy_if(r.diagnostics.begin(), r.diagnostics.end(), std::back_inserter(out),
                 [&](const Diagnostic& d) { return d.code == code; });
    return out;
}

// The one diagnostic with `code`; fails the test if there is not exactly one.
inline Diagnostic only(const lint::Report& r, const std::string& code) {
    auto ds = with_code(r, code);
    INFO(render_all(r.diagnostics, r.sources));
    REQUIRE(ds.size() == 1);
    return ds.front();
}

inline std::string codes(const lint::Report& r) {
    std::string out;
    for (const Diagnostic& d : r.diagnostics) out += (out.empty() ? "" : " ") + d.code;
    return out;
}

// The text of a span, for checking a caret range.
inline std::string spanned(const lint::Report& r, const Span& s) {
    std::string_view line = r.sources.file(s.file).line(s.line);
    return std::string(line.substr(byte_of_column(line, s.col),
                                   byte_of_column(line.substr(byte_of_column(line, s.col)), s.len + 1)));
}

}  // namespace oprec::lint_test

namespace oprec::lint_test {

// `text` with the first `from` replaced by `to` (which must be there).
inline std::string edit(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

struct Pos {
    std::uint32_t line, col;
};
// Where `needle` first occurs in `text` (after `after`, if given): 1-based.
inline Pos pos_of(const std::string& text, const std::string& needle, const std::string& after = "") {
    std::size_t start = after.empty() ? 0 : text.find(after);
    REQUIRE(start != std::string::npos);
    const auto at = text.find(needle, start);
    REQUIRE(at != std::string::npos);
    const auto line_start = text.rfind('\n', at);
    const std::uint32_t line = static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + at, '\n') + 1);
    const std::uint32_t col = static_cast<std::uint32_t>(line_start == std::string::npos ? at + 1 : at - line_start);
    return {line, col};
}

// Checks a diagnostic's place: line, column and the text under the carets.
inline void check_at(const lint::Report& r, const Diagnostic& d, const Pos& p, const std::string& text) {
    INFO(render(d, r.sources));
    CHECK(d.span.line == p.line);
    CHECK(d.span.col == p.col);
    CHECK(spanned(r, d.span) == text);
}

}  // namespace oprec::lint_test
