#include "check/profiles.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "diag/codes.h"
#include "diag/suggest.h"
#include "value/arith.h"

namespace oprec {

namespace {

// Codes of the profile checks, stable beside the checker's E01xx.

class ProfileChecker {
public:
    ProfileChecker(const std::vector<std::string>& op_vector, const std::vector<std::string>& schema,
                   Profiles& out, std::vector<Diagnostic>& diags)
        : op_vector_(op_vector), schema_(schema), out_(out), diags_(diags) {}

    int run(const std::vector<ast::Module>& modules) {
        std::vector<const ast::SettingDecl*> runs;
        std::vector<const ast::ProfileDecl*> profiles;
        for (const ast::Module& m : modules)
            for (const ast::Decl& d : m.decls) {
                if (const auto* r = std::get_if<ast::SettingDecl>(&d)) runs.push_back(r);
                if (const auto* p = std::get_if<ast::ProfileDecl>(&d)) profiles.push_back(p);
            }
        std::map<std::string, Span> seen_runs;
        for (const ast::SettingDecl* r : runs)
            if (!duplicate(seen_runs, r->name, "run default"))
                if (auto v = constant(*r)) out_.run_defaults.push_back({r->name.text, *v, r->name.span, {}});
        if (!profiles.empty() && op_vector_.empty()) {
            error(profiles.front()->span, code::kProfilesWithoutOpVector,
                  "op profiles need the op vector their counts follow (import \"vocabulary.rec\")");
            return errors_;
        }
        std::map<std::string, Span> seen_profiles, seen_prefixes;
        std::map<std::string, std::string> prefix_owner;
        for (const ast::ProfileDecl* p : profiles) {
            if (duplicate(seen_profiles, p->name, "profile")) continue;
            out_.families.push_back(profile(*p, seen_prefixes, prefix_owner));
        }
        return errors_;
    }

private:
    Diagnostic& error(const Span& span, const char* code, std::string message) {
        diags_.push_back({Severity::Error, code, span, std::move(message), {}, {}});
        ++errors_;
        return diags_.back();
    }
    static FixIt fix(const Span& span, std::string replacement) {
        FixIt f;
        f.span = span;
        f.replacement = std::move(replacement);
        return f;
    }
    void suggest(Diagnostic& d, const Span& span, const std::string& name, const std::vector<std::string>& known) {
        if (auto near = closest_name(name, known)) d.fix = fix(span, *near);
    }
    // "WHAT `NAME`WHERE is declared twice", with a note at the first.
    bool duplicate(std::map<std::string, Span>& seen, const ast::Ident& id, const std::string& what,
                   const std::string& where = "") {
        auto [it, fresh] = seen.emplace(id.text, id.span);
        if (fresh) return false;
        error(id.span, code::kDuplicateDeclaration, fmt::format("{} `{}`{} is declared twice", what, id.text, where))
            .notes.push_back({it->second, "first declared here"});
        return true;
    }

    // A setting's value: a number or True/False, possibly signed.
    std::optional<Value> constant(const ast::SettingDecl& s) {
        const ast::Expr* e = &s.value;
        bool negate = false;
        while (e->kind == ast::ExprKind::Unary && e->kids.size() == 1) {
            negate = negate != (e->unary_op == ast::UnaryOp::Neg);
            e = &e->kids[0];
        }
        if (e->kind != ast::ExprKind::Literal) {
            error(s.value.span, code::kBadProfileSetting,
                  fmt::format("`{}` must be a number or True/False, not an expression", s.name.text));
            return std::nullopt;
        }
        try {
            return negate ? py::neg(e->literal) : e->literal;
        } catch (const EvalError& err) {
            error(s.value.span, code::kBadProfileSetting, fmt::format("`{}`: {}", s.name.text, err.what()));
            return std::nullopt;
        }
    }

    std::string vector_text() const {
        std::string out;
        for (const std::string& op : op_vector_) out += (out.empty() ? "" : " ") + op;
        return out;
    }

