// W0113: a slot formula that is not linear in `total`. Pricing switch
// settings by adding their effects assumes bytes(x + y) = bytes(x) +
// bytes(y): the formula must be `total` times a factor that does not read
// `total` (through fns too), with no term of its own.
#include <map>
#include <vector>

#include <fmt/format.h>

#include "lint/checks.h"
#include "diag/codes.h"
#include "format/print.h"

namespace oprec::lint {

namespace {

using K = ast::ExprKind;

// How a value depends on `total`: not at all (Const; Zero is the literal 0),
// as k * total (Linear), as k * total + c (Affine), or otherwise.
enum class Deg { Zero, Const, Linear, Affine, Nonlinear };

struct Result {
    Deg deg = Deg::Const;
    const ast::Expr* culprit = nullptr;  // where linearity breaks
    std::string why;
};

bool has_total(Deg d) { return d == Deg::Linear || d == Deg::Affine || d == Deg::Nonlinear; }

Result nonlinear(const ast::Expr& at, std::string why) { return {Deg::Nonlinear, &at, std::move(why)}; }

class Linearity {
public:
    explicit Linearity(const Index& index) : index_(index) {}

    Result formula(const ast::Expr& e) { return eval(e, {}, 0); }

private:
    // The degree of each parameter, inside a fn body.
    using Frame = std::map<std::string, Result>;

    Result eval(const ast::Expr& e, const Frame& frame, int depth) {
        // The front end bounds an expression's depth, and fns do not recurse
        // (E0114); a file that fails that check still reaches here, so the
        // depth through fn bodies is bounded too.
        if (frames_ > kMaxFrames) return {};
        ++frames_;
        Result r = eval_node(e, frame, depth);
        --frames_;
        return r;
    }

    Result eval_node(const ast::Expr& e, const Frame& frame, int depth) {
        switch (e.kind) {
        case K::Literal: return {e.literal.as_double() == 0 ? Deg::Zero : Deg::Const, nullptr, {}};
        case K::Name: {
            if (auto it = frame.find(e.name); it != frame.end()) return it->second;
            if (e.name == "total" && depth == 0) return {Deg::Linear, nullptr, {}};
            return {};
        }
        case K::Unary: return eval(e.kids[0], frame, depth);
        case K::Binary: return binary(e, eval(e.kids[0], frame, depth), eval(e.kids[1], frame, depth));
        case K::IfElse: {
            const Result test = eval(e.kids[1], frame, depth);
            if (has_total(test.deg)) return nonlinear(e.kids[1], "the condition reads `total`");
            const Result a = eval(e.kids[0], frame, depth), b = eval(e.kids[2], frame, depth);
            return join(e, a, b);
        }
        case K::Call:
            if (index_.fns.count(e.name)) return call(e, frame, depth);
            [[fallthrough]];
        default: {
            // and, or, not, comparisons, max, min: each picks or tests values.
            for (const ast::Expr& k : e.kids) {
                const Result r = eval(k, frame, depth);
                if (r.deg == Deg::Nonlinear) return r;
                if (has_total(r.deg))
                    return nonlinear(e, e.kind == K::Call ? fmt::format("`{}` of `total` is not linear", e.name)
                                                          : "a truth or choice that depends on `total` is not linear");
            }
            return {};
        }
        }
    }

