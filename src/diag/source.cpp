#include "diag/source.h"

#include <algorithm>

#include <fmt/format.h>

namespace oprec {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i) {
        // \r\n, \n and a lone \r each end a line, as the lexer counts them.
        if (text_[i] == '\r' && i + 1 < text_.size() && text_[i + 1] == '\n') ++i;
        if (text_[i] == '\n' || text_[i] == '\r') line_starts_.push_back(i + 1);
    }
}

std::string_view SourceFile::line(std::uint32_t number) const {
    if (number == 0 || number > line_starts_.size()) return {};
    std::size_t begin = line_starts_[number - 1];
    std::size_t end = number < line_starts_.size() ? line_starts_[number] : text_.size();
    std::string_view view(text_.data() + begin, end - begin);
    while (!view.empty() && (view.back() == '\n' || view.back() == '\r')) view.remove_suffix(1);
    return view;
}

std::uint32_t SourceFile::line_of(std::size_t offset) const {
    const auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    return static_cast<std::uint32_t>(after - line_starts_.begin());
}

// Strict UTF-8, as std::wstring_convert (ANTLR's decoder) takes it: no
// overlong forms, no surrogates, nothing past U+10FFFF.
std::size_t utf8_length(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char c = byte(at);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) { n = 3; lo = 0xA0; }
    else if (c == 0xED) { n = 3; hi = 0x9F; }
    else if (c >= 0xE1 && c <= 0xEF) n = 3;
    else if (c == 0xF0) { n = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) { n = 4; hi = 0x8F; }
    else return 1;
    if (at + n > text.size() || byte(at + 1) < lo || byte(at + 1) > hi) return 1;
    for (std::size_t k = 2; k < n; ++k)
        if ((byte(at + k) >> 6) != 0x2) return 1;
    return n;
}

std::size_t byte_of_column(std::string_view line, std::uint32_t col) {
    std::size_t at = 0;
    for (std::uint32_t c = 1; c < col && at < line.size(); ++c) at += utf8_length(line, at);
    return std::min(at, line.size());
}

std::size_t column_count(std::string_view text) {
    std::size_t n = 0;
    for (std::size_t at = 0; at < text.size(); at += utf8_length(text, at)) ++n;
    return n;
}

FileId SourceMap::add(std::string path, std::string text) {
    files_.emplace_back(std::move(path), std::move(text));
    return static_cast<FileId>(files_.size() - 1);
}

std::string SourceMap::where(const Span& span) const {
    if (span.file >= files_.size()) return "<unknown>";
    const std::string& path = files_[span.file].path();
    if (!span.known()) return path;
    return fmt::format("{}:{}:{}", path, span.line, span.col);
}

}  // namespace oprec
