// Hover, definition, references, rename and the outline: lookups in the
// analysis's occurrences.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

#include "lsp/features.h"
#include "syntax/lexer.h"

namespace oprec::lsp {

namespace fs = std::filesystem;

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

// The file name in an import's string (`ffn.rec` of `import "lib/ffn.rec"`).
std::optional<Span> import_file_name(const Analysis& a, const Span& import) {
    if (import.file >= a.load.sources.size()) return std::nullopt;
    const std::string_view line = a.load.sources.file(import.file).line(import.line);
    const std::size_t open = line.find('"', byte_of_column(line, import.col));
    const std::size_t close = open == std::string_view::npos ? open : line.find('"', open + 1);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view inside = line.substr(open + 1, close - open - 1);
    const std::size_t slash = inside.rfind('/');
    const std::size_t from = open + 1 + (slash == std::string_view::npos ? 0 : slash + 1);
    Span out = import;
    out.col = static_cast<std::uint32_t>(column_count(line.substr(0, from)) + 1);
    out.len = static_cast<std::uint32_t>(column_count(line.substr(from, close - from)));
    return out;
}

// An import renamed: the file it names, and every import of that file in
// the loaded files (each keeps its folder).
json rename_import(const Analysis& a, const Occurrence& import, const std::string& new_name) {
    static const std::regex file_name(R"([A-Za-z0-9_.+-]+\.(rec|yaml|yml))");
    if (new_name.size() > 200 || !std::regex_match(new_name, file_name))
        throw std::invalid_argument("`" + new_name + "` is not a file name ending in .rec");
    std::optional<FileId> target;
    for (const ImportInfo& i : a.load.imports)
        if (i.from == import.span.file && i.span.line == import.span.line && i.span.col == import.span.col) {
            if (i.via_search_path) throw std::invalid_argument("`" + import.name + "` is the standard library's: not renamed here");
            target = i.to;
        }
    if (!target) throw std::invalid_argument("`" + import.name + "` was not found: nothing to rename");
    json changes = json::array();
    for (const ImportInfo& i : a.load.imports) {
        if (i.to != target) continue;
        const auto name = import_file_name(a, i.span);
        if (!name) continue;
        json edit = {{"range", to_json(range_in(a, *name))}, {"newText", new_name}};
        changes.push_back({{"textDocument", {{"uri", uri_of_path(a.file_path(i.from))}, {"version", nullptr}}}, {"edits", json::array({edit})}});
    }
    const fs::path old_path = a.file_path(*target);
    changes.push_back({{"kind", "rename"}, {"oldUri", uri_of_path(old_path.string())}, {"newUri", uri_of_path((old_path.parent_path() / new_name).string())}});
    return {{"documentChanges", changes}};
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
    if (!o) return nullptr;
    if (o->kind == SymbolKind::Import) {
        const auto name = import_file_name(a, o->span);
        if (!name) return nullptr;
        return {{"range", to_json(range_in(a, *name))}, {"placeholder", fs::path(o->name).filename().string()}};
    }
    return {{"range", to_json(text.span_range(o->span))}, {"placeholder", o->name}};
}

json rename(const Analysis& a, const Text& text, Pos at, const std::string& new_name) {
    const auto o = under(a, text, at);
    if (!o) throw std::invalid_argument("no name here to rename");
    if (o->kind == SymbolKind::Import) return rename_import(a, *o, new_name);
    static const std::regex identifier("[A-Za-z_][A-Za-z_0-9]*");
    if (new_name.size() > 200 || !std::regex_match(new_name, identifier)) throw std::invalid_argument("`" + new_name + "` is not a name");
    // A keyword, or a name the language gives a meaning, would break the text or change it.
    if (literal_type(new_name) != 0) throw std::invalid_argument("`" + new_name + "` is a keyword");
    for (const char* builtin : {"max", "min", "total", "bytes"})
        if (new_name == builtin) throw std::invalid_argument("`" + new_name + "` is built in");
    // A name the new one would collide with: another of its kind (declared
    // twice), or a parameter and a field or default, the names a formula
    // reads (one would capture the other's reads: fn f(x) = x + h, x renamed
    // h). Conservative: a parameter of any fn, not only those that read it.
    Occurrence taken = *o;
    taken.name = new_name;
    for (const Occurrence& d : a.occurrences) {
        if (new_name == o->name || !d.declaration || d.name != new_name) continue;
        const bool twice = d.same_symbol(taken);
        const auto read = [](SymbolKind k) { return k == SymbolKind::Param || k == SymbolKind::Value; };
        const bool capture = read(o->kind) && read(d.kind) && (o->kind == SymbolKind::Param) != (d.kind == SymbolKind::Param);
        if (twice || capture)
            throw std::invalid_argument(fmt::format("`{}` is taken: the {} declared at {}; renaming would {}", new_name,
                                                    symbol_kind_name(d.kind), a.load.sources.where(d.span),
                                                    twice ? "declare it twice" : "let one capture the other"));
    }
    // The standard library is every project's: a name it declares or reads is not renamed here.
    for (const ImportInfo& i : a.load.imports)
        if (i.via_search_path)
            for (const Occurrence& u : a.uses(*o))
                if (u.span.file == i.to)
                    throw std::invalid_argument(fmt::format("`{}` is also in the standard library ({}): not renamed here",
                                                            o->name, a.load.sources.where(u.span)));
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
