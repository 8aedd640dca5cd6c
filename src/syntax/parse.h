// Text -> tokens (ANTLR) -> our AST. Syntax errors become diagnostics; the
// ANTLR parse tree never leaves this stage.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "diag/diagnostic.h"
#include "diag/source.h"
#include "syntax/ast.h"

namespace oprec {

// Deeper nesting than this is refused with a diagnostic, so no input can
// exhaust the stack of the stages after the parser.
inline constexpr int kMaxNesting = 200;
// The deepest expression tree, counting each operator of a chain (a + b + c
// is ((a + b) + c)) as a level: the stages after the parser recurse on it.
inline constexpr int kMaxTreeDepth = 1000;
// The most operands of a comparison or and/or chain (a < b < c, a or b or
// c): one flat node, not a level each, but its count is 16 bits.
inline constexpr std::size_t kMaxChainOperands = 65535;
// Characters the language does not have: past this many, a file is not
// records (binary data, say), and reading on would only repeat the error.
inline constexpr std::size_t kMaxJunk = 1000;
// The most tokens one declaration (a slot with all its entries, say) or one
// expression alone may have: the parser holds a declaration's tokens and
// tree, a few hundred bytes a token, until our AST has it, so this bounds
// its memory whatever the input (docs/limits.md): a chain of 100,000
// comparisons or `and`s still fits. The largest shipped declaration has a
// few hundred.
inline constexpr std::size_t kMaxDeclarationTokens = std::size_t{1} << 18;

// A whole .rec file. On a syntax error the module is empty and `diags` says why.
ast::Module parse_module(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags);

// One expression alone (Python's rules: surrounding blank space and lines
// are ignored, a newline outside brackets ends it).
std::optional<ast::Expr> parse_expression(const SourceMap& sources, FileId file,
                                          std::vector<Diagnostic>& diags);

}  // namespace oprec
