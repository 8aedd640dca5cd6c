#include "lsp/text.h"

#include <algorithm>

namespace oprec::lsp {

namespace {
// UTF-16 units of the character at `at` (a 4-byte UTF-8 sequence is a
// surrogate pair; anything else, also a stray byte, one unit).
std::uint32_t units_at(std::string_view line, std::size_t at, std::size_t bytes) {
    return bytes == 4 && (static_cast<unsigned char>(line[at]) & 0xF8) == 0xF0 ? 2 : 1;
}
}  // namespace

std::uint32_t utf16_of_column(std::string_view line, std::uint32_t col) {
    std::uint32_t units = 0;
    std::size_t at = 0;
    for (std::uint32_t c = 1; c < col && at < line.size(); ++c) {
        const std::size_t n = utf8_length(line, at);
        units += units_at(line, at, n);
        at += n;
    }
    return units;
}

std::uint32_t column_of_utf16(std::string_view line, std::uint32_t units) {
    std::uint32_t col = 1, seen = 0;
    std::size_t at = 0;
    while (at < line.size() && seen < units) {
        const std::size_t n = utf8_length(line, at);
        seen += units_at(line, at, n);
        at += n;
        ++col;
    }
    return col;
}

std::uint32_t utf16_length(std::string_view line) {
    return utf16_of_column(line, static_cast<std::uint32_t>(line.size()) + 1);
}

Text::Text(std::string text) : text_(std::move(text)) { index_lines(); }

void Text::index_lines() {
    starts_.assign(1, 0);
    // A line ends at \n, \r\n or a lone \r, as LSP and our lexer count lines.
    for (std::size_t i = 0; i < text_.size(); ++i)
        if (text_[i] == '\n' || (text_[i] == '\r' && (i + 1 == text_.size() || text_[i + 1] != '\n')))
            starts_.push_back(i + 1);
}

std::string_view Text::line(std::uint32_t index) const {
    if (index >= starts_.size()) return {};
    const std::size_t start = starts_[index];
    std::size_t end = index + 1 < starts_.size() ? starts_[index + 1] - 1 : text_.size();
    if (end > start && text_[end - 1] == '\r') --end;
    return std::string_view(text_).substr(start, end - start);
}

std::size_t Text::offset(Pos pos) const {
    if (pos.line >= starts_.size()) return text_.size();
    const std::string_view l = line(pos.line);
    // Bytes of the first `character` units: walk the line's characters.
    std::size_t at = 0;
    std::uint32_t seen = 0;
    while (at < l.size() && seen < pos.character) {
        const std::size_t n = utf8_length(l, at);
        seen += units_at(l, at, n);
        at += n;
    }
    return starts_[pos.line] + at;
}

void Text::replace(Range range, std::string_view with) {
    std::size_t from = offset(range.start), to = offset(range.end);
    if (from > to) std::swap(from, to);
    text_.replace(from, to - from, with);
    index_lines();
}

Pos Text::end() const {
    const auto last = static_cast<std::uint32_t>(starts_.size() - 1);
    return {last, utf16_length(line(last))};
}

}  // namespace oprec::lsp
