#include "yaml/scalar_text.h"

#include <algorithm>

#include "syntax/parse.h"

namespace oprec::yaml {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

ScalarPlace::ScalarPlace(const SourceFile& yaml, FileId file, std::size_t start, const std::string& value)
    : yaml_(yaml), file_(file) {
    const std::string& src = yaml.text();
    std::size_t p = std::min(start, src.size());
    if (p < src.size() && (src[p] == '>' || src[p] == '|')) {  // a block scalar: its text starts a line below
        while (p < src.size() && src[p] != '\n') ++p;
        if (p < src.size()) ++p;
    } else if (p < src.size() && (src[p] == '"' || src[p] == '\'')) {
        ++p;
    }
    // Align the value with the text greedily: folding and indentation only
    // change blank space, so every other character is found as it is. (An
    // escape in a quoted scalar is not: from there on the place is approximate.)
    from_.reserve(value.size());
    for (char c : value) {
        if (!blank(c))
            while (p < src.size() && src[p] != c && blank(src[p])) ++p;
        from_.push_back(std::min(p, src.size()));
        if (p < src.size() && (src[p] == c || (blank(c) && blank(src[p])))) ++p;
    }
    end_ = std::min(p, src.size());
}

Span ScalarPlace::span(std::size_t at, std::uint32_t len) const {
    const std::size_t begin = at < from_.size() ? from_[at] : end_;
    const std::uint32_t line = yaml_.line_of(begin);
    const std::size_t line_start = yaml_.line_start(line);
    const std::string_view text = yaml_.line(line);
    const std::string_view before = std::string_view(yaml_.text()).substr(line_start, begin - line_start);
    const auto col = static_cast<std::uint32_t>(column_count(before) + 1);
    // The length, cut at the end of the line.
    const std::size_t rest = text.size() > before.size() ? column_count(text.substr(before.size())) : 0;
    return {file_, line, col, static_cast<std::uint32_t>(std::min<std::size_t>(len, std::max<std::size_t>(rest, 1)))};
}

Span ScalarPlace::move(const SourceFile& scratch, const Span& s) const {
    if (!s.known()) return {file_, 0, 0, 0};
    if (scratch.line_count() == 0) return span(0, s.len);
    const std::uint32_t line = std::min(s.line, scratch.line_count());
    const std::size_t at = scratch.line_start(line) + byte_of_column(scratch.line(line), s.col);
    return span(at, s.len);
}

namespace {

void move_spans(ast::Expr& e, const ScalarPlace& place, const SourceFile& scratch) {
    e.span = place.move(scratch, e.span);
    for (ast::Expr& kid : e.kids) move_spans(kid, place, scratch);
}

}  // namespace

std::optional<ast::Expr> parse_scalar_expr(const ScalarPlace& place, const std::string& value,
                                           std::vector<Diagnostic>& diags) {
    SourceMap scratch;
    const FileId id = scratch.add("<scalar>", value);
    std::vector<Diagnostic> found;
    std::optional<ast::Expr> e = parse_expression(scratch, id, found);
    const SourceFile& text = scratch.file(id);
    for (Diagnostic& d : found) {
        d.span = place.move(text, d.span);
        for (Note& n : d.notes) n.span = place.move(text, n.span);
        if (d.fix) d.fix->span = place.move(text, d.fix->span);
        diags.push_back(std::move(d));
    }
    if (e) move_spans(*e, place, text);
    return e;
}

}  // namespace oprec::yaml
