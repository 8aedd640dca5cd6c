// A formula in a YAML scalar: parsed by the .rec front end (the language's
// expressions are Python's, as the reference's), its Spans and diagnostics
// moved from the scalar's value to where each character stands in the YAML
// file, whatever the scalar's style (plain, quoted, folded or literal).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "diag/source.h"
#include "syntax/ast.h"

namespace oprec::yaml {

// Where in the YAML file each byte of a scalar's value came from.
class ScalarPlace {
public:
    // `start`: the byte offset yaml-cpp marks the scalar at (its first
    // character, its opening quote, or its `>`/`|` indicator).
    ScalarPlace(const SourceFile& yaml, FileId file, std::size_t start, const std::string& value);

    // The span in the YAML of `len` characters of the value from byte `at`.
    Span span(std::size_t at, std::uint32_t len) const;
    // A span of the value's own text (a scratch file of the value alone)
    // moved into the YAML.
    Span move(const SourceFile& scratch, const Span& s) const;

private:
    const SourceFile& yaml_;
    FileId file_;
    std::vector<std::size_t> from_;  // per value byte, its YAML byte offset
    std::size_t end_;                // the YAML byte after the scalar's last
};

// The expression a scalar states, its diagnostics into `diags` at the YAML's
// places; nothing when it does not parse.
std::optional<ast::Expr> parse_scalar_expr(const ScalarPlace& place, const std::string& value,
                                           std::vector<Diagnostic>& diags);

}  // namespace oprec::yaml
