#include "lint/suppress.h"

#include <cctype>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "diag/codes.h"

namespace oprec::lint {

namespace {

// The byte offset of the `#` that starts a comment, if the line has one
// (a `#` inside a string is not one).
std::optional<std::size_t> comment_start(std::string_view line) {
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote != 0) {
            if (c == '\\') ++i;
            else if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#') {
            return i;
        }
    }
    return std::nullopt;
}

bool code_like(std::string_view t) {
    if (t.size() != 5 || !std::isalpha(static_cast<unsigned char>(t[0]))) return false;
    for (std::size_t i = 1; i < 5; ++i)
        if (!std::isdigit(static_cast<unsigned char>(t[i]))) return false;
    return true;
}

std::uint32_t col_of(std::string_view line, std::size_t byte) {
    return static_cast<std::uint32_t>(column_count(line.substr(0, byte)) + 1);
}

void scan_line(FileId file, std::uint32_t number, std::string_view line, std::vector<Suppression>& out,
               std::vector<Diagnostic>& bad) {
    auto hash = comment_start(line);
    if (!hash) return;
    std::string_view rest = line.substr(*hash + 1);
    std::size_t at = *hash + 1;
    auto skip_space = [&] {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
    };
    auto word = [&](std::string_view w) {
        if (line.substr(at, w.size()) != w) return false;
        at += w.size();
        return true;
    };
    skip_space();
    if (!word("rec:")) return;
    skip_space();
    const std::uint32_t comment_col = col_of(line, *hash);
    const Span comment{file, number, comment_col, static_cast<std::uint32_t>(column_count(rest) + 1)};
    // `# rec: layer PATH` chooses the layer `oprec lsp` prices live
    // (docs/lsp.md): the linter's business is only that it names a path.
    if (word("layer")) {
        skip_space();
        if (at >= line.size())
            bad.push_back({Severity::Warning, code::kBadSuppression, comment, "`# rec: layer` names no layer document", {}, {}});
        return;
    }
    if (!word("allow")) {
        bad.push_back({Severity::Warning, code::kBadSuppression, comment,
                       "a `# rec:` comment that is not `# rec: allow CODE` or `# rec: layer PATH`", {}, {}});
        return;
    }
    const bool alone = line.substr(0, *hash).find_first_not_of(" \t") == std::string_view::npos;
    const std::size_t first = out.size();
    for (;;) {
        while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == ',')) ++at;
        std::size_t end = at;
        while (end < line.size() && std::isalnum(static_cast<unsigned char>(line[end]))) ++end;
        const std::string_view token = line.substr(at, end - at);
        if (!code_like(token)) break;
        const Span where{file, number, col_of(line, at), 5};
        const CodeInfo* info = find_code(token);
        if (info == nullptr) {
            bad.push_back({Severity::Warning, code::kBadSuppression, where,
                           fmt::format("`{}` is no warning's code", token), {}, {}});
        } else if (info->severity == Severity::Error) {
            bad.push_back({Severity::Warning, code::kBadSuppression, where,
                           fmt::format("`{}` is an error: errors cannot be allowed", token), {}, {}});
        } else {
            out.push_back({std::string(token), where, comment, number, alone ? number + 1 : number, false, false});
        }
        at = end;
    }
    if (out.size() == first + 1) out.back().sole = true;
    if (out.size() == first && (bad.empty() || bad.back().span.line != number || bad.back().span.file != file))
        bad.push_back({Severity::Warning, code::kBadSuppression, comment,
                       "this `# rec: allow` names no code: write `# rec: allow W0109`", {}, {}});
}

}  // namespace

std::vector<Suppression> find_suppressions(const Index& index, std::vector<Diagnostic>& bad) {
    std::vector<Suppression> out;
    for (const ast::Module& m : index.load().modules) {
        if (index.library(m.file)) continue;
        const SourceFile& f = index.sources().file(m.file);
        for (std::uint32_t n = 1; n <= f.line_count(); ++n) scan_line(m.file, n, f.line(n), out, bad);
    }
    return out;
}

void apply_suppressions(std::vector<Diagnostic>& diags, std::vector<Suppression>& sups) {
    using Key = std::tuple<FileId, std::uint32_t, std::string>;  // file, line, code
    std::multimap<Key, std::size_t> covers;
    for (std::size_t i = 0; i < sups.size(); ++i)
        for (std::uint32_t line = sups[i].first_line; line <= sups[i].last_line; ++line)
            covers.emplace(Key{sups[i].span.file, line, sups[i].code}, i);
    std::vector<Diagnostic> kept;
    kept.reserve(diags.size());
    for (Diagnostic& d : diags) {
        bool dropped = false;
        if (d.severity == Severity::Warning) {
            auto [from, to] = covers.equal_range(Key{d.span.file, d.span.line, d.code});
            for (auto it = from; it != to; ++it) {
                sups[it->second].used = true;
                dropped = true;
            }
        }
        if (!dropped) kept.push_back(std::move(d));
    }
    diags = std::move(kept);
}

void report_unused(const std::vector<Suppression>& sups, std::vector<Diagnostic>& out) {
    for (const Suppression& s : sups) {
        if (s.used) continue;
        Diagnostic d{Severity::Warning, code::kUnusedSuppression, s.span,
                     fmt::format("this `# rec: allow {}` suppresses nothing: no {} is reported on the line it covers",
                                 s.code, s.code), {}, {}};
        d.fix = s.sole ? FixIt{s.comment, "", "remove the comment"}
                       : FixIt{s.span, "", fmt::format("remove `{}` from the comment", s.code)};
        out.push_back(std::move(d));
    }
}

}  // namespace oprec::lint
