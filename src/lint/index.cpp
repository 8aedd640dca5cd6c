#include "lint/index.h"

namespace oprec::lint {

Index::Index(const LoadResult& load) : load_(load) {
    const std::size_t files = load.sources.size();
    library_.assign(files, false);
    imported_at_.assign(files, std::nullopt);
    // The import that loaded a file comes first among those naming it; the
    // importing file's own entry is settled before.
    for (const ImportInfo& imp : load.imports) {
        if (!imp.to || *imp.to >= files || imported_at_[*imp.to] || *imp.to == root_) continue;
        imported_at_[*imp.to] = imp.span;
        library_[*imp.to] = imp.via_search_path || library(imp.from);
    }

    auto add_slot_sites = [&](FileId file, const ast::SlotDecl& s) {
        if (s.when) sites.push_back({SiteKind::When, file, &*s.when, &s, nullptr});
        for (const ast::SlotEntry& e : s.entries)
            sites.push_back({e.target.text == "bytes" ? SiteKind::Formula : SiteKind::Entry, file, &e.expr, &s, nullptr});
    };
    for (const ast::Module& m : load.modules) {
        for (const ast::Decl& d : m.decls) {
            if (const auto* f = std::get_if<ast::FieldDecl>(&d)) {
                fields.emplace(f->name.text, Decl<ast::FieldDecl>{m.file, f});
                has_schema = true;
            } else if (const auto* def = std::get_if<ast::DefaultDecl>(&d)) {
                defaults.emplace(def->name.text, Decl<ast::DefaultDecl>{m.file, def});
                default_list.push_back({m.file, def});
                sites.push_back({SiteKind::Default, m.file, &def->value, nullptr, nullptr});
            } else if (const auto* fn = std::get_if<ast::FnDecl>(&d)) {
                fns.emplace(fn->name.text, Decl<ast::FnDecl>{m.file, fn});
                fn_list.push_back({m.file, fn});
                sites.push_back({SiteKind::FnBody, m.file, &fn->body, nullptr, fn});
            } else if (const auto* t = std::get_if<ast::TermDecl>(&d)) {
                terms.push_back({m.file, t});
                sites.push_back({SiteKind::Term, m.file, &t->value, nullptr, nullptr});
            } else if (const auto* op = std::get_if<ast::OpDecl>(&d)) {
                records.emplace(op->name.text, Decl<ast::OpDecl>{m.file, op});
                record_list.push_back({m.file, op});
            } else if (const auto* s = std::get_if<ast::SlotDecl>(&d)) {
                slots.push_back({m.file, s});
                add_slot_sites(m.file, *s);
            } else if (const auto* v = std::get_if<ast::VocabDecl>(&d)) {
                auto& first = v->kind == ast::VocabKind::Switches     ? switches
                              : v->kind == ast::VocabKind::LayerParts ? layer_parts
                                                                      : op_vector;
                if (!first) first = Decl<ast::VocabDecl>{m.file, v};
            }
        }
    }
}

std::optional<Span> Index::imported_at(FileId file) const {
    return file < imported_at_.size() ? imported_at_[file] : std::nullopt;
}

std::optional<Span> Index::user_import(FileId file) const {
    std::optional<Span> site;
    for (std::size_t guard = 0; library(file) && guard < imported_at_.size(); ++guard) {
        site = imported_at(file);
        if (!site) return std::nullopt;
        file = site->file;
    }
    return library(file) ? std::nullopt : site;
}

const ast::FieldDecl* Index::field(const std::string& name) const {
    auto it = fields.find(name);
    return it == fields.end() ? nullptr : it->second.decl;
}

}  // namespace oprec::lint
