// An open document's text as the editor has it, and positions in it as LSP
// states them (0-based line, UTF-16 code units) against the front end's
// Spans (1-based line, code points). The client's edits are applied here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diag/source.h"

namespace oprec::lsp {

struct Pos {
    std::uint32_t line = 0;       // 0-based
    std::uint32_t character = 0;  // UTF-16 code units into the line
    friend bool operator==(const Pos&, const Pos&) = default;
    friend auto operator<=>(const Pos&, const Pos&) = default;
};

struct Range {
    Pos start, end;
    friend bool operator==(const Range&, const Range&) = default;
};

// On one line (no line end): UTF-16 units before the 1-based code-point
// column `col`, and back. Past the line's end they clamp to its end.
std::uint32_t utf16_of_column(std::string_view line, std::uint32_t col);
std::uint32_t column_of_utf16(std::string_view line, std::uint32_t units);
std::uint32_t utf16_length(std::string_view line);

// A Span of a text whose lines `line_at` gives, as an LSP range (a span
// running past its line's end stops there).
template <class Lines>
Range range_of(const Span& span, const Lines& line_at) {
    const std::uint32_t line = span.line == 0 ? 0 : span.line - 1;
    const std::string_view text = line_at(line);
    const std::uint32_t col = span.col == 0 ? 1 : span.col;
    return {{line, utf16_of_column(text, col)}, {line, utf16_of_column(text, col + span.len)}};
}

class Text {
public:
    explicit Text(std::string text = {});
    const std::string& str() const { return text_; }
    std::uint32_t line_count() const { return static_cast<std::uint32_t>(starts_.size()); }
    // A 0-based line without its line end; empty past the last line.
    std::string_view line(std::uint32_t index) const;
    // The byte offset of a position, clamped into the text.
    std::size_t offset(Pos pos) const;
    // Replaces a range (clamped, and put in order if reversed) with `with`.
    void replace(Range range, std::string_view with);
    Range span_range(const Span& span) const {
        return range_of(span, [this](std::uint32_t l) { return line(l); });
    }
    // The position just past the last character.
    Pos end() const;

private:
    void index_lines();
    std::string text_;
    std::vector<std::size_t> starts_;
};

}  // namespace oprec::lsp