    LayerKind kind(const ast::ProfileDecl& p, const ast::ProfileKind& k) {
        LayerKind out{k.name.text, AttentionFlavour::Full, FfnFlavour::Model, {}, k.name.span};
        std::map<std::string, Span> seen_flavours;
        for (const auto& [key, value] : k.flavours) {
            if (duplicate(seen_flavours, key, "flavour", fmt::format(" of kind `{}`", k.name.text))) continue;
            if (key.text == "attention") {
                if (value.text == "full" || value.text == "linear") {
                    out.attention = value.text == "full" ? AttentionFlavour::Full : AttentionFlavour::Linear;
                } else {
                    Diagnostic& d = error(value.span, code::kUnknownFlavour,
                                          fmt::format("unknown attention flavour `{}`: full or linear", value.text));
                    suggest(d, value.span, value.text, {"full", "linear"});
                }
            } else if (key.text == "ffn") {
                if (value.text == "dense" || value.text == "moe") {
                    out.ffn = value.text == "dense" ? FfnFlavour::Dense : FfnFlavour::Moe;
                } else {
                    Diagnostic& d = error(value.span, code::kUnknownFlavour,
                                          fmt::format("unknown ffn flavour `{}`: dense or moe", value.text));
                    suggest(d, value.span, value.text, {"dense", "moe"});
                }
            } else {
                Diagnostic& d = error(key.span, code::kUnknownFlavour,
                                      fmt::format("unknown flavour `{}` of kind `{}`: a kind states `attention full|linear` "
                                                  "or `ffn dense|moe`", key.text, k.name.text));
                suggest(d, key.span, key.text, {"attention", "ffn"});
            }
        }
        for (const ast::OpCount& c : k.counts)
            if (c.count < 0) error(c.span, code::kBadOpCounts, "an op count beyond 64 bits");
        if (!k.named) {
            out.counts.reserve(k.counts.size());
            for (const ast::OpCount& c : k.counts) out.counts.push_back(c.count);
            if (k.counts.size() < op_vector_.size()) {
                std::string missing;
                for (std::size_t i = k.counts.size(); i < op_vector_.size(); ++i)
                    missing += (missing.empty() ? "`" : ", `") + op_vector_[i] + "`";
                Diagnostic& d = error(k.span, code::kBadOpCounts,
                                      fmt::format("kind `{}` of profile `{}` states {} op counts, the op vector has {}: "
                                                  "no count for {}", k.name.text, p.name.text, k.counts.size(),
                                                  op_vector_.size(), missing));
                d.notes.push_back({{}, fmt::format("the counts follow the op vector: {} (state 0 for an op the kind "
                                                   "does not have)", vector_text())});
            } else if (k.counts.size() > op_vector_.size()) {
                Diagnostic& d = error(k.counts[op_vector_.size()].span, code::kBadOpCounts,
                                      fmt::format("kind `{}` of profile `{}` states {} op counts, the op vector has only {}",
                                                  k.name.text, p.name.text, k.counts.size(), op_vector_.size()));
                d.notes.push_back({{}, fmt::format("the op vector: {}", vector_text())});
            }
            return out;
        }
        out.counts.assign(op_vector_.size(), 0);
        std::vector<bool> stated(op_vector_.size(), false);
        std::map<std::string, Span> seen_ops;
        for (const ast::OpCount& c : k.counts) {
            if (duplicate(seen_ops, *c.op, "the count of", fmt::format(" in kind `{}`", k.name.text))) continue;
            auto it = std::find(op_vector_.begin(), op_vector_.end(), c.op->text);
            if (it == op_vector_.end()) {
                Diagnostic& d = error(c.op->span, code::kUnknownCountedOp,
                                      fmt::format("unknown op `{}`: it is not in the op vector", c.op->text));
                suggest(d, c.op->span, c.op->text, op_vector_);
                continue;
            }
            const auto i = static_cast<std::size_t>(it - op_vector_.begin());
            out.counts[i] = c.count;
            stated[i] = true;
        }
        std::string missing;
        for (std::size_t i = 0; i < op_vector_.size(); ++i)
            if (!stated[i]) missing += (missing.empty() ? "`" : ", `") + op_vector_[i] + "`";
        if (!missing.empty())
            error(k.span, code::kBadOpCounts, fmt::format("kind `{}` of profile `{}` has no count for {}: every op of the op "
                                                 "vector needs one (state 0 for an op it does not have)",
                                                 k.name.text, p.name.text, missing));
        return out;
    }

