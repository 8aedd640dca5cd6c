// ANTLR's parse tree -> our AST. Used only by parse.cpp, while the tree lives.
#pragma once

#include <optional>
#include <vector>

#include "RecParser.h"
#include "diag/diagnostic.h"
#include "syntax/ast.h"

namespace oprec {

class AstBuilder {
public:
    AstBuilder(FileId file, std::vector<Diagnostic>& diags) : file_(file), diags_(diags) {}

    ast::Module module(oprec_gen::RecParser::RecFileContext* ctx);
    ast::Decl decl(oprec_gen::RecParser::DeclContext* ctx);
    ast::Expr expression(oprec_gen::RecParser::ExprContext* ctx);
    // Whether it refused, as syntax errors, what Python's grammar does not allow.
    bool syntax_errors() const { return syntax_errors_; }

private:
    using P = oprec_gen::RecParser;

    ast::OpDecl op_clauses(ast::OpDecl op, const std::vector<P::OpClauseContext*>& clauses);
    ast::SlotDecl slot(P::SlotDeclContext* ctx);
    ast::ProfileDecl profile(P::ProfileDeclContext* ctx);
    ast::SettingDecl setting(bool model, antlr4::Token* keyword, P::NameContext* name, P::ExprContext* value);
    ast::Ident ident(P::NameContext* ctx) const;
    std::vector<ast::Ident> names(P::NameListContext* ctx) const;

    ast::Expr group(P::ExprContext* ctx);
    ast::Expr expr(P::ExprContext* ctx);
    ast::Expr arith_chain(P::ExprContext* ctx);
    std::optional<ast::Expr> chain_too_long(P::ExprContext* ctx, std::size_t operators, const char* example);
    ast::Expr comparison(P::ExprContext* ctx);
    ast::Expr logical(P::ExprContext* ctx);
    ast::Expr call(P::CallExprContext* ctx);
    ast::Expr atom(P::ExprContext* ctx);
    void python_operand(P::ExprContext* operand);
    void unexpected(antlr4::Token* token);
    ast::Expr number(antlr4::Token* token, bool is_float);

    Span span(antlr4::ParserRuleContext* ctx) const;
    Span span(antlr4::Token* token) const;
    Span span(antlr4::Token* start, antlr4::Token* stop) const;
    ast::Expr refused(Span where, std::string what) const;
    ast::Expr too_deep(antlr4::ParserRuleContext* ctx, const std::string& message);
    ast::Expr nested_too_deep(antlr4::ParserRuleContext* ctx);
    FileId file_;
    std::vector<Diagnostic>& diags_;
    int depth_ = 0;       // nesting: brackets, if-else, signs, not, ** (kMaxNesting)
    int tree_depth_ = 0;  // the tree's depth, chains counted (kMaxTreeDepth)
    bool too_deep_ = false;
    bool syntax_errors_ = false;  // Python's grammar refuses what ANTLR's took
};

}  // namespace oprec
