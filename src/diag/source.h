// Source text and positions: every AST node, check and runtime error points
// back into a file through a Span.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace oprec {

using FileId = std::uint32_t;

// A range of one line of a source file: 1-based line and column, and its
// length, counted in characters as the lexer counts them (Unicode code
// points; a byte that is not valid UTF-8 counts as one), at least 1 where it
// names something.
struct Span {
    FileId file = 0;
    std::uint32_t line = 0;
    std::uint32_t col = 0;
    std::uint32_t len = 0;

    bool known() const { return line != 0; }
};

class SourceFile {
public:
    SourceFile(std::string path, std::string text);
    const std::string& path() const { return path_; }
    const std::string& text() const { return text_; }
    std::uint32_t line_count() const { return static_cast<std::uint32_t>(line_starts_.size()); }
    // The text of a 1-based line, without its line end.
    std::string_view line(std::uint32_t number) const;
    // The 1-based line that holds a byte offset, and the offset a line starts at.
    std::uint32_t line_of(std::size_t offset) const;
    std::size_t line_start(std::uint32_t number) const { return line_starts_[number - 1]; }

private:
    std::string path_;
    std::string text_;
    std::vector<std::size_t> line_starts_;
};

// UTF-8 on a line: the length in bytes of the character at `at` (1 for a
// byte that starts no valid character), and the byte offset of a 1-based
// character column (the line's size past its end).
std::size_t utf8_length(std::string_view text, std::size_t at);
std::size_t byte_of_column(std::string_view line, std::uint32_t col);
// The number of characters of `text`.
std::size_t column_count(std::string_view text);

// The files of one load, by FileId. Files are never removed, so ids stay valid.
class SourceMap {
public:
    FileId add(std::string path, std::string text);
    const SourceFile& file(FileId id) const { return files_.at(id); }
    std::size_t size() const { return files_.size(); }
    // "path:line:col"
    std::string where(const Span& span) const;

private:
    std::vector<SourceFile> files_;
};

}  // namespace oprec