    OpProfile profile(const ast::ProfileDecl& p, std::map<std::string, Span>& seen_prefixes,
                      std::map<std::string, std::string>& prefix_owner) {
        OpProfile out;
        out.name = p.name.text;
        out.span = p.name.span;
        for (const ast::Ident& m : p.matches) {
            std::string lower = m.text;
            std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
            if (m.text.empty()) {
                error(m.span, code::kBadPrefix, "an empty prefix would match every model name (`default` is the fallback)");
                continue;
            }
            if (lower != m.text) {
                Diagnostic& d = error(m.span, code::kBadPrefix,
                                      fmt::format("prefix \"{}\" has capitals: it is matched against the lower-cased "
                                                  "model name", m.text));
                d.fix = fix(m.span, "\"" + lower + "\"");
                continue;
            }
            auto [it, fresh] = seen_prefixes.emplace(m.text, m.span);
            if (!fresh) {
                error(m.span, code::kBadPrefix, fmt::format("prefix \"{}\" already chooses profile `{}`", m.text,
                                                   prefix_owner[m.text]))
                    .notes.push_back({it->second, "claimed here"});
                continue;
            }
            prefix_owner[m.text] = p.name.text;
            out.matches.push_back(m.text);
        }
        std::map<std::string, Span> seen_kinds;
        std::vector<std::string> kind_names;
        for (const ast::ProfileKind& k : p.kinds) {
            if (duplicate(seen_kinds, k.name, "kind", fmt::format(" of profile `{}`", p.name.text))) continue;
            out.kinds.push_back(kind(p, k));
            kind_names.push_back(k.name.text);
        }
        if (p.kinds.empty())
            error(p.name.span, code::kBadOpCounts,
                  fmt::format("profile `{}` has no kind: state at least one (`kind decoder = ...`)", p.name.text));
        for (std::size_t i = 0; i < p.default_kinds.size(); ++i) {
            const ast::Ident& d = p.default_kinds[i];
            if (i > 0) {
                error(d.span, code::kBadDefaultKind, fmt::format("profile `{}` states its default kind twice", p.name.text))
                    .notes.push_back({p.default_kinds[0].span, "first stated here"});
                continue;
            }
            if (!out.find_kind(d.text)) {
                Diagnostic& diag = error(d.span, code::kBadDefaultKind,
                                         fmt::format("default kind `{}` is not a kind of profile `{}`", d.text, p.name.text));
                suggest(diag, d.span, d.text, kind_names);
                continue;
            }
            out.default_kind = d.text;
        }
        std::vector<std::string> run_names;
        for (const ProfileSetting& r : out_.run_defaults) run_names.push_back(r.name);
        std::map<std::string, Span> seen_run, seen_model;
        for (const ast::SettingDecl& s : p.settings) {
            if (!s.model && !s.matches.empty()) {
                error(s.matches.front().span, code::kBadProfileSetting,
                      fmt::format("run setting `{}` takes no `matches`: a run setting holds for every model of the "
                                  "family (a `model` default may hold for some names)", s.name.text));
                continue;
            }
            std::vector<std::string> own;
            bool bad_prefix = false;
            for (const ast::Ident& m : s.matches) {
                std::string lower = m.text;
                std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
                if (m.text.empty() || lower != m.text) {
                    Diagnostic& d = error(m.span, code::kBadPrefix,
                                          m.text.empty() ? std::string("an empty prefix would match every model name "
                                                                       "(leave out `matches` for that)")
                                                         : fmt::format("prefix \"{}\" has capitals: it is matched "
                                                                       "against the lower-cased model name", m.text));
                    if (!m.text.empty()) d.fix = fix(m.span, "\"" + lower + "\"");
                    bad_prefix = true;
                }
                own.push_back(m.text);
            }
            if (bad_prefix) continue;
            // A model default is one per field and set of prefixes.
            ast::Ident key = s.name;
            for (const std::string& m : own) key.text += "\n" + m;
            const std::string where = own.empty() ? fmt::format(" of profile `{}`", p.name.text)
                                                  : fmt::format(" of profile `{}` for the same prefixes", p.name.text);
            if (s.model ? seen_model.count(key.text) != 0 : false) {
                error(s.name.span, code::kDuplicateDeclaration, fmt::format("model default `{}`{} is declared twice", s.name.text, where))
                    .notes.push_back({seen_model[key.text], "first declared here"});
                continue;
            }
            if (s.model) seen_model.emplace(key.text, s.name.span);
            else if (duplicate(seen_run, s.name, "run setting", where)) continue;
            if (s.model && !schema_.empty() && std::find(schema_.begin(), schema_.end(), s.name.text) == schema_.end()) {
                Diagnostic& d = error(s.name.span, code::kBadProfileSetting,
                                      fmt::format("model default `{}` is not a field of the schema", s.name.text));
                suggest(d, s.name.span, s.name.text, schema_);
                continue;
            }
            if (!s.model && !run_names.empty() &&
                std::find(run_names.begin(), run_names.end(), s.name.text) == run_names.end()) {
                Diagnostic& d = error(s.name.span, code::kBadProfileSetting,
                                      fmt::format("unknown run setting `{}`: the run defaults do not state it", s.name.text));
                suggest(d, s.name.span, s.name.text, run_names);
                continue;
            }
            if (auto v = constant(s)) (s.model ? out.model : out.run).push_back({s.name.text, *v, s.name.span, own});
        }
        return out;
    }

