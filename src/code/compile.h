// AST expressions -> Code: names interned to NameIds, fn calls linked,
// constant subexpressions folded. What the language refuses in an
// expression is reported here, each at its place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "code/code.h"
#include "syntax/ast.h"

namespace oprec {

struct FnSignature {
    std::string name;
    std::uint32_t params = 0;
};

// What an expression may see besides the layer's names.
struct CompileScope {
    const std::vector<std::string>* params = nullptr;  // a fn body's parameters
    bool total_allowed = false;                         // a slot's `bytes` formula
    bool total_is_name = false;                         // outside records, `total` is a name like any
};

class Compiler {
public:
    // `strict_calls`: refuse max/min of fewer than two arguments at load (the
    // records); otherwise they raise Python's TypeError when evaluated (calc).
    Compiler(Code& code, std::vector<std::string>& names, const std::vector<FnSignature>& fns,
             bool strict_calls, std::vector<Diagnostic>& diags)
        : code_(code), names_(names), fns_(fns), strict_calls_(strict_calls), diags_(diags) {}

    NodeId compile(const ast::Expr& expr, const CompileScope& scope);

    // Why a compiled expression that reads no name is not a constant: what
    // evaluating it raises (an overflow, a division by zero); none where it
    // reads a name, or computes.
    std::optional<std::string> constant_error(NodeId id) const;

private:
    NodeId node(const ast::Expr& e, const CompileScope& scope);
    NodeId list_node(Op op, const std::vector<ast::Expr>& kids, const CompileScope& scope, const Span& span,
                     std::uint32_t c = 0);
    NameId intern(const std::string& name);
    NodeId constant(Value v, const Span& span);
    NodeId fold(NodeId id);
    void error(const Span& span, const char* code, std::string message);

    Code& code_;
    std::vector<std::string>& names_;
    const std::vector<FnSignature>& fns_;
    bool strict_calls_;
    std::vector<Diagnostic>& diags_;
};

// Gives the expression rooted at `root` its straight-line form in `code`
// (Code::instrs, entry): Compiler::compile does this for every root it
// returns. An expression the form cannot take (max/min of too few numbers,
// nesting deeper than kMaxLinearDepth) keeps none and is walked as a tree.
void emit_linear(Code& code, NodeId root);

// Every name an expression reads, in order of first appearance (calls' names excluded).
void collect_names(const ast::Expr& e, std::vector<std::string>& out);

}  // namespace oprec
