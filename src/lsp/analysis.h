// What the server knows of one document, without any protocol: the load of
// its text (imports read from disk beside it, then the search path), the
// linter's diagnostics, and every name in every loaded file with what it
// stands for, so hover, definition, references, rename, completion and
// semantic tokens are lookups. Built anew on each change (a few ms on the
// shipped records); it holds no pointers into the AST it was built from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/loader.h"
#include "diag/diagnostic.h"
#include "diag/source.h"

namespace oprec::lsp {

// What a name stands for. Fields, context values and defaults share one
// namespace (a default is a field's value), so they are one kind.
enum class SymbolKind : std::uint8_t { Value, Fn, Param, Op, Switch, LayerPart, Slot, Import };

const char* symbol_kind_name(SymbolKind kind);

struct Occurrence {
    SymbolKind kind = SymbolKind::Value;
    std::string name;
    Span span;                 // the name (an import: its declaration)
    bool declaration = false;  // where the name is declared (a field, op, fn, ...)
    Span scope;                // a Param: its fn's name; else unknown
    bool same_symbol(const Occurrence& o) const {
        return kind == o.kind && name == o.name && (kind != SymbolKind::Param || (scope.file == o.scope.file && scope.line == o.scope.line && scope.col == o.scope.col));
    }
};

// A top-level declaration of the document, for its outline.
struct Outline {
    std::string name;
    std::string detail;  // "slot in attention", "op switch softmax", ...
    SymbolKind kind;
    Span start;  // its keyword (or name)
    std::uint32_t last_line = 0;  // 1-based: a slot's closing brace; else start's line
    Span name_span;
    std::vector<Outline> children;  // a slot's entries
};

struct Analysis {
    std::string path;
    LoadResult load;  // modules and sources; `program` when the text checks
    std::vector<Diagnostic> diagnostics;  // the linter's, every file's
    std::optional<FileId> root;  // the document's file, when it was read
    bool parsed = false;         // the document parsed: its names are known
    std::vector<Occurrence> occurrences;  // every file's, in load order
    std::vector<Outline> outline;         // the root's
    // Why the records are not priced live though they load (budget.h):
    // their evaluation would take too long or nest too deep. A diagnostic
    // (code L0001) says so too.
    std::optional<std::string> unpriced;

    // The name under a 1-based line and code-point column of a file.
    std::optional<Occurrence> at(FileId file, std::uint32_t line, std::uint32_t col) const;
    // Every occurrence of the same symbol, declarations first.
    std::vector<Occurrence> uses(const Occurrence& of) const;
    // The Markdown a hover shows for a name.
    std::string hover(const Occurrence& of) const;
    // Names of a kind, for completion (each once, in declaration order).
    std::vector<std::string> names(SymbolKind kind) const;
    // The path of a file of the load.
    std::string file_path(FileId file) const;
    // The file an import occurrence names, if it was found.
    std::optional<FileId> imported(const Occurrence& import) const;
};

// The code of the server's own diagnostic: records not priced live (budget.h).
inline constexpr const char* kBudgetCode = "L0001";

Analysis analyze(std::string text, std::string path, const LoadOptions& options);

}  // namespace oprec::lsp
