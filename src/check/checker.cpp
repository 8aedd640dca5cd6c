#include "check/checker.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "diag/codes.h"
#include "diag/suggest.h"
#include "code/compile.h"

namespace oprec {

namespace {

// Codes of the checks, stable: docs/diagnostics.md documents each.

class Checker {
public:
    explicit Checker(std::vector<Diagnostic>& diags) : diags_(diags) {}

    std::optional<Program> run(const std::vector<ast::Module>& modules);

private:
    template <class T>
    std::vector<const T*> all(const std::vector<ast::Module>& modules) const {
        std::vector<const T*> out;
        for (const ast::Module& m : modules)
            for (const ast::Decl& d : m.decls)
                if (const T* t = std::get_if<T>(&d)) out.push_back(t);
        return out;
    }

    Diagnostic& error(const Span& span, const char* code, std::string message) {
        diags_.push_back({Severity::Error, code, span, std::move(message), {}, {}});
        ++errors_;
        return diags_.back();
    }
    void suggest(Diagnostic& d, const Span& span, const std::string& name, const std::vector<std::string>& known) {
        if (auto near = closest_name(name, known)) d.fix = FixIt{span, *near};
    }
    // Reports a second declaration of a name; true if it is one.
    bool duplicate(std::map<std::string, Span>& seen, const ast::Ident& id, const char* what) {
        auto [it, fresh] = seen.emplace(id.text, id.span);
        if (fresh) return false;
        error(id.span, code::kDuplicateDeclaration, fmt::format("{} `{}` is declared twice", what, id.text))
            .notes.push_back({it->second, "first declared here"});
        return true;
    }

    void vocabulary(const std::vector<ast::Module>& modules);
    void records(const std::vector<ast::Module>& modules);
    void fns(const std::vector<ast::Module>& modules, Compiler& compiler);
    void bound_fns(const std::vector<const ast::FnDecl*>& decls,
                   const std::unordered_map<std::string_view, std::size_t>& index, const std::vector<std::size_t>& order);
    void defaults(const std::vector<ast::Module>& modules, Compiler& compiler);
    void slots(const std::vector<ast::Module>& modules, Compiler& compiler);
    void terms(const std::vector<ast::Module>& modules, Compiler& compiler);
    void schema(const std::vector<ast::Module>& modules);
    std::optional<std::uint32_t> switch_index(const ast::Ident& id);

