#include "lsp/analysis.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "diag/codes.h"
#include "lint/lint.h"
#include "lsp/budget.h"

namespace oprec::lsp {

namespace {

bool contains(const Span& s, std::uint32_t line, std::uint32_t col) {
    return s.line == line && col >= s.col && col < s.col + std::max<std::uint32_t>(s.len, 1);
}

// An identifier's span: the first `name.size()` characters of where the
// node starts (a call's span covers its arguments too).
Span name_span(Span s, const std::string& name) {
    s.len = static_cast<std::uint32_t>(column_count(name));
    return s;
}

class Collector {
public:
    explicit Collector(std::vector<Occurrence>& out) : out_(out) {}

    void module(const ast::Module& m) {
        file_ = m.file;
        for (const ast::Decl& d : m.decls) std::visit([this](const auto& decl) { this->decl(decl); }, d);
    }

private:
    void add(SymbolKind kind, const ast::Ident& id, bool declaration, Span scope = {}) {
        if (id.text.empty() || !id.span.known()) return;
        out_.push_back({kind, id.text, with_file(name_span(id.span, id.text)), declaration, scope});
    }
    Span with_file(Span s) const {
        s.file = file_;
        return s;
    }

    void expr(const ast::Expr& e, const ast::FnDecl* fn, bool formula) {
        if (e.kind == ast::ExprKind::Name) {
            const bool param = fn != nullptr && std::any_of(fn->params.begin(), fn->params.end(),
                                                            [&](const ast::Ident& p) { return p.text == e.name; });
            if (param)
                add(SymbolKind::Param, {e.name, e.span}, false, with_file(fn->name.span));
            else if (!(formula && e.name == "total"))
                add(SymbolKind::Value, {e.name, e.span}, false);
        } else if (e.kind == ast::ExprKind::Call && e.name != "max" && e.name != "min") {
            add(SymbolKind::Fn, {e.name, e.span}, false);
        }
        for (const ast::Expr& k : e.kids) expr(k, fn, formula);
    }

    void decl(const ast::ImportDecl& d) {
        out_.push_back({SymbolKind::Import, d.path, with_file(d.span), false, {}});
    }
    void decl(const ast::VocabDecl& d) {
        const SymbolKind kind = d.kind == ast::VocabKind::Switches     ? SymbolKind::Switch
                                : d.kind == ast::VocabKind::LayerParts ? SymbolKind::LayerPart
                                                                       : SymbolKind::Op;
        // The switches and layer parts are declared here; the op vector
        // names ops an `op` declares.
        for (const ast::Ident& n : d.names) add(kind, n, kind != SymbolKind::Op);
    }
    void decl(const ast::DefaultDecl& d) {
        add(SymbolKind::Value, d.name, true);
        expr(d.value, nullptr, false);
    }
    void decl(const ast::OpDecl& d) {
        add(SymbolKind::Op, d.name, true);
        if (d.part_of) add(SymbolKind::Op, *d.part_of, false);
        if (d.switch_name) add(SymbolKind::Switch, *d.switch_name, false);
        for (const ast::Ident& n : d.needs) add(SymbolKind::Op, n, false);
    }
    void decl(const ast::SlotDecl& d) {
        add(SymbolKind::Slot, d.name, true);
        add(SymbolKind::LayerPart, d.layer_part, false);
        if (d.when) expr(*d.when, nullptr, false);
        for (const ast::SlotEntry& e : d.entries) {
            const bool formula = e.target.text == "bytes";
            if (!formula) add(SymbolKind::Op, e.target, false);
            expr(e.expr, nullptr, formula);
        }
    }
    void decl(const ast::FnDecl& d) {
        add(SymbolKind::Fn, d.name, true);
        for (const ast::Ident& p : d.params) add(SymbolKind::Param, p, true, with_file(d.name.span));
        expr(d.body, &d, false);
    }
    void decl(const ast::FieldDecl& d) { add(SymbolKind::Value, d.name, true); }
    void decl(const ast::TermDecl& d) {
        add(SymbolKind::Value, d.name, true);
        expr(d.value, nullptr, false);
    }
    void decl(const ast::SettingDecl& d) {
        add(SymbolKind::Value, d.name, false);
        expr(d.value, nullptr, false);
    }
    void decl(const ast::ProfileDecl& d) {
        for (const ast::ProfileKind& k : d.kinds)
            for (const ast::OpCount& c : k.counts)
                if (c.op) add(SymbolKind::Op, *c.op, false);
        for (const ast::SettingDecl& s : d.settings) decl(s);
    }

