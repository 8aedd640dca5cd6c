// ANTLR's parse tree -> our AST. Used only by parse.cpp, while the tree lives.
#pragma once

#include <vector>

#include "RecParser.h"
#include "diag/diagnostic.h"
#include "syntax/ast.h"

namespace oprec {

class AstBuilder {
public:
    AstBuilder(FileId file, std::vector<Diagnostic>& diags) : file_(file), diags_(diags) {}

    ast::Module module(oprec_gen::RecParser::RecFileContext* ctx);
    ast::Expr expression(oprec_gen::RecParser::ExprContext* ctx);

private:
    using P = oprec_gen::RecParser;

    ast::Decl decl(P::DeclContext* ctx);
    ast::OpDecl op_clauses(ast::OpDecl op, const std::vector<P::OpClauseContext*>& clauses);
    ast::SlotDecl slot(P::SlotDeclContext* ctx);
    ast::Ident ident(P::NameContext* ctx) const;
    std::vector<ast::Ident> names(P::NameListContext* ctx) const;

    ast::Expr expr(P::ExprContext* ctx);
    ast::Expr or_test(P::OrTestContext* ctx);
    ast::Expr and_test(P::AndTestContext* ctx);
    ast::Expr not_test(P::NotTestContext* ctx);
    ast::Expr comparison(P::ComparisonContext* ctx);
    ast::Expr arith(P::ArithContext* ctx);
    ast::Expr term(P::TermContext* ctx);
    ast::Expr factor(P::FactorContext* ctx);
    ast::Expr power(P::PowerContext* ctx);
    ast::Expr postfix(P::PostfixContext* ctx);
    ast::Expr atom(P::AtomContext* ctx);
    ast::Expr number(antlr4::Token* token, bool is_float);

    Span span(antlr4::ParserRuleContext* ctx) const;
    Span span(antlr4::Token* token) const;
    Span span(antlr4::Token* start, antlr4::Token* stop) const;
    ast::Expr refused(Span where, std::string what) const;
    ast::Expr too_deep(antlr4::ParserRuleContext* ctx, const std::string& message);
    ast::Expr nested_too_deep(antlr4::ParserRuleContext* ctx);
    template <class Operand, class Build, class OpOf>
    ast::Expr chain(antlr4::ParserRuleContext* ctx, const std::vector<Operand*>& operands,
                    const std::vector<antlr4::ParserRuleContext*>& ops, Build build, OpOf op_of);

    FileId file_;
    std::vector<Diagnostic>& diags_;
    int depth_ = 0;       // nesting: brackets, if-else, signs, not, ** (kMaxNesting)
    int tree_depth_ = 0;  // the tree's depth, chains counted (kMaxTreeDepth)
    bool too_deep_ = false;
};

}  // namespace oprec