    const std::vector<std::string>& op_vector_;
    const std::vector<std::string>& schema_;
    Profiles& out_;
    std::vector<Diagnostic>& diags_;
    int errors_ = 0;
};

}  // namespace

const LayerKind* OpProfile::find_kind(std::string_view kind) const {
    for (const LayerKind& k : kinds)
        if (k.name == kind) return &k;
    return nullptr;
}

const ProfileSetting* OpProfile::find_model(std::string_view field) const {
    for (const ProfileSetting& s : model)
        if (s.name == field && s.matches.empty()) return &s;
    return nullptr;
}

const ProfileSetting* OpProfile::model_default(std::string_view field, std::string_view model_name) const {
    const ProfileSetting* best = nullptr;
    std::size_t best_len = 0;
    for (const ProfileSetting& s : model)
        if (s.name == field)
            for (const std::string& prefix : s.matches)
                if (prefix.size() > best_len && model_name.substr(0, prefix.size()) == prefix) {
                    best = &s;
                    best_len = prefix.size();
                }
    return best != nullptr ? best : find_model(field);
}

const OpProfile* Profiles::find(std::string_view family) const {
    for (const OpProfile& p : families)
        if (p.name == family) return &p;
    return nullptr;
}

std::optional<Value> Profiles::run_setting(const OpProfile& family, std::string_view name) const {
    for (const ProfileSetting& s : family.run)
        if (s.name == name) return s.value;
    for (const ProfileSetting& s : run_defaults)
        if (s.name == name) return s.value;
    return std::nullopt;
}

int check_profiles(const std::vector<ast::Module>& modules, const std::vector<std::string>& op_vector,
                   const std::vector<std::string>& schema_fields, Profiles& out, std::vector<Diagnostic>& diags) {
    return ProfileChecker(op_vector, schema_fields, out, diags).run(modules);
}

}  // namespace oprec
