// `oprec fmt`: the canonical layout of a .rec file, as a library function the
// CLI and (later) a language server call. The layout is the shipped records':
// a declaration at the left margin, a block's entries indented four spaces,
// one entry a line; inside brackets the author's line breaks are kept, each
// continuation line indented four past its line when the bracket ends its
// line, else just past the bracket; a formula too long for its line is broken
// at its loosest operators inside parentheses. Spacing is Python's (PEP 8);
// the author's alignment (two or more spaces before a `:` or `=`, or before a
// trailing comment) is kept. Every comment stays on its line; runs of blank
// lines become one. It never changes meaning: the result is checked to parse
// to the same module, and a file that does not parse is refused.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "diag/source.h"

namespace oprec::format {

struct FormatOptions {
    std::size_t line_width = 100;  // a formula on one line longer than this is broken
};

struct Formatted {
    std::optional<std::string> text;  // none when the source does not parse
    std::vector<Diagnostic> diagnostics;
    SourceMap sources;  // to render the diagnostics
    bool ok() const { return text.has_value(); }
};

Formatted format_source(std::string source, std::string name, const FormatOptions& options = {});

}  // namespace oprec::format
