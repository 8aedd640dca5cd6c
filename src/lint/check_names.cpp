// W0101: every name a formula reads is provided by the field schema (a layer
// field or a context value), a default, or, in a fn, a parameter.
// W0107: a fn parameter named like one of those hides it in the fn's body.
// W0116: with no schema at all, names cannot be checked.
#include <algorithm>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "lint/checks.h"
#include "diag/codes.h"

namespace oprec::lint {

namespace {

std::string what_provides(const Index& index, const std::string& name) {
    if (const ast::FieldDecl* f = index.field(name)) return f->context ? "context value" : "field";
    return "default";
}

}  // namespace

void check_names(const Index& index, Sink& sink) {
    if (!index.has_schema) {
        sink.warn(code::kNoSchema, Span{index.root(), 0, 0, 0},
                  "the records declare no field schema, so the names their formulas read go unchecked")
            .notes.push_back({{}, "import \"fields.rec\" from the standard library, or declare `field NAME : TYPE` "
                                  "for each field a formula reads"});
        return;
    }
    std::vector<std::string> provided;
    for (const auto& [name, decl] : index.fields) provided.push_back(name);
    for (const auto& [name, decl] : index.defaults)
        if (!index.fields.count(name)) provided.push_back(name);

    for (const Site& site : index.sites) {
        if (index.library(site.file)) continue;
        std::vector<std::string> params;
        if (site.fn != nullptr)
            for (const ast::Ident& p : site.fn->params) params.push_back(p.text);
        each_expr(*site.expr, [&](const ast::Expr& e) {
            if (e.kind != ast::ExprKind::Name || e.name == "total") return;  // `total` elsewhere: E0113
            if (std::find(params.begin(), params.end(), e.name) != params.end()) return;
            if (index.fields.count(e.name) || index.defaults.count(e.name)) return;
            Diagnostic& d = sink.warn(code::kUnknownName, e.span,
                                      fmt::format("unknown name `{}`: no field, context value{} provides it", e.name,
                                                  site.fn != nullptr ? ", default or parameter" : " or default"));
            std::vector<std::string> candidates = provided;
            candidates.insert(candidates.end(), params.begin(), params.end());
            if (auto near = closest_name(e.name, candidates)) d.fix = FixIt{e.span, *near, {}};
            if (index.fns.count(e.name)) d.notes.push_back({{}, fmt::format("`{}` is a fn: call it", e.name)});
        });
    }

    for (const Decl<ast::FnDecl>& fn : index.fn_list) {
        if (index.library(fn.file)) continue;
        for (const ast::Ident& p : fn.decl->params) {
            if (!index.fields.count(p.text) && !index.defaults.count(p.text)) continue;
            const std::string what = what_provides(index, p.text);
            Diagnostic& d = sink.warn(code::kShadowingParam, p.span,
                                      fmt::format("parameter `{}` of fn `{}` shadows the {} `{}`: in the body, `{}` "
                                                  "is the argument, never the {}",
                                                  p.text, fn.decl->name.text, what, p.text, p.text, what));
            const ast::FieldDecl* f = index.field(p.text);
            d.notes.push_back({f != nullptr ? f->name.span : index.defaults.at(p.text).decl->name.span,
                               fmt::format("the {} is declared here", what)});
        }
    }
}

}  // namespace oprec::lint
