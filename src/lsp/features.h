// The requests the server answers, one group per file, each a function of
// the document's analysis and text to the result's JSON (no state, no I/O).
#pragma once

#include <optional>
#include <string>

#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/text.h"

namespace oprec::lsp {

// diagnostics.cpp: the linter's diagnostics of the document's own file (an
// error in an import is shown at the import), and its fix-its as quick fixes.
json diagnostics(const Analysis& a, const Text& text);
json code_actions(const Analysis& a, const Text& text, const std::string& uri, const Range& range);

// navigation.cpp: hover, definition, references, rename, the outline.
json hover(const Analysis& a, const Text& text, Pos at);
json definition(const Analysis& a, const Text& text, Pos at);
json references(const Analysis& a, const Text& text, Pos at, bool include_declaration);
json prepare_rename(const Analysis& a, const Text& text, Pos at);
// Throws std::invalid_argument with the reason a rename cannot be made. An
// import's rename renames its file (a workspace edit's rename operation)
// and every import of it.
json rename(const Analysis& a, const Text& text, Pos at, const std::string& new_name);
json document_symbols(const Analysis& a, const Text& text);

// completion.cpp: what fits where the cursor is.
json completion(const Analysis& a, const Text& text, Pos at);

// formatting.cpp: `oprec fmt` as one edit of the whole text; none when the
// text does not parse (or is already formatted).
json formatting(const Text& text, const std::string& path);

// semantic_tokens.cpp
json semantic_token_legend();
json semantic_tokens(const Analysis& a, const Text& text);

// The document's position of a client's position, as the front end counts.
inline std::pair<std::uint32_t, std::uint32_t> line_col(const Text& text, Pos at) {
    return {at.line + 1, column_of_utf16(text.line(at.line), at.character)};
}

}  // namespace oprec::lsp
