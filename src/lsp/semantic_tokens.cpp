// Semantic tokens: each name coloured by what it stands for (the TextMate
// grammar cannot tell a field from an op); keywords, numbers and comments
// are left to the grammar.
#include <algorithm>

#include "lsp/features.h"

namespace oprec::lsp {

namespace {
// The legend's order: the index is the token type sent.
const char* const kTypes[] = {"property", "function", "parameter", "method", "enumMember", "enum", "struct", "namespace"};

int type_of(SymbolKind k) {
    switch (k) {
        case SymbolKind::Value: return 0;
        case SymbolKind::Fn: return 1;
        case SymbolKind::Param: return 2;
        case SymbolKind::Op: return 3;
        case SymbolKind::Switch: return 4;
        case SymbolKind::LayerPart: return 5;
        case SymbolKind::Slot: return 6;
        case SymbolKind::Import: return 7;
    }
    return 0;
}
}  // namespace

json semantic_token_legend() {
    json types = json::array();
    for (const char* t : kTypes) types.push_back(t);
    return {{"tokenTypes", types}, {"tokenModifiers", json::array({"declaration"})}};
}

json semantic_tokens(const Analysis& a, const Text& text) {
    struct Token {
        Range range;
        int type;
        bool declaration;
    };
    std::vector<Token> tokens;
    if (a.root)
        for (const Occurrence& o : a.occurrences)
            if (o.span.file == *a.root && o.kind != SymbolKind::Import) {
                const Range r = text.span_range(o.span);
                if (r.end.character > r.start.character) tokens.push_back({r, type_of(o.kind), o.declaration});
            }
    std::sort(tokens.begin(), tokens.end(), [](const Token& x, const Token& y) { return x.range.start < y.range.start; });
    // LSP's relative encoding: line delta, start delta, length, type, modifiers.
    std::vector<std::uint32_t> data;
    Pos prev;
    for (const Token& t : tokens) {
        if (!data.empty() && t.range.start.line == prev.line && t.range.start.character <= prev.character) continue;
        const std::uint32_t dl = t.range.start.line - prev.line;
        const std::uint32_t dc = dl == 0 ? t.range.start.character - prev.character : t.range.start.character;
        data.insert(data.end(), {dl, dc, t.range.end.character - t.range.start.character, static_cast<std::uint32_t>(t.type),
                                 t.declaration ? 1u : 0u});
        prev = t.range.start;
    }
    return {{"data", data}};
}

}  // namespace oprec::lsp
