#include "lint/lint.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include <fmt/format.h>

#include "diag/codes.h"
#include "lint/checks.h"
#include "diag/codes.h"
#include "lint/index.h"
#include "lint/suppress.h"

namespace oprec::lint {

namespace {

// Errors after which the modules are incomplete (a file that did not parse
// or load), so warnings about what is unused or unknown would mislead.
bool incomplete(const std::vector<Diagnostic>& diags) {
    return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) {
        return d.code == code::kSyntaxError || d.code == code::kNestedTooDeep || d.code == code::kImportMissing || d.code == code::kUnreadableFile;
    });
}

// A library module (stdlib/fields.rec, ffn.rec, vocabulary.rec): a file in
// a folder of the search path (the standard library, OPREC_PATH's) that,
// with its imports, declares no op, part, slot or profile. It is linted for
// what it states; what a whole records file must have (its vocabulary, a
// record for each op of the op vector, a field schema) and whether its fns
// and defaults are used are its importers' business. Decided by where the
// file is, so an unfinished records file elsewhere is never taken for one.
bool library_module(const LoadResult& load, const std::vector<std::filesystem::path>& search_path) {
    if (load.modules.empty() || load.files.size() != load.modules.size()) return false;
    for (const ast::Module& m : load.modules)
        for (const ast::Decl& d : m.decls)
            if (std::holds_alternative<ast::OpDecl>(d) || std::holds_alternative<ast::SlotDecl>(d) ||
                std::holds_alternative<ast::ProfileDecl>(d) || std::holds_alternative<ast::TermDecl>(d))
                return false;
    std::error_code ec;
    const auto folder = std::filesystem::weakly_canonical(load.files.back(), ec).parent_path();  // the root comes last
    if (ec) return false;
    return std::any_of(search_path.begin(), search_path.end(), [&](const std::filesystem::path& dir) {
        std::error_code e;
        const auto canonical = std::filesystem::weakly_canonical(dir, e);
        return !e && canonical == folder;
    });
}

bool records_file_only(const std::string& code) {
    return code == code::kMissingVocabulary || code == code::kMissingOp || code == code::kUnusedDefault || code == code::kUnusedFn ||
           code == code::kNoSchema;
}

std::vector<Diagnostic> warnings(const Index& index) {
    Sink sink;
    check_names(index, sink);
    check_usage(index, sink);
    check_needs(index, sink);
    check_divisors(index, sink);
    check_conditions(index, sink);
    check_linear(index, sink);
    // A warning in the library is the library's (each check skips its files;
    // this catches a note-less slip).
    std::vector<Diagnostic> out;
    for (Diagnostic& d : sink.diagnostics())
        if (!index.library(d.span.file)) out.push_back(std::move(d));
    return out;
}

}  // namespace

std::size_t Report::count(Severity s) const {
    return static_cast<std::size_t>(
        std::count_if(diagnostics.begin(), diagnostics.end(), [&](const Diagnostic& d) { return d.severity == s; }));
}

Report lint_loaded(LoadResult load, const Options& options) {
    Report report;
    report.could_not_run = load.modules.empty() &&
                           std::any_of(load.diagnostics.begin(), load.diagnostics.end(),
                                       [](const Diagnostic& d) { return d.code == code::kUnreadableFile && !d.span.known(); });
    std::vector<Diagnostic> diags = std::move(load.diagnostics);
    const bool module = library_module(load, options.load.search_path);
    if (module) std::erase_if(diags, [](const Diagnostic& d) { return records_file_only(d.code); });
    if (!report.could_not_run && !incomplete(diags)) {
        report.warnings_checked = true;
        const Index index(load);
        std::vector<Diagnostic> found = warnings(index);
        std::vector<Suppression> sups = find_suppressions(index, found);
        apply_suppressions(found, sups);
        report_unused(sups, found);
        for (Diagnostic& d : found) {
            if (options.disabled.count(d.code) || (module && records_file_only(d.code))) continue;
            // As the loader does for its errors: which import brought the file in.
            if (d.span.file != index.root())
                if (auto site = index.imported_at(d.span.file))
                    d.notes.push_back({*site, fmt::format("`{}` was imported here",
                                                          index.sources().file(d.span.file).path())});
            diags.push_back(std::move(d));
        }
    }
    std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
        return std::tie(a.span.file, a.span.line, a.span.col) < std::tie(b.span.file, b.span.line, b.span.col);
    });
    report.diagnostics = std::move(diags);
    report.sources = std::move(load.sources);
    return report;
}

Report lint_file(const std::filesystem::path& path, const Options& options) {
    return lint_loaded(load_file(path, options.load), options);
}

Report lint_text(std::string text, std::string name, const Options& options) {
    return lint_loaded(load_text(std::move(text), std::move(name), options.load), options);
}

}  // namespace oprec::lint
