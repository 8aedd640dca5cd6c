#include "check/loader.h"

#include <map>

#include <fmt/format.h>

#include "check/checker.h"
#include "diag/codes.h"
#include "diag/read_file.h"
#include "syntax/parse.h"
#include "yaml/records_yaml.h"

namespace oprec {

namespace fs = std::filesystem;

namespace {


// Imports nest at most this deep (the file named first is depth 1). Loading
// walks an explicit stack, not the C++ one, so the bound is about records a
// person could mean, not about stack size (docs/limits.md).
constexpr int kMaxImportDepth = 1024;

// `regular_only`: an import must be a regular file (`import "/dev/zero"` or a
// FIFO would never end); the file named on the command line may be a pipe.
// Either way no more than the limit is read (records are small).
std::optional<std::string> read_file(const fs::path& path, std::string& why, bool regular_only) {
    return read_file_capped(path, kMaxRecordsBytes, why, regular_only);
}

class Loader {
public:
    Loader(const LoadOptions& options, LoadResult& out) : options_(options), out_(out) {
        for (const auto& [path, text] : options.unsaved) unsaved_.emplace(canonical(path), &text);
    }

    // Loads a file (already read) and, depth first, its imports: a file's
    // module follows those of the files it imports. An explicit stack of
    // open files keeps a long import chain off the C++ stack (under
    // AddressSanitizer a thousand nested loads overflowed it).
    void load(const fs::path& path, std::string text, const std::optional<Span>& imported_at) {
        open(path, std::move(text), imported_at);
        while (!open_.empty()) {
            const std::size_t top = open_.size() - 1;
            const std::vector<ast::Decl>& decls = open_[top].module.decls;
            std::size_t& next = open_[top].next;
            while (next < decls.size() && !std::holds_alternative<ast::ImportDecl>(decls[next])) ++next;
            if (next == decls.size()) {
                close();
                continue;
            }
            // Copies: import() may open a file, and open_ growing moves its entries.
            const ast::ImportDecl imp = std::get<ast::ImportDecl>(decls[next++]);
            const fs::path from = open_[top].path;
            import(open_[top].id, from, imp);
        }
    }

    void import(FileId from_id, const fs::path& from, const ast::ImportDecl& imp) {
        if (imp.path.empty()) {  // it named the importing file's folder
            out_.imports.push_back({from_id, imp.span, std::nullopt, false});
            out_.diagnostics.push_back({Severity::Error, code::kImportMissing, imp.span,
                                        "`import \"\"` names no file", {}, {}});
            return;
        }
        std::vector<fs::path> candidates{from.parent_path() / imp.path};
        for (const fs::path& dir : options_.search_path) candidates.push_back(dir / imp.path);
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            const fs::path& candidate = candidates[c];
            std::error_code ec;
            const auto unsaved = unsaved_.find(canonical(candidate));
            if (unsaved == unsaved_.end() && !fs::exists(candidate, ec)) {
                // Not there goes on to the next place; a path that cannot be
                // resolved at all (a symbolic link to itself) is said as it is.
                if (!ec || ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory) continue;
                out_.imports.push_back({from_id, imp.span, std::nullopt, c > 0});
                out_.diagnostics.push_back({Severity::Error, code::kUnreadableFile, imp.span,
                                            fmt::format("cannot read `{}`: {}", candidate.string(), ec.message()), {}, {}});
                return;
            }
            const std::size_t info = out_.imports.size();
            out_.imports.push_back({from_id, imp.span, std::nullopt, c > 0});
            auto seen = index_.find(canonical(candidate));
            if (seen != index_.end()) {
                out_.imports[info].to = seen->second.id;
                if (seen->second.on_path)
                    out_.diagnostics.push_back({Severity::Error, code::kImportCycle, imp.span,
                                                fmt::format("import cycle: `{}` imports itself through this import",
                                                            imp.path), {}, {}});
                return;  // each file loads once
            }
            std::string why;
            auto text = unsaved != unsaved_.end() ? std::optional<std::string>(*unsaved->second)
                                                  : read_file(candidate, why, /*regular_only=*/true);
            if (!text) {
                out_.diagnostics.push_back({Severity::Error, code::kUnreadableFile, imp.span,
                                            fmt::format("cannot read `{}`: {}", candidate.string(), why), {}, {}});
                return;
            }
            if (open_.size() >= static_cast<std::size_t>(kMaxImportDepth)) {
                out_.diagnostics.push_back({Severity::Error, code::kNestedTooDeep, imp.span,
                                            fmt::format("imports nested deeper than {} files: `{}` is not loaded",
                                                        kMaxImportDepth, imp.path), {}, {}});
                return;
            }
            out_.imports[info].to = static_cast<FileId>(out_.sources.size());  // the id open() gives it
            open(candidate, std::move(*text), imp.span);
            return;
        }
        out_.imports.push_back({from_id, imp.span, std::nullopt, false});
        Diagnostic d{Severity::Error, code::kImportMissing, imp.span,
                     fmt::format("no file `{}` to import", imp.path), {}, {}};
        if (!fs::path(imp.path).is_absolute()) {  // an absolute path is looked for where it says only
            std::string where = from.parent_path().empty() ? "." : from.parent_path().string();
            for (const fs::path& dir : options_.search_path) where += ", " + dir.string();
            d.notes.push_back({{}, fmt::format("searched in: {}", where)});
        }
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
    // A file read and parsed whose imports are being loaded.
    struct OpenFile {
        fs::path path;
        std::string key;
        FileId id;
        ast::Module module;
        std::optional<Span> imported_at;
        std::size_t next = 0;  // the first declaration not yet looked at
    };

