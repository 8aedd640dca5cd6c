// Hover: what a name is, in Markdown, from its declarations and the
// comments above them (the records document themselves that way).
#include <fmt/format.h>

#include "format/print.h"
#include "lsp/analysis.h"

namespace oprec::lsp {

namespace {

// The comment lines just above a declaration: what the records say it is.
std::string doc_comment(const SourceMap& sources, const Span& at) {
    if (!at.known() || at.file >= sources.size()) return {};
    const SourceFile& f = sources.file(at.file);
    std::vector<std::string> lines;
    for (std::uint32_t l = at.line - 1; l >= 1; --l) {
        std::string_view text = f.line(l);
        const auto first = text.find_first_not_of(" \t");
        if (first == std::string_view::npos || text[first] != '#') break;
        text.remove_prefix(first + 1);
        if (!text.empty() && text[0] == ' ') text.remove_prefix(1);
        lines.emplace_back(text);
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) out += (out.empty() ? "" : " ") + *it;
    return out;
}

std::string code_block(const std::string& code) { return "```rec\n" + code + "\n```"; }

template <class T, class F>
void each_decl(const LoadResult& load, F&& f) {
    for (const ast::Module& m : load.modules)
        for (const ast::Decl& d : m.decls)
            if (const auto* t = std::get_if<T>(&d)) f(*t);
}

}  // namespace

std::string Analysis::hover(const Occurrence& of) const {
    std::string out;
    auto para = [&](const std::string& text) {
        if (text.empty()) return;
        out += (out.empty() ? "" : "\n\n") + text;
    };
    switch (of.kind) {
        case SymbolKind::Value: {
            each_decl<ast::FieldDecl>(load, [&](const ast::FieldDecl& f) {
                if (f.name.text != of.name) return;
                std::string types;
                for (const ast::Ident& t : f.types) types += (types.empty() ? "" : " | ") + t.text;
                para(code_block(fmt::format("{} {} : {}{}", f.context ? "context" : "field", f.name.text, types, f.optional ? "?" : "")));
                para(f.doc + (f.unit.empty() ? "" : fmt::format(" (unit: {})", f.unit)));
            });
            each_decl<ast::DefaultDecl>(load, [&](const ast::DefaultDecl& d) {
                if (d.name.text == of.name) para(fmt::format("default: `{}`", format::expr_source(d.value)));
            });
            if (out.empty()) para(fmt::format("`{}`: not in the field schema", of.name));
            break;
        }
        case SymbolKind::Op:
            each_decl<ast::OpDecl>(load, [&](const ast::OpDecl& d) {
                if (d.name.text != of.name) return;
                para(code_block(format::decl_source(ast::Decl(d))));
                std::string facts = d.switch_name ? fmt::format("dropped by switch `{}`", d.switch_name->text) : "no switch: kept by every selective layer";
                if (!d.needs.empty()) {
                    facts += "; recomputing it needs ";
                    for (std::size_t i = 0; i < d.needs.size(); ++i) facts += (i ? ", `" : "`") + d.needs[i].text + "`";
                }
                para(facts);
                para(doc_comment(load.sources, d.span));
                std::string slots;
                each_decl<ast::SlotDecl>(load, [&](const ast::SlotDecl& s) {
                    for (const ast::SlotEntry& e : s.entries)
                        if (e.target.text == of.name) slots += (slots.empty() ? "" : ", ") + ("`" + s.name.text + "`");
                });
                para(slots.empty() ? "kept in no slot" : "kept in " + slots);
            });
            break;
        case SymbolKind::Slot:
            each_decl<ast::SlotDecl>(load, [&](const ast::SlotDecl& s) {
                if (s.name.text != of.name) return;
                std::string head = fmt::format("slot {} in {}", s.name.text, s.layer_part.text);
                if (s.when) head += " when " + format::expr_source(*s.when);
                for (const ast::SlotEntry& e : s.entries)
                    if (e.target.text == "bytes") head += "\n    bytes = " + format::expr_source(e.expr);
                para(code_block(head));
                para(fmt::format("adds to part `{}`", s.layer_part.text));
                para(doc_comment(load.sources, s.span));
            });
            break;
        case SymbolKind::Fn:
            each_decl<ast::FnDecl>(load, [&](const ast::FnDecl& f) {
                if (f.name.text != of.name) return;
                para(code_block(format::decl_source(ast::Decl(f))));
                para(doc_comment(load.sources, f.name.span));
            });
            break;
        case SymbolKind::Param:
            each_decl<ast::FnDecl>(load, [&](const ast::FnDecl& f) {
                if (f.name.span.line == of.scope.line && f.name.span.col == of.scope.col && f.name.span.file == of.scope.file)
                    para(fmt::format("parameter `{}` of `{}`", of.name, format::decl_source(ast::Decl(f)).substr(0, format::decl_source(ast::Decl(f)).find('='))));
            });
            break;
        case SymbolKind::Switch: {
            std::string ops;
            each_decl<ast::OpDecl>(load, [&](const ast::OpDecl& d) {
                if (d.switch_name && d.switch_name->text == of.name) ops += (ops.empty() ? "`" : ", `") + d.name.text + "`";
            });
            para(code_block("switch " + of.name));
            para(ops.empty() ? "drops no op" : "dropping it (0) recomputes " + ops);
            break;
        }
        case SymbolKind::LayerPart: {
            std::string slots;
            each_decl<ast::SlotDecl>(load, [&](const ast::SlotDecl& s) {
                if (s.layer_part.text == of.name) slots += (slots.empty() ? "`" : ", `") + s.name.text + "`";
            });
            para(code_block("layer part " + of.name));
            para(slots.empty() ? "no slot adds to it" : "the sum of slots " + slots);
            break;
        }
        case SymbolKind::Import: {
            const auto to = imported(of);
            para(code_block("import \"" + of.name + "\""));
            para(to ? "`" + file_path(*to) + "`" : "not found");
            break;
        }
    }
    return out;
}

}  // namespace oprec::lsp
