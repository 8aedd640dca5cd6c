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

// What a terminal shows of a line: a window of at most kMaxShown characters
// around a column (a line of binary junk or megabytes is cut), control
// characters and bytes that are not UTF-8 as `?`.
constexpr std::size_t kMaxShown = 200;

struct Window {
    std::size_t begin = 0, end = 0;  // byte offsets into the line
    std::uint32_t first_col = 1;     // the character column `begin` is at
};

Window window(std::string_view line, std::uint32_t col) {
    Window w;
    const std::uint32_t first = col > kMaxShown / 2 ? col - static_cast<std::uint32_t>(kMaxShown / 2) : 1;
    w.begin = byte_of_column(line, first);
    w.first_col = first;
    w.end = w.begin;
    for (std::size_t n = 0; n < kMaxShown && w.end < line.size(); ++n) w.end += utf8_length(line, w.end);
    return w;
}

void show(std::string& out, std::string_view text) {
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = utf8_length(text, at);
        const unsigned char u = static_cast<unsigned char>(text[at]);
        const bool bad = (n == 1 && u >= 0x80) || (u < 0x20 && u != '\t') || u == 0x7f;
        if (bad) out += '?'; else out.append(text, at, n);
        at += n;
    }
}

// Spaces (a tab where the line has one, so the caret lines up) from the
// window's start to a column.
void pad(std::string& out, std::string_view line, const Window& w, std::uint32_t col) {
    std::size_t at = w.begin;
    for (std::uint32_t c = w.first_col; c < col && at < w.end; ++c) {
        out += line[at] == '\t' ? '\t' : ' ';
        at += utf8_length(line, at);
    }
}

// The characters of the span that are on its line and in the window, at least 1.
std::size_t caret_width(std::string_view line, const Window& w, const Span& span) {
    const std::size_t from = byte_of_column(line, span.col);
    const std::size_t on_line = from < w.end ? column_count(line.substr(from, w.end - from)) : 0;
    return std::max<std::size_t>(1, std::min<std::size_t>(span.len, on_line));
}

// The source line and a caret range under the span; nothing where the span is unknown.
void quote(std::string& out, const Span& span, const SourceMap& sources, bool color) {
    if (!span.known() || span.file >= sources.size()) return;
    std::string_view line = sources.file(span.file).line(span.line);
    const std::uint32_t col = std::max<std::uint32_t>(span.col, 1);
    const Window w = window(line, col);
    std::string gutter = fmt::format("{:>5} | ", span.line);
    out += gutter;
    show(out, line.substr(w.begin, w.end - w.begin));
    out += '\n';
    out += std::string(gutter.size() - 2, ' ') + "| ";
    pad(out, line, w, col);
    if (color) out += "\x1b[1;32m";
    out += '^';
    out += std::string(caret_width(line, w, span) - 1, '~');
    if (color) out += "\x1b[0m";
    out += '\n';
}

// The line as the fix would leave it, with `~` under the new text: shown for
// a replacement within one line.
void quote_fix(std::string& out, const FixIt& fix, const SourceMap& sources, bool color) {
    if (!fix.span.known() || fix.span.file >= sources.size() || fix.replacement.empty()) return;
    std::string_view line = sources.file(fix.span.file).line(fix.span.line);
    const std::size_t from = byte_of_column(line, std::max<std::uint32_t>(fix.span.col, 1));
    const std::size_t to = byte_of_column(line.substr(from), fix.span.len + 1) + from;
    if (from >= line.size() || fix.span.len >= (1u << 16)) return;
    const std::string fixed = std::string(line.substr(0, from)) + fix.replacement + std::string(line.substr(to));
    const std::uint32_t col = std::max<std::uint32_t>(fix.span.col, 1);
    const Window w = window(fixed, col);
    std::string gutter = fmt::format("{:>5} | ", fix.span.line);
    out += gutter;
    show(out, std::string_view(fixed).substr(w.begin, w.end - w.begin));
    out += '\n';
    out += std::string(gutter.size() - 2, ' ') + "| ";
    pad(out, fixed, w, col);
    Span added{fix.span.file, fix.span.line, col, static_cast<std::uint32_t>(column_count(fix.replacement))};
    if (color) out += "\x1b[1;32m";
    out += std::string(caret_width(fixed, w, added), '~');
    if (color) out += "\x1b[0m";
    out += '\n';
}

// A message as the terminal may show it: a control byte quoted from the
// input (`unexpected ESC`) as \xNN, not sent to the terminal to act on.
std::string visible(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
        else out += c;
    }
    return out;
}

}  // namespace

std::string render(const Diagnostic& d, const SourceMap& sources, bool color) {
    std::string out;
    const char* bold = color ? "\x1b[1m" : "";
    const char* reset = color ? "\x1b[0m" : "";
    out += fmt::format("{}{}:{} {}{}:{} {}{}{}", bold, sources.where(d.span), reset,
                       color ? severity_colour(d.severity) : "", severity_name(d.severity), reset,
                       bold, visible(d.message), reset);
    if (!d.code.empty()) out += fmt::format(" [{}]", d.code);
    out += '\n';
    quote(out, d.span, sources, color);
    for (const Note& n : d.notes) {
        if (n.span.known())
            out += fmt::format("{}: note: {}\n", sources.where(n.span), visible(n.message));
        else
            out += fmt::format("note: {}\n", visible(n.message));
        quote(out, n.span, sources, color);
    }
    if (d.fix) {
        if (d.fix->message.empty())
            out += fmt::format("help: did you mean `{}`?\n", visible(d.fix->replacement));
        else
            out += fmt::format("help: {}\n", visible(d.fix->message));
        quote_fix(out, *d.fix, sources, color);
    }
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
