// Hover, definition, references, rename and the outline: lookups in the
// analysis's occurrences.
#include <algorithm>
#include <regex>
#include <stdexcept>

#include "lsp/features.h"

namespace oprec::lsp {

namespace {

std::optional<Occurrence> under(const Analysis& a, const Text& text, Pos at) {
    if (!a.root) return std::nullopt;
    const auto [line, col] = line_col(text, at);
    if (auto o = a.at(*a.root, line, col)) return o;
    // The cursor just past a name (the usual place after typing it).
    if (col > 1) return a.at(*a.root, line, col - 1);
    return std::nullopt;
}

int symbol_kind(SymbolKind k) {
    // LSP's SymbolKind numbers.
    switch (k) {
        case SymbolKind::Value: return 8;       // Field
        case SymbolKind::Fn: return 12;         // Function
        case SymbolKind::Param: return 13;      // Variable
        case SymbolKind::Op: return 6;          // Method: what a layer does
        case SymbolKind::Switch: return 22;     // EnumMember
        case SymbolKind::LayerPart: return 10;  // Enum
        case SymbolKind::Slot: return 23;       // Struct
        case SymbolKind::Import: return 2;      // Module
    }
    return 13;
}

json symbol(const Outline& o, const Text& text) {
    // From the keyword to the end of the last line: the selection (the name)
    // lies within, as the protocol asks.
    Range whole = text.span_range(o.start);
    const std::uint32_t last = std::max(o.last_line, o.start.line);
    whole.end = {last == 0 ? 0 : last - 1, utf16_length(text.line(last == 0 ? 0 : last - 1))};
    json s = {{"name", o.name},
              {"detail", o.detail},
              {"kind", symbol_kind(o.kind)},
              {"range", to_json(whole)},
              {"selectionRange", to_json(text.span_range(o.name_span))}};
    json kids = json::array();
    for (const Outline& c : o.children) kids.push_back(symbol(c, text));
    if (!kids.empty()) s["children"] = kids;
    return s;
}

}  // namespace

json hover(const Analysis& a, const Text& text, Pos at) {
    const auto o = under(a, text, at);
    if (!o) return nullptr;
    const std::string md = a.hover(*o);
    if (md.empty()) return nullptr;
    return {{"contents", {{"kind", "markdown"}, {"value", md}}}, {"range", to_json(text.span_range(o->span))}};
}

json definition(const Analysis& a, const Text& text, Pos at) {
    const auto o = under(a, text, at);
    if (!o) return nullptr;
    if (o->kind == SymbolKind::Import) {
        const auto to = a.imported(*o);
        if (!to) return nullptr;
        return json::array({{{"uri", uri_of_path(a.file_path(*to))}, {"range", to_json(Range{})}}});
    }
    json out = json::array();
    for (const Occurrence& u : a.uses(*o))
        if (u.declaration) out.push_back(location(a, u.span));
    return out.empty() ? json(nullptr) : out;
}

json references(const Analysis& a, const Text& text, Pos at, bool include_declaration) {
    const auto o = under(a, text, at);
    if (!o) return nullptr;
    json out = json::array();
    for (const Occurrence& u : a.uses(*o))
        if (include_declaration || !u.declaration) out.push_back(location(a, u.span));
    return out;
}

json prepare_rename(const Analysis& a, const Text& text, Pos at) {
    const auto o = under(a, text, at);
    if (!o || o->kind == SymbolKind::Import) return nullptr;
    return {{"range", to_json(text.span_range(o->span))}, {"placeholder", o->name}};
}

json rename(const Analysis& a, const Text& text, Pos at, const std::string& new_name) {
    const auto o = under(a, text, at);
    if (!o) throw std::invalid_argument("no name here to rename");
    if (o->kind == SymbolKind::Import) throw std::invalid_argument("an import names a file: rename the file");
    static const std::regex identifier("[A-Za-z_][A-Za-z_0-9]*");
    if (new_name.size() > 200 || !std::regex_match(new_name, identifier)) throw std::invalid_argument("`" + new_name + "` is not a name");
    json changes = json::object();
    for (const Occurrence& u : a.uses(*o)) {
        const std::string uri = uri_of_path(a.file_path(u.span.file));
        changes[uri].push_back({{"range", to_json(range_in(a, u.span))}, {"newText", new_name}});
    }
    return {{"changes", changes}};
}

json document_symbols(const Analysis& a, const Text& text) {
    json out = json::array();
    for (const Outline& o : a.outline) out.push_back(symbol(o, text));
    return out;
}

}  // namespace oprec::lsp