    void open(const fs::path& path, std::string text, const std::optional<Span>& imported_at) {
        std::string key = canonical(path);
        const FileId id = out_.sources.add(path.string(), std::move(text));
        index_[key] = Entry{id, true};
        // The reference's YAML records read into the same AST (src/yaml).
        ast::Module module = yaml::is_yaml_path(path) ? yaml::read_records(out_.sources, id, out_.diagnostics)
                                                      : parse_module(out_.sources, id, out_.diagnostics);
        open_.push_back(OpenFile{path, std::move(key), id, std::move(module), imported_at});
    }

    // Its imports loaded, a file's module takes its place.
    void close() {
        OpenFile done = std::move(open_.back());
        open_.pop_back();
        index_[done.key].on_path = false;
        import_site_.push_back(done.imported_at);
        out_.modules.push_back(std::move(done.module));
        out_.files.push_back(std::move(done.path));
    }

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
    std::map<std::string, const std::string*> unsaved_;  // by canonical path, into options_
    std::vector<std::optional<Span>> import_site_;
    std::vector<OpenFile> open_;  // the chain of imports being loaded, the first file at the bottom
};

void finish(LoadResult& result, Loader& loader) {
    // A file that did not parse is empty to the checks, and an import that
    // did not load takes its declarations with it: what the checks would say
    // then (no vocabulary, every op missing) is noise, so they wait.
    const bool front_end_errors = !result.diagnostics.empty();
    std::optional<Program> program;
    if (!front_end_errors) {
        std::vector<Diagnostic> checks;
        program = check_program(result.modules, checks);
        for (std::size_t i = 0; i < result.modules.size(); ++i)
            if (yaml::is_yaml_path(result.files[i])) yaml::point_into_yaml(result.modules[i], checks);
        result.diagnostics.insert(result.diagnostics.end(), checks.begin(), checks.end());
    }
    loader.note_imports();
    if (program) {
        program->sources = result.sources;
        for (const ast::Module& m : result.modules) program->files.push_back(m.file);
        result.program = std::move(program);
    }
}

}  // namespace

LoadResult load_file(const fs::path& path, const LoadOptions& options) {
    LoadResult result;
    std::string why;
    auto text = read_file(path, why, /*regular_only=*/false);
    if (!text) {
        FileId id = result.sources.add(path.string(), "");
        result.diagnostics.push_back({Severity::Error, code::kUnreadableFile, {id, 0, 0, 0},
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
