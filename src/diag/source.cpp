#include "diag/source.h"

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
