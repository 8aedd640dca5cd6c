// W0110: a `when` or condition that reads nothing, so is always true or
// always false. W0111: a branch an enclosing condition rules out (`x if a
// else (y if a else z)`: z is never taken). W0112: a constant subexpression
// that is shorter written as its value (`2 * 3`, not `1 / 3`).
#include <cmath>
#include <fmt/format.h>

#include "lint/checks.h"
#include "diag/codes.h"
#include "lint/constant.h"
#include "format/print.h"
#include "lint/facts.h"
#include "value/format.h"

namespace oprec::lint {

namespace {

using K = ast::ExprKind;

const char* truth_text(bool t) { return t ? "true" : "false"; }

class Conditions {
public:
    Conditions(Sink& sink) : sink_(sink) {}

    void site(const Site& s) {
        Facts facts;
        if (s.kind == SiteKind::When) {
            if (auto v = constant_value(*s.expr)) {
                const bool t = v->truthy();
                sink_.warn(code::kConstantCondition, s.expr->span,
                           fmt::format("this `when` is always {}: slot `{}` is {} held", truth_text(t),
                                       s.slot->name.text, t ? "always" : "never"));
                return;
            }
            walk(*s.expr, facts, true);
            return;
        }
        if (s.slot != nullptr && s.slot->when) facts.assume(*s.slot->when, true);
        walk(*s.expr, facts, false);
    }

private:
    // `condition`: the value is read as a truth (a `when`, an if's test, an
    // and/or operand), where W0110 speaks instead of W0112.
    void walk(const ast::Expr& e, const Facts& facts, bool condition) {
        if (!condition && fold(e)) return;
        switch (e.kind) {
        case K::IfElse: {
            const ast::Expr& test = e.kids[1];
            if (auto v = constant_value(test)) {
                const bool t = v->truthy();
                sink_.warn(code::kConstantCondition, test.span,
                           fmt::format("this condition is always {}", truth_text(t)))
                    .notes.push_back({e.kids[t ? 2 : 0].span, "so this branch is never taken"});
            } else {
                if (auto k = facts.known(test)) {
                    const ast::Expr& dead = e.kids[k->truth ? 2 : 0];
                    sink_.warn(code::kDeadBranch, dead.span,
                               fmt::format("this branch is never taken: `{}` is always {} here", format::expr_source(test),
                                           truth_text(k->truth)))
                        .notes.push_back({k->guard->span, "an enclosing condition decides it"});
                }
                walk(test, facts, true);
            }
            Facts yes = facts, no = facts;
            yes.assume(test, true);
            no.assume(test, false);
            walk(e.kids[0], yes, false);
            walk(e.kids[2], no, false);
            return;
        }
        case K::And:
        case K::Or: {
            const bool is_and = e.kind == K::And;
            const char* op = is_and ? "and" : "or";
            Facts f = facts;
            for (std::size_t k = 0; k < e.kids.size(); ++k) {
                const ast::Expr& operand = e.kids[k];
                const bool last = k + 1 == e.kids.size();
                if (!last) {
                    if (auto v = constant_value(operand)) {
                        // A true operand of `and`, a false one of `or`, changes nothing; the
                        // other way round, what follows is never read.
                        const bool stops = v->truthy() != is_and;
                        Diagnostic& d = sink_.warn(
                            code::kConstantCondition, operand.span,
                            fmt::format("this operand of `{}` is always {}: {}", op, truth_text(v->truthy()),
                                        stops ? fmt::format("`{}` stops here", op) : std::string("it changes nothing")));
                        if (stops) d.notes.push_back({e.kids[k + 1].span, "so this is never read"});
                        f.assume(operand, is_and);
                        continue;
                    }
                    if (auto known = f.known(operand); known && known->truth != is_and) {
                        sink_.warn(code::kDeadBranch, e.kids[k + 1].span,
                                   fmt::format("this is never read: `{}` is always {} here, so `{}` stops before it",
                                               format::expr_source(operand), truth_text(known->truth), op))
                            .notes.push_back({known->guard->span, "an enclosing condition decides it"});
                    }
                }
                walk(operand, f, !last || condition);
                f.assume(operand, is_and);
            }
            return;
        }
        case K::Not:
            walk(e.kids[0], facts, condition);
            return;
        default:
            for (const ast::Expr& k : e.kids) walk(k, facts, false);
        }
    }

    // W0112 at a constant subexpression worth folding; true where `e` is
    // constant (nothing below it is worth a look then).
    bool fold(const ast::Expr& e) {
        if (e.kind == K::Literal || !reads_nothing(e)) return false;
        if (e.kind == K::Unary && e.kids[0].kind == K::Literal) return true;  // -1 is how -1 is written
        auto v = constant_value(e);
        if (!v) return true;  // it fails when evaluated (1 / 0): W0109's, if anyone's
        // The value as a literal: inf is written 1e400 (Python reads it so);
        // nan has no literal, so nothing shorter can be suggested.
        if (v->is_float() && std::isnan(v->f)) return true;
        const bool inf = v->is_float() && std::isinf(v->f);
        const std::string value = inf ? (v->f > 0 ? "1e400" : "-1e400") : repr(*v);
        const std::string text = format::expr_source(e);
        if (value.size() >= text.size()) return true;  // 1 / 3 reads better than 0.3333333333333333
        Diagnostic& d = sink_.warn(code::kFoldable, e.span,
                                   inf ? fmt::format("`{}` is the constant {}: write `{}`", text, repr(*v), value)
                                       : fmt::format("`{}` is the constant {}: write the value", text, value));
        if (e.span.len < (1u << 16)) d.fix = FixIt{e.span, value, fmt::format("write `{}`", value)};
        return true;
    }

    Sink& sink_;
};

}  // namespace

void check_conditions(const Index& index, Sink& sink) {
    Conditions c(sink);
    for (const Site& s : index.sites)
        if (!index.library(s.file)) c.site(s);
}

}  // namespace oprec::lint
