// Declarations nothing uses: W0102 a switch no op or part names, W0103 an op
// or part no slot keeps, W0104 a default no formula reads, W0105 a fn no
// slot or default reaches, W0106 an import nothing of which is used.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "lint/checks.h"
#include "diag/codes.h"

namespace oprec::lint {

namespace {

using K = ast::ExprKind;

struct Usage {
    std::set<std::string> read;        // names read where no parameter hides them
    std::set<std::string> reachable;   // fns a slot or default calls, directly or not
};

Usage usage(const Index& index) {
    Usage u;
    std::map<std::string, std::vector<std::string>> calls;  // fn -> the fns its body calls
    std::vector<std::string> work;
    for (const Site& site : index.sites) {
        std::vector<std::string> params;
        if (site.fn != nullptr)
            for (const ast::Ident& p : site.fn->params) params.push_back(p.text);
        each_expr(*site.expr, [&](const ast::Expr& e) {
            if (e.kind == K::Name && std::find(params.begin(), params.end(), e.name) == params.end())
                u.read.insert(e.name);
            if (e.kind != K::Call) return;
            if (site.fn != nullptr) calls[site.fn->name.text].push_back(e.name);
            else work.push_back(e.name);
        });
    }
    // The fns `oprec fit` calls on each layer kind are used where the records state terms.
    if (!index.terms.empty())
        for (const Decl<ast::FnDecl>& f : index.fn_list)
            if (f.decl->params.empty() &&
                (f.decl->name.text.rfind("layer_", 0) == 0 || f.decl->name.text == "recomputed_layer_bytes"))
                work.push_back(f.decl->name.text);
    while (!work.empty()) {
        std::string fn = std::move(work.back());
        work.pop_back();
        if (!u.reachable.insert(fn).second) continue;
        for (const std::string& callee : calls[fn]) work.push_back(callee);
    }
    return u;
}

void unused_switches(const Index& index, Sink& sink) {
    // No records at all (a file of op profiles): no switch can be used, so none is unused.
    if (!index.switches || index.record_list.empty()) return;
    std::set<std::string> used;
    for (const Decl<ast::OpDecl>& r : index.record_list)
        if (r.decl->switch_name) used.insert(r.decl->switch_name->text);
    for (const ast::Ident& sw : index.switches->decl->names) {
        if (used.count(sw.text)) continue;
        const FileId file = index.switches->file;
        if (!index.library(file)) {
            sink.warn(code::kUnusedSwitch, sw.span,
                      fmt::format("switch `{}` is used by no op or part: setting it changes nothing", sw.text));
        } else if (auto site = index.user_import(file)) {
            // The vocabulary is the library's: say so at the import that brought it.
            sink.warn(code::kUnusedSwitch, *site,
                      fmt::format("switch `{}` of the vocabulary this import brings is used by no op or part",
                                  sw.text))
                .notes.push_back({sw.span, "the switch is declared here"});
        }
    }
}

void unkept_records(const Index& index, Sink& sink) {
    std::set<std::string> kept;
    for (const Decl<ast::SlotDecl>& s : index.slots)
        for (const ast::SlotEntry& e : s.decl->entries) kept.insert(e.target.text);
    std::set<std::string> kept_through_part;  // ops a kept part belongs to
    for (const Decl<ast::OpDecl>& r : index.record_list)
        if (r.decl->part_of && kept.count(r.decl->name.text)) kept_through_part.insert(r.decl->part_of->text);
    for (const Decl<ast::OpDecl>& r : index.record_list) {
        const ast::OpDecl& op = *r.decl;
        if (index.library(r.file) || op.comm || index.records.at(op.name.text).decl != &op) continue;
        if (kept.count(op.name.text) || (!op.is_part() && kept_through_part.count(op.name.text))) continue;
        Diagnostic& d = sink.warn(code::kUnkeptOp, op.name.span,
                                  fmt::format("{} `{}` is kept in no slot: it prices at 0 bytes whatever its switch",
                                              op.is_part() ? "part" : "op", op.name.text));
        d.notes.push_back({{}, fmt::format("name it in the slot that holds what it keeps (`{} = ...`), or mark it "
                                           "`comm` if it is communication, priced elsewhere",
                                           op.name.text)});
    }
}

void unused_defaults_and_fns(const Index& index, const Usage& u, Sink& sink) {
    for (const Decl<ast::DefaultDecl>& d : index.default_list) {
        if (index.library(d.file) || u.read.count(d.decl->name.text)) continue;
        sink.warn(code::kUnusedDefault, d.decl->name.span,
                  fmt::format("default `{}` is never read: no formula reads `{}`", d.decl->name.text, d.decl->name.text));
    }
    for (const Decl<ast::FnDecl>& f : index.fn_list) {
        if (index.library(f.file) || u.reachable.count(f.decl->name.text)) continue;
        sink.warn(code::kUnusedFn, f.decl->name.span,
                  fmt::format("fn `{}` is never called by a slot, default or term, directly or through other fns",
                              f.decl->name.text));
    }
}

// Whether a module declares anything the records use.
bool module_used(const ast::Module& m, const Usage& u) {
    for (const ast::Decl& d : m.decls) {
        if (std::holds_alternative<ast::ImportDecl>(d)) continue;
        if (const auto* fn = std::get_if<ast::FnDecl>(&d)) {
            if (u.reachable.count(fn->name.text)) return true;
        } else if (const auto* def = std::get_if<ast::DefaultDecl>(&d)) {
            if (u.read.count(def->name.text)) return true;
        } else {
            return true;  // the vocabulary, the schema, ops, parts, slots: always in use
        }
    }
    return false;
}

void unused_imports(const Index& index, const Usage& u, Sink& sink) {
    const LoadResult& load = index.load();
    std::map<FileId, const ast::Module*> modules;
    for (const ast::Module& m : load.modules) modules[m.file] = &m;
    std::map<FileId, std::vector<FileId>> imports;
    for (const ImportInfo& imp : load.imports)
        if (imp.to) imports[imp.from].push_back(*imp.to);
    // A file is used if it, or a file it imports (transitively), declares something used.
    auto used = [&](FileId start) {
        std::set<FileId> seen{start};
        std::vector<FileId> work{start};
        while (!work.empty()) {
            FileId f = work.back();
            work.pop_back();
            if (auto m = modules.find(f); m != modules.end() && module_used(*m->second, u)) return true;
            for (FileId next : imports[f])
                if (seen.insert(next).second) work.push_back(next);
        }
        return false;
    };
    // The path as the import writes it, by the import's place.
    std::map<std::tuple<FileId, std::uint32_t, std::uint32_t>, std::string> written;
    for (const ast::Module& m : load.modules)
        for (const ast::Decl& d : m.decls)
            if (const auto* imp = std::get_if<ast::ImportDecl>(&d))
                written[{imp->span.file, imp->span.line, imp->span.col}] = imp->path;
    std::map<std::pair<FileId, FileId>, Span> first;  // (importer, imported) -> the first import
    for (const ImportInfo& imp : load.imports) {
        if (!imp.to || index.library(imp.from) || *imp.to == index.root()) continue;
        const std::string& path = written[{imp.span.file, imp.span.line, imp.span.col}];
        auto [it, fresh] = first.emplace(std::make_pair(imp.from, *imp.to), imp.span);
        if (!fresh) {
            Diagnostic& d = sink.warn(code::kUnusedImport, imp.span, fmt::format("`{}` is already imported", path));
            d.notes.push_back({it->second, "first imported here"});
            d.fix = FixIt{imp.span, "", "remove the repeated import"};
        } else if (!used(*imp.to)) {
            Diagnostic& d = sink.warn(code::kUnusedImport, imp.span,
                                      fmt::format("nothing `{}` declares is used by these records", path));
            d.fix = FixIt{imp.span, "", "remove the import"};
        }
    }
}

}  // namespace

void check_usage(const Index& index, Sink& sink) {
    const Usage u = usage(index);
    unused_switches(index, sink);
    unkept_records(index, sink);
    unused_defaults_and_fns(index, u, sink);
    unused_imports(index, u, sink);
}

}  // namespace oprec::lint
