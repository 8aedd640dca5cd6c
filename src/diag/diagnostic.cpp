#include "diag/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace oprec {

const char* severity_name(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}

namespace {

const char* severity_colour(Severity s) {
    switch (s) {
    case Severity::Error: return "\x1b[1;31m";
    case Severity::Warning: return "\x1b[1;35m";
    case Severity::Note: return "\x1b[1;36m";
    }
    return "";
}

// The source line and a caret range under the span; nothing where the span is unknown.
void quote(std::string& out, const Span& span, const SourceMap& sources, bool color) {
    if (!span.known() || span.file >= sources.size()) return;
    std::string_view line = sources.file(span.file).line(span.line);
    // Show a line of binary junk or megabytes no longer than a terminal needs.
    constexpr std::size_t kMaxShown = 200;
    std::size_t col = span.col == 0 ? 0 : span.col - 1;
    std::size_t begin = col > kMaxShown / 2 ? col - kMaxShown / 2 : 0;
    std::string_view shown = line.substr(std::min(begin, line.size()), kMaxShown);
    std::string gutter = fmt::format("{:>5} | ", span.line);
    out += gutter;
    for (char c : shown) {
        unsigned char u = static_cast<unsigned char>(c);
        out += (u < 0x20 && c != '\t') || u == 0x7f ? '?' : c;
    }
    out += '\n';
    out += std::string(gutter.size() - 2, ' ') + "| ";
    std::size_t pad = col - begin;
    for (std::size_t i = 0; i < pad && i < shown.size(); ++i) out += shown[i] == '\t' ? '\t' : ' ';
    std::size_t width = std::max<std::size_t>(1, std::min<std::size_t>(span.len, kMaxShown));
    if (color) out += "\x1b[1;32m";
    out += '^';
    out += std::string(width - 1, '~');
    if (color) out += "\x1b[0m";
    out += '\n';
}

}  // namespace

std::string render(const Diagnostic& d, const SourceMap& sources, bool color) {
    std::string out;
    const char* bold = color ? "\x1b[1m" : "";
    const char* reset = color ? "\x1b[0m" : "";
    out += fmt::format("{}{}:{} {}{}:{} {}{}{}", bold, sources.where(d.span), reset,
                       color ? severity_colour(d.severity) : "", severity_name(d.severity), reset,
                       bold, d.message, reset);
    if (!d.code.empty()) out += fmt::format(" [{}]", d.code);
    out += '\n';
    quote(out, d.span, sources, color);
    for (const Note& n : d.notes) {
        if (n.span.known())
            out += fmt::format("{}: note: {}\n", sources.where(n.span), n.message);
        else
            out += fmt::format("note: {}\n", n.message);
        quote(out, n.span, sources, color);
    }
    if (d.fix) out += fmt::format("help: did you mean `{}`?\n", d.fix->replacement);
    return out;
}

std::string render_all(const std::vector<Diagnostic>& ds, const SourceMap& sources, bool color) {
    std::string out;
    for (const Diagnostic& d : ds) out += render(d, sources, color);
    return out;
}

namespace {
std::string first_line(const std::vector<Diagnostic>& ds, const SourceMap& sources) {
    if (ds.empty()) return "the records did not load";
    return fmt::format("{}: {}", sources.where(ds.front().span), ds.front().message);
}
}  // namespace

LoadError::LoadError(std::vector<Diagnostic> diagnostics, SourceMap sources)
    : std::runtime_error(first_line(diagnostics, sources)),
      diagnostics_(std::move(diagnostics)),
      sources_(std::move(sources)) {}

}  // namespace oprec