    std::vector<Diagnostic>& diags_;
    int errors_ = 0;
    Program p_;
    std::vector<FnSignature> signatures_;
};

void Checker::vocabulary(const std::vector<ast::Module>& modules) {
    std::map<ast::VocabKind, Span> seen;
    for (const ast::VocabDecl* v : all<ast::VocabDecl>(modules)) {
        auto [it, fresh] = seen.emplace(v->kind, v->span);
        if (!fresh) {
            error(v->span, code::kDuplicateDeclaration, fmt::format("`{}` is declared twice", ast::vocab_keyword(v->kind)))
                .notes.push_back({it->second, "first declared here"});
            continue;
        }
        std::vector<std::string>& list = v->kind == ast::VocabKind::Switches     ? p_.switches
                                         : v->kind == ast::VocabKind::LayerParts ? p_.layer_parts
                                                                                 : p_.op_vector;
        std::map<std::string, Span> names;
        for (const ast::Ident& id : v->names)
            if (!duplicate(names, id, "the name")) list.push_back(id.text);
    }
    for (auto kind : {ast::VocabKind::Switches, ast::VocabKind::LayerParts, ast::VocabKind::OpVector})
        if (!seen.count(kind)) {
            Span where = modules.empty() ? Span{} : Span{modules.back().file, 1, 1, 1};
            error(where, code::kMissingVocabulary,
                  fmt::format("no `{}` declaration: the records must state their vocabulary "
                              "(import \"vocabulary.rec\" from the standard library)",
                              ast::vocab_keyword(kind)));
        }
}

std::optional<std::uint32_t> Checker::switch_index(const ast::Ident& id) {
    auto it = std::find(p_.switches.begin(), p_.switches.end(), id.text);
    if (it != p_.switches.end()) return static_cast<std::uint32_t>(it - p_.switches.begin());
    Diagnostic& d = error(id.span, code::kUnknownSwitch, fmt::format("unknown switch `{}`", id.text));
    suggest(d, id.span, id.text, p_.switches);
    return std::nullopt;
}

void Checker::records(const std::vector<ast::Module>& modules) {
    std::map<std::string, Span> seen;
    std::vector<const ast::OpDecl*> ops, parts;
    for (const ast::OpDecl* op : all<ast::OpDecl>(modules)) {
        for (const Span& s : op->duplicate_clauses)
            error(s, code::kDuplicateDeclaration, fmt::format("`{}` states this clause twice", op->name.text));
        if (duplicate(seen, op->name, op->is_part() ? "part" : "op")) continue;
        (op->is_part() ? parts : ops).push_back(op);
    }
    const bool have_vector = !p_.op_vector.empty();
    for (const ast::OpDecl* op : ops) {
        if (have_vector && std::find(p_.op_vector.begin(), p_.op_vector.end(), op->name.text) == p_.op_vector.end()) {
            Diagnostic& d = error(op->name.span, code::kUnknownOp,
                                  fmt::format("unknown op `{}`: it is not in the op vector", op->name.text));
            suggest(d, op->name.span, op->name.text, p_.op_vector);
        }
        RecordInfo r{op->name.text, false, std::nullopt, std::nullopt, {}, op->comm, op->name.span};
        if (op->switch_name) r.switch_id = switch_index(*op->switch_name);
        p_.records.push_back(std::move(r));
    }
    // A file of op profiles or rank terms and no records (stdlib/profiles.rec)
    // imports the vocabulary for its counts, not to state records: no op is
    // missing from it.
    const bool profiles_only = ops.empty() && parts.empty() && all<ast::SlotDecl>(modules).empty() &&
                               (!all<ast::ProfileDecl>(modules).empty() || !all<ast::TermDecl>(modules).empty());
    for (const std::string& name : p_.op_vector)
        if (!profiles_only &&
            std::none_of(ops.begin(), ops.end(), [&](const ast::OpDecl* o) { return o->name.text == name; })) {
            auto vec = all<ast::VocabDecl>(modules);
            Span where{};
            for (const ast::VocabDecl* v : vec)
                for (const ast::Ident& id : v->names)
                    if (v->kind == ast::VocabKind::OpVector && id.text == name) where = id.span;
            error(where, code::kMissingOp, fmt::format("op `{}` of the op vector is missing: every records file states "
                                                 "each op of the op vector (declare `op {}`)", name, name));
        }
    for (const ast::OpDecl* part : parts) {
        const std::string& of = part->part_of->text;
        auto op = p_.find_record(of);
        if (std::find(p_.op_vector.begin(), p_.op_vector.end(), part->name.text) != p_.op_vector.end())
            error(part->name.span, code::kBadPart,
                  fmt::format("`{}` is an op of the op vector and cannot be a part", part->name.text));
        if (!op) {
            std::vector<std::string> names;
            for (const RecordInfo& r : p_.records) names.push_back(r.name);
            Diagnostic& d = error(part->part_of->span, code::kBadPart,
                                  fmt::format("part `{}` is part of `{}`, which is not an op", part->name.text, of));
            suggest(d, part->part_of->span, of, names);
        }
        if (!part->switch_name)
            error(part->name.span, code::kBadPart,
                  fmt::format("part `{}` has no switch: a part is what a switch of its own drops", part->name.text));
        RecordInfo r{part->name.text, true, std::nullopt, op, {}, part->comm, part->name.span};
        if (part->switch_name) r.switch_id = switch_index(*part->switch_name);
        p_.records.push_back(std::move(r));
    }
    // `needs` may name any op or part, declared before or after.
    std::vector<std::string> names;
    for (const RecordInfo& r : p_.records) names.push_back(r.name);
    std::size_t i = 0;
    for (const auto* list : {&ops, &parts})
        for (const ast::OpDecl* op : *list) {
            for (const ast::Ident& need : op->needs) {
                if (auto id = p_.find_record(need.text)) {
                    p_.records[i].needs.push_back(*id);
                } else {
                    Diagnostic& d = error(need.span, code::kUnknownOp,
                                          fmt::format("`{}` needs `{}`, which is neither an op nor a part", op->name.text, need.text));
                    suggest(d, need.span, need.text, names);
                }
            }
            ++i;
        }
}

// What one call of a fn costs, the fns it calls counted as inlined: the
// evaluator walks that deep and does that much, so a chain of fns cannot
// overflow its stack nor a fn calling another twice, sixty times over, run
// for ever (docs/limits.md).
void Checker::bound_fns(const std::vector<const ast::FnDecl*>& decls,
                        const std::unordered_map<std::string_view, std::size_t>& index,
                        const std::vector<std::size_t>& order) {
    struct Cost {
        std::uint64_t depth = 0, size = 0;
    };
    std::vector<Cost> cost(decls.size());
    std::vector<bool> refused(decls.size(), false);  // it or a fn it calls: reported once, at the first
    bool calls_refused = false;
    // The parser bounds a body's own depth (kMaxTreeDepth): recursion here is safe.
    auto measure = [&](auto&& self, const ast::Expr& e) -> Cost {
        Cost c{0, 1};
        for (const ast::Expr& k : e.kids) {
            const Cost kid = self(self, k);
            c.depth = std::max(c.depth, kid.depth);
            c.size = std::min(c.size + kid.size, kMaxFnWork + 1);
        }
        if (e.kind == ast::ExprKind::Call)
            if (auto it = index.find(e.name); it != index.end()) {
                calls_refused = calls_refused || refused[it->second];
                c.depth = std::max(c.depth, cost[it->second].depth);
                c.size = std::min(c.size + cost[it->second].size, kMaxFnWork + 1);
            }
        ++c.depth;
        return c;
    };
    for (std::size_t i : order) {
        calls_refused = false;
        cost[i] = measure(measure, decls[i]->body);
        refused[i] = calls_refused || cost[i].depth > kMaxFnDepth || cost[i].size > kMaxFnWork;
        if (calls_refused) continue;
        if (cost[i].depth > kMaxFnDepth) {
            error(decls[i]->name.span, code::kBadFn,
                  fmt::format("fn `{}` nests {} levels deep with the fns it calls: at most {}", decls[i]->name.text,
                              cost[i].depth, kMaxFnDepth));
        } else if (cost[i].size > kMaxFnWork) {
            error(decls[i]->name.span, code::kBadFn,
                  fmt::format("fn `{}` evaluates more than {} operations per call, counting those of the fns "
                              "it calls at each call",
                              decls[i]->name.text, kMaxFnWork));
        }
    }
}

void Checker::fns(const std::vector<ast::Module>& modules, Compiler& compiler) {
    std::map<std::string, Span> seen;
    std::vector<const ast::FnDecl*> decls;
    for (const ast::FnDecl* fn : all<ast::FnDecl>(modules)) {
        if (fn->name.text == "max" || fn->name.text == "min" || fn->name.text == "total") {
            error(fn->name.span, code::kBadFn, fmt::format("`{}` is built in and cannot be declared", fn->name.text));
            continue;
        }
        if (duplicate(seen, fn->name, "fn")) continue;
        std::map<std::string, Span> params;
        for (const ast::Ident& p : fn->params) duplicate(params, p, "parameter");
        if (fn->params.size() > kMaxFnParams)
            error(fn->name.span, code::kBadFn, fmt::format("`{}` takes more than {} parameters", fn->name.text, kMaxFnParams));
        decls.push_back(fn);
        signatures_.push_back({fn->name.text, static_cast<std::uint32_t>(fn->params.size())});
        p_.code.fns.push_back({fn->name.text, static_cast<std::uint32_t>(fn->params.size()), 0});
    }
    // No recursion: a fn may call only fns that do not reach it again.
    std::unordered_map<std::string_view, std::size_t> index;
    for (std::size_t i = 0; i < decls.size(); ++i) index.emplace(decls[i]->name.text, i);
    std::vector<std::vector<std::size_t>> calls(decls.size());
    std::vector<std::vector<Span>> call_spans(decls.size());
    for (std::size_t i = 0; i < decls.size(); ++i) {
        std::vector<const ast::Expr*> stack{&decls[i]->body};
        while (!stack.empty()) {
            const ast::Expr* e = stack.back();
            stack.pop_back();
            if (e->kind == ast::ExprKind::Call)
                if (auto it = index.find(e->name); it != index.end()) {
                    calls[i].push_back(it->second);
                    call_spans[i].push_back(e->span);
                }
            for (const ast::Expr& k : e->kids) stack.push_back(&k);
        }
    }
    // Depth first without recursion (a chain of fns may be as long as the
    // file); `order` lists each fn after every fn it calls.
    std::vector<int> state(decls.size(), 0);  // 0 new, 1 on the path, 2 done
    std::vector<std::size_t> order;
    std::set<std::size_t> reported;
    for (std::size_t root = 0; root < decls.size(); ++root) {
        if (state[root] != 0) continue;
        std::vector<std::pair<std::size_t, std::size_t>> path{{root, 0}};  // a fn, its next call
        state[root] = 1;
        while (!path.empty()) {
            const auto [i, k] = path.back();
            if (k == calls[i].size()) {
                state[i] = 2;
                order.push_back(i);
                path.pop_back();
                continue;
            }
            ++path.back().second;
            const std::size_t j = calls[i][k];
            if (state[j] == 1 && !reported.count(j)) {
                reported.insert(j);
                Diagnostic& d = error(decls[j]->name.span, code::kRecursiveFn,
                                      fmt::format("fn `{}` calls itself{}: a fn may not recurse", decls[j]->name.text,
                                                  i == j ? "" : " through other fns"));
                d.notes.push_back({call_spans[i][k], "the call that closes the cycle"});
            } else if (state[j] == 0) {
                state[j] = 1;
                path.push_back({j, 0});
            }
        }
    }
    if (reported.empty()) bound_fns(decls, index, order);
    for (std::size_t i = 0; i < decls.size(); ++i) {
        std::vector<std::string> params;
        for (const ast::Ident& p : decls[i]->params) params.push_back(p.text);
        CompileScope scope{&params, false};
        p_.code.fns[i].body = compiler.compile(decls[i]->body, scope);
    }
}

void Checker::defaults(const std::vector<ast::Module>& modules, Compiler& compiler) {
    std::map<std::string, Span> seen;
    std::vector<std::pair<NameId, Value>> values;
    for (const ast::DefaultDecl* d : all<ast::DefaultDecl>(modules)) {
        if (duplicate(seen, d->name, "default")) continue;
        NodeId id = compiler.compile(d->value, {});
        const Node& n = p_.code.nodes[id];
        if (n.op != Op::Const) {
            // 2 ** 63 is a constant whose value raises: say why (it read as "not constant").
            const std::optional<std::string> raised = compiler.constant_error(id);
            error(d->value.span, code::kDefaultNotConstant,
                  raised ? fmt::format("the default of `{}` cannot be computed: {}", d->name.text, *raised)
                         : fmt::format("the default of `{}` is not a constant number", d->name.text));
            continue;
        }
        auto it = std::find(p_.names.begin(), p_.names.end(), d->name.text);
        NameId name = static_cast<NameId>(it - p_.names.begin());
        if (it == p_.names.end()) p_.names.push_back(d->name.text);
        values.emplace_back(name, p_.code.consts[n.a]);
    }
    p_.defaults.resize(p_.names.size());
    for (auto& [name, v] : values) p_.defaults[name] = v;
}

void Checker::slots(const std::vector<ast::Module>& modules, Compiler& compiler) {
    std::map<std::string, Span> seen;
    std::vector<std::string> record_names;
    for (const RecordInfo& r : p_.records) record_names.push_back(r.name);
    for (const ast::SlotDecl* s : all<ast::SlotDecl>(modules)) {
        if (duplicate(seen, s->name, "slot")) continue;
        SlotInfo slot;
        slot.name = s->name.text;
        slot.span = s->name.span;
        auto part = std::find(p_.layer_parts.begin(), p_.layer_parts.end(), s->layer_part.text);
        if (part == p_.layer_parts.end()) {
            Diagnostic& d = error(s->layer_part.span, code::kUnknownLayerPart,
                                  fmt::format("unknown layer part `{}`", s->layer_part.text));
            suggest(d, s->layer_part.span, s->layer_part.text, p_.layer_parts);
        } else {
            slot.layer_part = static_cast<std::uint32_t>(part - p_.layer_parts.begin());
        }
        if (s->when) slot.when = compiler.compile(*s->when, {});
        std::map<std::string, Span> entries;
        const ast::SlotEntry* formula = nullptr;
        for (const ast::SlotEntry& e : s->entries) {
            if (duplicate(entries, e.target, e.target.text == "bytes" ? "the formula" : "the entry")) continue;
            if (e.target.text == "bytes") {
                formula = &e;
                continue;
            }
            auto record = p_.find_record(e.target.text);
            NodeId expr = compiler.compile(e.expr, {});
            if (!record) {
                Diagnostic& d = error(e.target.span, code::kUnknownSlotEntry,
                                      fmt::format("slot `{}` names `{}`, which is neither an op nor a part",
                                                  s->name.text, e.target.text));
                suggest(d, e.target.span, e.target.text, record_names);
                continue;
            }
            slot.entries.push_back({*record, expr, e.target.span});
        }
        if (formula == nullptr) {
            error(s->name.span, code::kSlotWithoutFormula, fmt::format("slot `{}` has no `bytes = ...` formula", s->name.text));
            continue;
        }
        std::vector<std::string> read;
        collect_names(formula->expr, read);
        if (std::find(read.begin(), read.end(), "total") == read.end())
            error(formula->expr.span, code::kFormulaWithoutTotal,
                  fmt::format("the formula of slot `{}` does not read `total`, the elements its ops keep", s->name.text));
        slot.formula = compiler.compile(formula->expr, {nullptr, true});
        p_.slots.push_back(std::move(slot));
    }
}

void Checker::terms(const std::vector<ast::Module>& modules, Compiler& compiler) {
    std::map<std::string, Span> seen;
    for (const ast::TermDecl* t : all<ast::TermDecl>(modules)) {
        if (duplicate(seen, t->name, "term")) continue;
        p_.terms.push_back({t->name.text, compiler.compile(t->value, {}), t->beside, t->name.span});
    }
}

void Checker::schema(const std::vector<ast::Module>& modules) {
    static const std::vector<std::string> kTypes{"int", "float", "bool", "str"};
    std::map<std::string, Span> seen;
    for (const ast::FieldDecl* f : all<ast::FieldDecl>(modules)) {
        if (duplicate(seen, f->name, f->context ? "context value" : "field")) continue;
        FieldInfo info{f->name.text, f->context, {}, f->optional, f->unit, f->doc, f->name.span};
        for (const ast::Ident& t : f->types) {
            if (std::find(kTypes.begin(), kTypes.end(), t.text) == kTypes.end()) {
                Diagnostic& d = error(t.span, code::kUnknownFieldType, fmt::format("unknown type `{}`: a field is int, float, bool or str", t.text));
                suggest(d, t.span, t.text, kTypes);
            }
            info.types.push_back(t.text);
        }
        p_.fields.push_back(std::move(info));
    }
}

std::optional<Program> Checker::run(const std::vector<ast::Module>& modules) {
    vocabulary(modules);
    schema(modules);
    {
        std::vector<std::string> schema_fields;
        for (const FieldInfo& f : p_.fields) schema_fields.push_back(f.name);
        errors_ += check_profiles(modules, p_.op_vector, schema_fields, p_.profiles, diags_);
    }
    records(modules);
    Compiler compiler(p_.code, p_.names, signatures_, /*strict_calls=*/true, diags_);
    fns(modules, compiler);
    defaults(modules, compiler);
    slots(modules, compiler);
    terms(modules, compiler);
    p_.defaults.resize(p_.names.size());
    const bool compile_errors = std::any_of(diags_.begin(), diags_.end(),
                                            [](const Diagnostic& d) { return d.severity == Severity::Error; });
    if (errors_ > 0 || compile_errors) return std::nullopt;
    return std::move(p_);
}

}  // namespace

std::optional<Program> check_program(const std::vector<ast::Module>& modules, std::vector<Diagnostic>& diags) {
    Checker checker(diags);
    return checker.run(modules);
}

}  // namespace oprec
