// W0109: a division or modulo by a value that may be zero, with no enclosing
// condition ruling zero out. The rule for what may be zero:
//   - a field or context value counted in ranks, tokens, sequences or
//     micro-batches (its unit in the schema) is at least 1: a parallel
//     degree, a length, a batch; every other field may be 0 (op counts,
//     widths, flags), and so may a default-only name whose default is 0;
//   - a name is non-zero where an enclosing condition says so: `x / a if a
//     else 0`, `a and x / a`, `not a or x / a`, `a != 0`, `a > 0`, a slot's
//     `when a > 0`;
//   - products, quotients and sums of the above follow the signs; `max` with
//     a positive argument is positive; a parameter, `total`, `//`, `%` and
//     what the rules do not cover are not judged (no warning).
#include <set>

#include <fmt/format.h>

#include "lint/checks.h"
#include "diag/codes.h"
#include "format/print.h"
#include "lint/facts.h"

namespace oprec::lint {

namespace {

using K = ast::ExprKind;

enum class Sign { Pos, Neg, NonNeg, NonPos, Zero, Unknown };

struct Z {
    Sign sign = Sign::Unknown;
    const ast::Expr* culprit = nullptr;  // what may be zero
};

int dir(Sign s) { return s == Sign::Pos || s == Sign::NonNeg ? 1 : s == Sign::Neg || s == Sign::NonPos ? -1 : 0; }
bool maybe_zero(Sign s) { return s == Sign::NonNeg || s == Sign::NonPos || s == Sign::Zero; }
Sign make(int direction, bool maybe) {
    return direction > 0 ? (maybe ? Sign::NonNeg : Sign::Pos) : (maybe ? Sign::NonPos : Sign::Neg);
}
const ast::Expr* first_culprit(const Z& a, const Z& b) {
    return maybe_zero(a.sign) ? a.culprit : maybe_zero(b.sign) ? b.culprit : nullptr;
}

Z mul(const Z& a, const Z& b) {
    if (a.sign == Sign::Unknown || b.sign == Sign::Unknown) return {};
    if (a.sign == Sign::Zero) return a;
    if (b.sign == Sign::Zero) return b;
    const bool maybe = maybe_zero(a.sign) || maybe_zero(b.sign);
    return {make(dir(a.sign) * dir(b.sign), maybe), first_culprit(a, b)};
}

Z negate(const Z& a) {
    switch (a.sign) {
    case Sign::Pos: return {Sign::Neg, a.culprit};
    case Sign::Neg: return {Sign::Pos, a.culprit};
    case Sign::NonNeg: return {Sign::NonPos, a.culprit};
    case Sign::NonPos: return {Sign::NonNeg, a.culprit};
    default: return a;
    }
}

Z add(const Z& a, const Z& b) {
    if (a.sign == Sign::Unknown || b.sign == Sign::Unknown) return {};
    if (a.sign == Sign::Zero) return b;
    if (b.sign == Sign::Zero) return a;
    if (dir(a.sign) != dir(b.sign)) return {};
    const bool maybe = maybe_zero(a.sign) && maybe_zero(b.sign);
    return {make(dir(a.sign), maybe), maybe ? a.culprit : nullptr};
}

// Either of two values (the branches of a conditional).
Z join(const Z& a, const Z& b) {
    if (a.sign == Sign::Unknown || b.sign == Sign::Unknown) return {};
    if (a.sign == b.sign) return {a.sign, a.culprit != nullptr ? a.culprit : b.culprit};
    if (a.sign == Sign::Zero) return {make(dir(b.sign), true), a.culprit};
    if (b.sign == Sign::Zero) return {make(dir(a.sign), true), b.culprit};
    if (dir(a.sign) != dir(b.sign)) return {};
    return {make(dir(a.sign), true), first_culprit(a, b)};
}

class Divisors {
public:
    Divisors(const Index& index, Sink& sink) : index_(index), sink_(sink) {}

    void site(const Site& s) {
        Facts facts;
        if (s.slot != nullptr && s.slot->when && s.kind != SiteKind::When) facts.assume(*s.slot->when, true);
        params_.clear();
        if (s.fn != nullptr)
            for (const ast::Ident& p : s.fn->params) params_.insert(p.text);
        walk(*s.expr, facts);
    }

private:
    // Warns at each division below `e`, with the facts its place has.
    void walk(const ast::Expr& e, const Facts& facts) {
        switch (e.kind) {
        case K::IfElse: {
            walk(e.kids[1], facts);
            Facts yes = facts, no = facts;
            yes.assume(e.kids[1], true);
            no.assume(e.kids[1], false);
            walk(e.kids[0], yes);
            walk(e.kids[2], no);
            return;
        }
        case K::And:
        case K::Or: {
            Facts f = facts;
            for (const ast::Expr& k : e.kids) {
                walk(k, f);
                f.assume(k, e.kind == K::And);  // the next operand is read only if this one is true (and) or false (or)
            }
            return;
        }
        case K::Binary:
            for (const ast::Expr& k : e.kids) walk(k, facts);
            if (e.binary_op == ast::BinaryOp::Div || e.binary_op == ast::BinaryOp::FloorDiv ||
                e.binary_op == ast::BinaryOp::Mod)
                judge(e, value(e.kids[1], facts));
            return;
        default:
            for (const ast::Expr& k : e.kids) walk(k, facts);
        }
    }

