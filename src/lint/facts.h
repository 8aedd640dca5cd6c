// What the enclosing conditions say at a point of an expression: inside
// `x if a else y`, `a` is true at x and false at y; inside `a and b`, `a` is
// true at b; inside a slot `when w`, w is true everywhere in the slot. The
// facts decide a repeated condition (a branch never taken) and whether a
// name is known not to be zero (a guarded division).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "syntax/ast.h"

namespace oprec::lint {

class Facts {
public:
    // From here on, `cond` has the truth `truth`.
    void assume(const ast::Expr& cond, bool truth);

    struct Known {
        bool truth;
        const ast::Expr* guard;  // the enclosing condition that decides it
    };
    // The truth of `cond`, where the facts decide it.
    std::optional<Known> known(const ast::Expr& cond) const;
    // The guard that makes `name` non-zero here, if one does.
    const ast::Expr* nonzero(const std::string& name) const;

private:
    void assume_compare(const ast::Expr& cond, bool truth, const ast::Expr& guard);
    void assume_inner(const ast::Expr& cond, bool truth, const ast::Expr& guard);

    std::map<std::string, Known> truths_;               // by expr_text
    std::map<std::string, const ast::Expr*> nonzero_;   // name -> guard
};

}  // namespace oprec::lint
