#include "check/loader.h"

#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "check/checker.h"
#include "syntax/parse.h"

namespace oprec {

namespace fs = std::filesystem;

namespace {

constexpr const char* kImportMissing = "E0120";
constexpr const char* kImportCycle = "E0121";
constexpr const char* kUnreadable = "E0122";

// A file larger than this is refused unread: records are small.
constexpr std::uintmax_t kMaxFileBytes = 64u << 20;

std::optional<std::string> read_file(const fs::path& path, std::string& why) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        why = "it is a directory";
        return std::nullopt;
    }
    auto size = fs::file_size(path, ec);
    if (!ec && size > kMaxFileBytes) {
        why = fmt::format("it is larger than {} MiB", kMaxFileBytes >> 20);
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = "it cannot be opened";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

class Loader {
public:
    Loader(const LoadOptions& options, LoadResult& out) : options_(options), out_(out) {}

    // Loads a file (already read) and, depth first, its imports.
    void load(const fs::path& path, std::string text, const std::optional<Span>& imported_at) {
        std::string key = canonical(path);
        FileId id = out_.sources.add(path.string(), std::move(text));
        index_[key] = Entry{id, true};
        ast::Module module = parse_module(out_.sources, id, out_.diagnostics);
        for (const ast::Decl& d : module.decls)
            if (const auto* imp = std::get_if<ast::ImportDecl>(&d)) import(path, *imp);
        index_[key].on_path = false;
        import_site_.push_back(imported_at);
        out_.modules.push_back(std::move(module));
        out_.files.push_back(path);
    }

    void import(const fs::path& from, const ast::ImportDecl& imp) {
        std::vector<fs::path> candidates{from.parent_path() / imp.path};
        for (const fs::path& dir : options_.search_path) candidates.push_back(dir / imp.path);
        for (const fs::path& candidate : candidates) {
            std::error_code ec;
            if (!fs::exists(candidate, ec)) continue;
            auto seen = index_.find(canonical(candidate));
            if (seen != index_.end()) {
                if (seen->second.on_path)
                    out_.diagnostics.push_back({Severity::Error, kImportCycle, imp.span,
                                                fmt::format("import cycle: `{}` imports itself through this import",
                                                            imp.path), {}, {}});
                return;  // each file loads once
            }
            std::string why;
            auto text = read_file(candidate, why);
            if (!text) {
                out_.diagnostics.push_back({Severity::Error, kUnreadable, imp.span,
                                            fmt::format("cannot read `{}`: {}", candidate.string(), why), {}, {}});
                return;
            }
            load(candidate, std::move(*text), imp.span);
            return;
        }
        Diagnostic d{Severity::Error, kImportMissing, imp.span,
                     fmt::format("no file `{}` to import", imp.path), {}, {}};
        std::string where = from.parent_path().empty() ? "." : from.parent_path().string();
        for (const fs::path& dir : options_.search_path) where += ", " + dir.string();
        d.notes.push_back({{}, fmt::format("searched in: {}", where)});
        out_.diagnostics.push_back(std::move(d));
    }

    // A diagnostic in an imported file says which import brought the file in.
    void note_imports() {
        std::map<FileId, Span> site;
        for (std::size_t i = 0; i < out_.modules.size(); ++i)
            if (import_site_[i]) site[out_.modules[i].file] = *import_site_[i];
        for (Diagnostic& d : out_.diagnostics) {
            auto it = site.find(d.span.file);
            if (it != site.end() && d.span.known())
                d.notes.push_back({it->second, fmt::format("`{}` was imported here",
                                                           out_.sources.file(d.span.file).path())});
        }
    }

private:
    static std::string canonical(const fs::path& path) {
        std::error_code ec;
        fs::path c = fs::weakly_canonical(path, ec);
        return ec ? path.lexically_normal().string() : c.string();
    }

    struct Entry {
        FileId id;
        bool on_path;
    };
    const LoadOptions& options_;
    LoadResult& out_;
    std::map<std::string, Entry> index_;
    std::vector<std::optional<Span>> import_site_;
};

void finish(LoadResult& result, Loader& loader) {
    const bool front_end_errors = !result.diagnostics.empty();
    std::vector<Diagnostic> checks;
    std::optional<Program> program = check_program(result.modules, checks);
    result.diagnostics.insert(result.diagnostics.end(), checks.begin(), checks.end());
    loader.note_imports();
    if (program && !front_end_errors) {
        program->sources = result.sources;
        for (const ast::Module& m : result.modules) program->files.push_back(m.file);
        result.program = std::move(program);
    }
}

}  // namespace

LoadResult load_file(const fs::path& path, const LoadOptions& options) {
    LoadResult result;
    std::string why;
    auto text = read_file(path, why);
    if (!text) {
        FileId id = result.sources.add(path.string(), "");
        result.diagnostics.push_back({Severity::Error, kUnreadable, {id, 0, 0, 0},
                                      fmt::format("cannot read `{}`: {}", path.string(), why), {}, {}});
        return result;
    }
    Loader loader(options, result);
    loader.load(path, std::move(*text), std::nullopt);
    finish(result, loader);
    return result;
}

LoadResult load_text(std::string text, std::string name, const LoadOptions& options) {
    LoadResult result;
    Loader loader(options, result);
    loader.load(fs::path(name), std::move(text), std::nullopt);
    finish(result, loader);
    return result;
}

namespace {
Program or_throw(LoadResult result) {
    if (!result.program) throw LoadError(std::move(result.diagnostics), std::move(result.sources));
    return std::move(*result.program);
}
}  // namespace

Program load_records_file(const fs::path& path, const LoadOptions& options) {
    return or_throw(load_file(path, options));
}

Program load_records_text(std::string text, std::string name, const LoadOptions& options) {
    return or_throw(load_text(std::move(text), std::move(name), options));
}

}  // namespace oprec