    void judge(const ast::Expr& e, const Z& divisor) {
        if (!maybe_zero(divisor.sign)) return;
        const ast::Expr& by = e.kids[1];
        const char* what = e.binary_op == ast::BinaryOp::Mod ? "modulo" : "division";
        if (divisor.sign == Sign::Zero && divisor.culprit == &by) {
            sink_.warn(code::kMaybeZeroDivisor, by.span, fmt::format("{} by zero: the divisor is always 0", what));
            return;
        }
        const std::string culprit = divisor.culprit != nullptr ? format::expr_source(*divisor.culprit) : format::expr_source(by);
        Diagnostic& d = sink_.warn(code::kMaybeZeroDivisor, by.span,
                                   fmt::format("{} by `{}`, which may be 0: no enclosing condition rules 0 out",
                                               what, format::expr_source(by)));
        if (divisor.culprit != nullptr && divisor.culprit->kind == K::Name) {
            if (const ast::FieldDecl* f = index_.field(culprit))
                d.notes.push_back({f->name.span, fmt::format("`{}` is counted in {}: only ranks, tokens, sequences "
                                                             "and micro-batches are known to be at least 1",
                                                             culprit, f->unit.empty() ? "no unit" : f->unit)});
        }
        d.notes.push_back({{}, fmt::format("guard it (`... if {} else 0`), or say why it cannot be 0 with "
                                           "`# rec: allow W0109`",
                                           culprit)});
    }

    Z name(const ast::Expr& e, const Facts& facts) const {
        if (params_.count(e.name) || e.name == "total") return {};
        if (facts.nonzero(e.name) != nullptr) return {Sign::Pos, nullptr};
        if (const ast::FieldDecl* f = index_.field(e.name)) {
            static const std::set<std::string> kPositive{"ranks", "tokens", "sequences", "micro-batches"};
            if (kPositive.count(f->unit)) return {Sign::Pos, nullptr};
            return {Sign::NonNeg, &e};
        }
        if (auto d = index_.defaults.find(e.name); d != index_.defaults.end()) {
            const ast::Expr& v = d->second.decl->value;
            if (v.kind == K::Literal && v.literal.as_double() > 0) return {Sign::Pos, nullptr};
            return {Sign::NonNeg, &e};
        }
        return {};  // unknown: W0101's
    }

    // What may be said of the value of `e` (no warnings).
    Z value(const ast::Expr& e, const Facts& facts) const {
        switch (e.kind) {
        case K::Literal: {
            const double v = e.literal.as_double();
            return {v > 0 ? Sign::Pos : v < 0 ? Sign::Neg : v == 0 ? Sign::Zero : Sign::Unknown, &e};
        }
        case K::Name: return name(e, facts);
        case K::Unary: {
            Z a = value(e.kids[0], facts);
            return e.unary_op == ast::UnaryOp::Neg ? negate(a) : a;
        }
        case K::Binary: {
            const Z a = value(e.kids[0], facts), b = value(e.kids[1], facts);
            switch (e.binary_op) {
            case ast::BinaryOp::Add: return add(a, b);
            case ast::BinaryOp::Sub: return add(a, negate(b));
            case ast::BinaryOp::Mul: return mul(a, b);
            case ast::BinaryOp::Div: {
                if (a.sign == Sign::Unknown || b.sign == Sign::Unknown || b.sign == Sign::Zero) return {};
                if (a.sign == Sign::Zero) return a;
                return {make(dir(a.sign) * dir(b.sign), maybe_zero(a.sign)), a.culprit};
            }
            case ast::BinaryOp::Pow: return a.sign == Sign::Pos ? Z{Sign::Pos, nullptr} : Z{};
            default: return {};
            }
        }
        case K::IfElse: {
            if (auto k = facts.known(e.kids[1])) return value(e.kids[k->truth ? 0 : 2], facts);
            Facts yes = facts, no = facts;
            yes.assume(e.kids[1], true);
            no.assume(e.kids[1], false);
            return join(value(e.kids[0], yes), value(e.kids[2], no));
        }
        case K::Or: {
            // Returns the first true operand, else the last.
            Facts f = facts;
            Z acc = value(e.kids.back(), facts);
            for (std::size_t k = 0; k + 1 < e.kids.size(); ++k) {
                Z v = value(e.kids[k], f);
                if (v.sign == Sign::Unknown) return {};
                if (v.sign != Sign::Zero) acc = join(acc, {make(dir(v.sign), false), nullptr});
                f.assume(e.kids[k], false);
            }
            return acc;
        }
        case K::And: {
            // Returns the first false operand, else the last.
            Z acc = value(e.kids.back(), facts);
            for (std::size_t k = 0; k + 1 < e.kids.size(); ++k) {
                Z v = value(e.kids[k], facts);
                if (v.sign == Sign::Unknown) return {};
                if (maybe_zero(v.sign)) acc = join(acc, {Sign::Zero, v.culprit});
            }
            return acc;
        }
        case K::Not:
        case K::Compare: return {Sign::NonNeg, &e};  // False is 0
        case K::Call: {
            if (e.name != "max" && e.name != "min") return {};
            const bool is_max = e.name == "max";
            bool any_pos = false, all_pos = true;
            const ast::Expr* culprit = nullptr;
            for (const ast::Expr& k : e.kids) {
                Z v = value(k, facts);
                if (dir(v.sign) < 0 || v.sign == Sign::Unknown) return {};
                any_pos = any_pos || v.sign == Sign::Pos;
                all_pos = all_pos && v.sign == Sign::Pos;
                if (culprit == nullptr && maybe_zero(v.sign)) culprit = v.culprit;
            }
            if (is_max ? any_pos : all_pos) return {Sign::Pos, nullptr};
            return {Sign::NonNeg, culprit};
        }
        default: return {};
        }
    }

    const Index& index_;
    Sink& sink_;
    std::set<std::string> params_;
};

}  // namespace

void check_divisors(const Index& index, Sink& sink) {
    Divisors d(index, sink);
    for (const Site& s : index.sites)
        if (!index.library(s.file)) d.site(s);
}

}  // namespace oprec::lint
