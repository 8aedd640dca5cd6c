// Loading records: read a file and its imports, parse each once, check the
// whole. Imports are searched in the importing file's folder, then in
// `search_path` (the standard library, then OPREC_PATH's folders: the
// command line decides; the library reads no environment).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/program.h"
#include "diag/diagnostic.h"
#include "syntax/ast.h"

namespace oprec {

struct LoadOptions {
    std::vector<std::filesystem::path> search_path;
    // Files as an editor holds them, unsaved: an import of one of these paths
    // reads this text instead of the file (which need not exist). The
    // language server passes its other open documents.
    std::map<std::filesystem::path, std::string> unsaved = {};
};

// One import declaration as the loader resolved it: for the linter (unused
// imports, which files are the library's).
struct ImportInfo {
    FileId from = 0;                // the importing file
    Span span;                      // the declaration
    std::optional<FileId> to;       // the file it names; none if missing or unreadable
    bool via_search_path = false;   // found in the search path, not beside the importing file
};

// Everything a load produced: the program if it checked, and every
// diagnostic (also for the linter, which wants the modules too).
struct LoadResult {
    std::optional<Program> program;
    std::vector<Diagnostic> diagnostics;
    SourceMap sources;
    std::vector<ast::Module> modules;  // imports first
    std::vector<std::filesystem::path> files;  // parallel to modules
    std::vector<ImportInfo> imports;           // every import declaration, in load order
    bool ok() const { return program.has_value(); }
};

LoadResult load_file(const std::filesystem::path& path, const LoadOptions& options);
LoadResult load_text(std::string text, std::string name, const LoadOptions& options);

// The same, throwing LoadError when the records do not check.
Program load_records_file(const std::filesystem::path& path, const LoadOptions& options);
Program load_records_text(std::string text, std::string name, const LoadOptions& options);

}  // namespace oprec