    Result binary(const ast::Expr& e, const Result& a, const Result& b) {
        if (a.deg == Deg::Nonlinear) return a;
        if (b.deg == Deg::Nonlinear) return b;
        switch (e.binary_op) {
        case ast::BinaryOp::Add:
        case ast::BinaryOp::Sub: {
            if (a.deg == Deg::Zero) return b;
            if (b.deg == Deg::Zero) return a;
            if (!has_total(a.deg) && !has_total(b.deg)) return {};
            if (a.deg == Deg::Linear && b.deg == Deg::Linear) return a;
            if (a.deg == Deg::Affine) return a;
            if (b.deg == Deg::Affine) return b;
            // One side scales with total, the other is a term of its own.
            const ast::Expr& term = has_total(a.deg) ? e.kids[1] : e.kids[0];
            return {Deg::Affine, &term,
                    fmt::format("`{}` is {} whatever `total` is", format::expr_source(term),
                                e.binary_op == ast::BinaryOp::Sub && &term == &e.kids[1] ? "subtracted" : "added")};
        }
        case ast::BinaryOp::Mul: {
            if (a.deg == Deg::Zero || b.deg == Deg::Zero) return {Deg::Zero, nullptr, {}};
            if (has_total(a.deg) && has_total(b.deg)) return nonlinear(e, "`total` is multiplied by itself");
            return has_total(a.deg) ? a : b;
        }
        case ast::BinaryOp::Div: {
            if (has_total(b.deg)) return nonlinear(e, "it divides by `total`");
            return a.deg == Deg::Zero ? a : has_total(a.deg) ? a : Result{};
        }
        default:
            if (has_total(a.deg) || has_total(b.deg))
                return nonlinear(e, fmt::format("`{}` of `total` is not linear", ast::binary_op_text(e.binary_op)));
            return {};
        }
    }

    Result join(const ast::Expr& e, const Result& a, const Result& b) {
        if (a.deg == Deg::Nonlinear) return a;
        if (b.deg == Deg::Nonlinear) return b;
        if (a.deg == b.deg) return a.culprit != nullptr ? a : b;
        // The literal 0 is both constant and linear (0 * total).
        if (a.deg == Deg::Zero && b.deg == Deg::Linear) return b;
        if (b.deg == Deg::Zero && a.deg == Deg::Linear) return a;
        if (!has_total(a.deg) && !has_total(b.deg)) return {};
        if (a.deg == Deg::Affine) return a;
        if (b.deg == Deg::Affine) return b;
        return nonlinear(e, "one branch scales with `total` and the other does not");
    }

    // A fn's body, with the degree of each argument bound to its parameter;
    // once for each fn and degrees of its arguments.
    Result call(const ast::Expr& e, const Frame& frame, int depth) {
        const ast::FnDecl& fn = *index_.fns.at(e.name).decl;
        Frame inner;
        std::vector<Deg> key;
        bool any = false;
        for (std::size_t k = 0; k < e.kids.size() && k < fn.params.size(); ++k) {
            Result r = eval(e.kids[k], frame, depth);
            if (r.deg == Deg::Nonlinear) return r;
            any = any || has_total(r.deg);
            key.push_back(r.deg);
            inner[fn.params[k].text] = Result{r.deg, nullptr, {}};
        }
        if (!any) return {};
        auto [it, fresh] = memo_.try_emplace({e.name, key});
        if (fresh) it->second = eval(fn.body, inner, depth + 1);
        Result r = it->second;
        if (r.deg == Deg::Nonlinear || r.deg == Deg::Affine) {
            r.why = fmt::format("in `{}`: {}", e.name, r.why);
            r.culprit = &e;
        }
        return r;
    }

    static constexpr int kMaxFrames = 4000;
    int frames_ = 0;
    std::map<std::pair<std::string, std::vector<Deg>>, Result> memo_;

    const Index& index_;
};

}  // namespace

void check_linear(const Index& index, Sink& sink) {
    Linearity linear(index);
    for (const Site& s : index.sites) {
        if (s.kind != SiteKind::Formula || index.library(s.file)) continue;
        const Result r = linear.formula(*s.expr);
        if (r.deg == Deg::Linear || r.deg == Deg::Zero) continue;
        std::string why = r.deg == Deg::Const ? "no part of it scales with `total`" : r.why;
        Diagnostic& d = sink.warn(code::kNotLinear, r.culprit != nullptr ? r.culprit->span : s.expr->span,
                                  fmt::format("the formula of slot `{}` is not linear in `total`: {}",
                                              s.slot->name.text, why));
        if (r.culprit != nullptr && r.culprit->span.line != s.expr->span.line)
            d.notes.push_back({s.expr->span, "in this formula"});
        d.notes.push_back({{}, "pricing switch settings by adding their effects assumes bytes(a + b) = "
                               "bytes(a) + bytes(b): write the formula as `total` times a factor"});
    }
}

}  // namespace oprec::lint
