// The AST written back as .rec text: each declaration on its own line(s),
// each formula on one line with only the brackets Python's precedence needs,
// so the text parses to the same tree (the same order of operations). What
// `oprec import` writes before fmt lays it out, and a canonical form to
// compare two modules by (spans and comments aside), and the form the
// linter compares conditions by and quotes in its messages.
#pragma once

#include <string>

#include "syntax/ast.h"

namespace oprec::format {

// Python syntax, as the reference's YAML and a .rec formula both take it.
std::string expr_source(const ast::Expr& e);
// One declaration; a slot or profile spans lines, its entries indented.
std::string decl_source(const ast::Decl& d);
// Every declaration in order, each ending in a newline.
std::string module_source(const ast::Module& m);

}  // namespace oprec::format
