#include "lint/facts.h"

#include "format/print.h"

namespace oprec::lint {

namespace {

using K = ast::ExprKind;

py::CmpOp negate(py::CmpOp op) {
    switch (op) {
    case py::CmpOp::Lt: return py::CmpOp::Ge;
    case py::CmpOp::Le: return py::CmpOp::Gt;
    case py::CmpOp::Gt: return py::CmpOp::Le;
    case py::CmpOp::Ge: return py::CmpOp::Lt;
    case py::CmpOp::Eq: return py::CmpOp::Ne;
    case py::CmpOp::Ne: return py::CmpOp::Eq;
    }
    return op;
}

// `k < a` is `a > k`.
py::CmpOp mirror(py::CmpOp op) {
    switch (op) {
    case py::CmpOp::Lt: return py::CmpOp::Gt;
    case py::CmpOp::Le: return py::CmpOp::Ge;
    case py::CmpOp::Gt: return py::CmpOp::Lt;
    case py::CmpOp::Ge: return py::CmpOp::Le;
    default: return op;
    }
}

bool is_number(const ast::Expr& e) { return e.kind == K::Literal && !e.literal.is_bool(); }

// Whether `name op k` being true rules out name == 0.
bool excludes_zero(py::CmpOp op, double k) {
    switch (op) {
    case py::CmpOp::Ne: return k == 0;
    case py::CmpOp::Eq: return k != 0;
    case py::CmpOp::Gt: return k >= 0;
    case py::CmpOp::Ge: return k > 0;
    case py::CmpOp::Lt: return k <= 0;
    case py::CmpOp::Le: return k < 0;
    }
    return false;
}

// The same comparison with the other of == and != (its exact negation).
std::optional<std::string> complement_text(const ast::Expr& cond) {
    if (cond.kind != K::Compare || cond.compare_ops.size() != 1) return std::nullopt;
    const py::CmpOp op = cond.compare_ops[0];
    if (op != py::CmpOp::Eq && op != py::CmpOp::Ne) return std::nullopt;
    ast::Expr other = cond;
    other.compare_ops[0] = negate(op);
    return format::expr_source(other);
}

}  // namespace

void Facts::assume(const ast::Expr& cond, bool truth) { assume_inner(cond, truth, cond); }

void Facts::assume_inner(const ast::Expr& cond, bool truth, const ast::Expr& guard) {
    truths_.insert_or_assign(format::expr_source(cond), Known{truth, &guard});
    switch (cond.kind) {
    case K::Not: assume_inner(cond.kids[0], !truth, guard); break;
    case K::And:
        if (truth)
            for (const ast::Expr& k : cond.kids) assume_inner(k, true, guard);
        break;
    case K::Or:
        if (!truth)
            for (const ast::Expr& k : cond.kids) assume_inner(k, false, guard);
        break;
    case K::Name:
        if (truth) nonzero_.emplace(cond.name, &guard);
        break;
    case K::Compare: assume_compare(cond, truth, guard); break;
    default: break;
    }
}

// `a != 0`, `a > 0`, `0 < a`, `not a == 0`, ... make `a` non-zero; a true
// chain `0 < a <= b` holds pair by pair.
void Facts::assume_compare(const ast::Expr& cond, bool truth, const ast::Expr& guard) {
    if (!truth && cond.compare_ops.size() != 1) return;  // a false chain says only that some pair fails
    for (std::size_t k = 0; k + 1 < cond.kids.size(); ++k) {
        const ast::Expr& lhs = cond.kids[k];
        const ast::Expr& rhs = cond.kids[k + 1];
        py::CmpOp op = cond.compare_ops[k];
        if (!truth) op = negate(op);
        if (lhs.kind == K::Name && is_number(rhs) && excludes_zero(op, rhs.literal.as_double()))
            nonzero_.emplace(lhs.name, &guard);
        if (rhs.kind == K::Name && is_number(lhs) && excludes_zero(mirror(op), lhs.literal.as_double()))
            nonzero_.emplace(rhs.name, &guard);
    }
}

std::optional<Facts::Known> Facts::known(const ast::Expr& cond) const {
    if (auto it = truths_.find(format::expr_source(cond)); it != truths_.end()) return it->second;
    if (auto other = complement_text(cond)) {
        if (auto it = truths_.find(*other); it != truths_.end()) return Known{!it->second.truth, it->second.guard};
    }
    switch (cond.kind) {
    case K::Not:
        if (auto k = known(cond.kids[0])) return Known{!k->truth, k->guard};
        return std::nullopt;
    case K::Name:
        if (const ast::Expr* g = nonzero(cond.name)) return Known{true, g};
        return std::nullopt;
    case K::Compare:
        // `a != 0` or `a == 0` where `a` is known non-zero.
        if (cond.compare_ops.size() == 1 && cond.kids[0].kind == K::Name && is_number(cond.kids[1]) &&
            cond.kids[1].literal.as_double() == 0) {
            const py::CmpOp op = cond.compare_ops[0];
            if (const ast::Expr* g = nonzero(cond.kids[0].name); g && (op == py::CmpOp::Eq || op == py::CmpOp::Ne))
                return Known{op == py::CmpOp::Ne, g};
        }
        return std::nullopt;
    case K::And:
    case K::Or: {
        // Decided by one operand (false for and, true for or), or by all.
        const bool decisive = cond.kind == K::Or;
        bool all_known = true;
        std::optional<Known> last;
        for (const ast::Expr& k : cond.kids) {
            auto v = known(k);
            if (v && v->truth == decisive) return v;
            if (v) last = v; else all_known = false;
        }
        return all_known ? last : std::nullopt;
    }
    default: return std::nullopt;
    }
}

const ast::Expr* Facts::nonzero(const std::string& name) const {
    auto it = nonzero_.find(name);
    return it == nonzero_.end() ? nullptr : it->second;
}

}  // namespace oprec::lint
