// An expression written back as text, with only the brackets Python's
// precedence needs: a canonical form to compare conditions by and to quote
// in messages.
#pragma once

#include <string>

#include "syntax/ast.h"

namespace oprec::lint {

std::string expr_text(const ast::Expr& e);

}  // namespace oprec::lint