    std::vector<Occurrence>& out_;
    FileId file_ = 0;
};

std::uint32_t last_line(const ast::Expr& e) {
    std::uint32_t line = e.span.line;
    for (const ast::Expr& k : e.kids) line = std::max(line, last_line(k));
    return line;
}

// The line of a block's closing brace: the first line from `from` on that
// starts with `}` (the formatter's layout), else `from` itself.
std::uint32_t closing_line(const SourceFile& f, std::uint32_t from) {
    for (std::uint32_t l = from; l <= f.line_count(); ++l) {
        const std::string_view text = f.line(l);
        const auto first = text.find_first_not_of(" \t");
        if (first != std::string_view::npos && text[first] == '}') return l;
        if (first != std::string_view::npos && l > from && text[first] != '#' && text[first] != ')' && !std::isspace(static_cast<unsigned char>(text[0])))
            break;  // a declaration at the margin: the brace is missing
    }
    return from;
}

std::vector<Outline> outline_of(const ast::Module& m, const SourceFile& file) {
    std::vector<Outline> out;
    for (const ast::Decl& d : m.decls) {
        if (const auto* op = std::get_if<ast::OpDecl>(&d)) {
            std::string detail = op->is_part() ? "part of " + op->part_of->text : "op";
            if (op->switch_name) detail += ", switch " + op->switch_name->text;
            out.push_back({op->name.text, detail, SymbolKind::Op, op->span, op->span.line, op->name.span, {}});
        } else if (const auto* s = std::get_if<ast::SlotDecl>(&d)) {
            Outline o{s->name.text, "slot in " + s->layer_part.text, SymbolKind::Slot, s->span, s->span.line, s->name.span, {}};
            std::uint32_t end = s->span.line;
            for (const ast::SlotEntry& e : s->entries) {
                end = std::max(end, last_line(e.expr));
                o.children.push_back({e.target.text, e.target.text == "bytes" ? "formula" : "entry", SymbolKind::Op, e.target.span,
                                      last_line(e.expr), e.target.span, {}});
            }
            o.last_line = closing_line(file, end);
            out.push_back(std::move(o));
        } else if (const auto* fn = std::get_if<ast::FnDecl>(&d)) {
            out.push_back({fn->name.text, "fn", SymbolKind::Fn, fn->name.span, last_line(fn->body), fn->name.span, {}});
        } else if (const auto* t = std::get_if<ast::TermDecl>(&d)) {
            out.push_back({t->name.text, t->beside ? "beside" : "term", SymbolKind::Value, t->span, last_line(t->value), t->name.span, {}});
        } else if (const auto* def = std::get_if<ast::DefaultDecl>(&d)) {
            out.push_back({def->name.text, "default", SymbolKind::Value, def->name.span, last_line(def->value), def->name.span, {}});
        } else if (const auto* f = std::get_if<ast::FieldDecl>(&d)) {
            out.push_back({f->name.text, f->context ? "context" : "field", SymbolKind::Value, f->span, f->span.line, f->name.span, {}});
        } else if (const auto* v = std::get_if<ast::VocabDecl>(&d)) {
            out.push_back({ast::vocab_keyword(v->kind), "vocabulary", v->kind == ast::VocabKind::Switches ? SymbolKind::Switch : SymbolKind::LayerPart,
                           v->span, v->span.line, v->span, {}});
        } else if (const auto* imp = std::get_if<ast::ImportDecl>(&d)) {
            out.push_back({imp->path, "import", SymbolKind::Import, imp->span, imp->span.line, imp->span, {}});
        }
    }
    return out;
}

}  // namespace

const char* symbol_kind_name(SymbolKind kind) {
    switch (kind) {
        case SymbolKind::Value: return "field";
        case SymbolKind::Fn: return "fn";
        case SymbolKind::Param: return "parameter";
        case SymbolKind::Op: return "op";
        case SymbolKind::Switch: return "switch";
        case SymbolKind::LayerPart: return "layer part";
        case SymbolKind::Slot: return "slot";
        case SymbolKind::Import: return "import";
    }
    return "name";
}

Analysis analyze(std::string text, std::string path, const LoadOptions& options) {
    Analysis a;
    a.path = path;
    a.load = load_text(std::move(text), std::move(path), options);
    lint::Options lint_options;
    lint_options.load = options;
    a.diagnostics = lint::lint_loaded(a.load, lint_options).diagnostics;
    // The document is the load's last module; when it did not parse there is
    // none of its own, but its text is still the source map's first file.
    if (!a.load.files.empty() && a.load.files.back() == a.path && a.load.modules.size() == a.load.files.size()) {
        a.root = a.load.modules.back().file;
        a.parsed = std::none_of(a.load.diagnostics.begin(), a.load.diagnostics.end(), [&](const Diagnostic& d) {
            return d.span.file == *a.root && (d.code == code::kSyntaxError || d.code == code::kNestedTooDeep);
        });
    } else if (a.load.sources.size() > 0)
        a.root = 0;
    if (a.load.ok()) {
        const PricingCost cost = pricing_cost(a.load.modules);
        if (auto why = over_budget(cost)) {
            a.diagnostics.push_back({Severity::Warning, kBudgetCode, cost.worst, *why, {}, std::nullopt});
            a.unpriced = std::move(why);
        }
    }
    Collector collect(a.occurrences);
    for (const ast::Module& m : a.load.modules) {
        collect.module(m);
        if (a.root && m.file == *a.root) a.outline = outline_of(m, a.load.sources.file(m.file));
    }
    return a;
}

std::optional<Occurrence> Analysis::at(FileId file, std::uint32_t line, std::uint32_t col) const {
    for (const Occurrence& o : occurrences)
        if (o.span.file == file && contains(o.span, line, col)) return o;
    return std::nullopt;
}

std::vector<Occurrence> Analysis::uses(const Occurrence& of) const {
    std::vector<Occurrence> out;
    for (const Occurrence& o : occurrences)
        if (o.same_symbol(of) && o.declaration) out.push_back(o);
    for (const Occurrence& o : occurrences)
        if (o.same_symbol(of) && !o.declaration) out.push_back(o);
    return out;
}

std::vector<std::string> Analysis::names(SymbolKind kind) const {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const Occurrence& o : occurrences)
        if (o.kind == kind && (o.declaration || kind == SymbolKind::Op) && seen.insert(o.name).second) out.push_back(o.name);
    return out;
}

std::string Analysis::file_path(FileId file) const {
    return file < load.sources.size() ? load.sources.file(file).path() : std::string();
}

std::optional<FileId> Analysis::imported(const Occurrence& import) const {
    for (const ImportInfo& i : load.imports)
        if (i.from == import.span.file && i.span.line == import.span.line && i.span.col == import.span.col) return i.to;
    return std::nullopt;
}

}  // namespace oprec::lsp
