// Constant expressions, as the compiler folds them at load.
#pragma once

#include <optional>

#include "syntax/ast.h"
#include "value/value.h"

namespace oprec::lint {

// Whether `e` reads nothing: no name, no fn call, nothing refused.
bool reads_nothing(const ast::Expr& e);
// The value the compiler folds `e` to, if it reads nothing and computing it
// succeeds (1 / 0 does not fold: it fails when evaluated).
std::optional<Value> constant_value(const ast::Expr& e);

}  // namespace oprec::lint
