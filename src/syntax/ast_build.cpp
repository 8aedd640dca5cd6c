#include "syntax/ast_build.h"

#include <charconv>

#include <fmt/format.h>

#include "syntax/parse.h"

namespace oprec {

namespace {

// The guard for recursion depth: counts on entry, uncounts on exit.
struct DepthGuard {
    int& depth;
    int by;
    explicit DepthGuard(int& d, int n = 1) : depth(d), by(n) { depth += by; }
    ~DepthGuard() { depth -= by; }
};

std::string strip_quotes(const std::string& text) {
    std::size_t q = text.find_first_of("'\"");
    if (q == std::string::npos || text.size() < q + 2) return text;
    return text.substr(q + 1, text.size() - q - 2);
}

}  // namespace

Span AstBuilder::span(antlr4::Token* token) const {
    if (token == nullptr) return {file_, 0, 0, 0};
    std::size_t n = token->getStopIndex() >= token->getStartIndex()
                        ? token->getStopIndex() - token->getStartIndex() + 1 : 1;
    return {file_, static_cast<std::uint32_t>(token->getLine()),
            static_cast<std::uint32_t>(token->getCharPositionInLine() + 1), static_cast<std::uint32_t>(n)};
}

// From the first token to the last, or to the end of the first line where
// the node spans several.
Span AstBuilder::span(antlr4::ParserRuleContext* ctx) const { return span(ctx->getStart(), ctx->getStop()); }

Span AstBuilder::span(antlr4::Token* start, antlr4::Token* stop) const {
    Span s = span(start);
    if (start == nullptr) return s;
    if (stop != nullptr && stop->getLine() == start->getLine() &&
        stop->getStopIndex() >= start->getStartIndex()) {
        Span e = span(stop);
        s.len = e.col + e.len - s.col;
    } else if (stop != nullptr && stop->getLine() != start->getLine()) {
        s.len = 1 << 16;  // the renderer cuts it at the line's end
    }
    return s;
}

ast::Expr AstBuilder::refused(Span where, std::string what) const {
    ast::Expr e;
    e.kind = ast::ExprKind::Refused;
    e.span = where;
    e.name = std::move(what);
    return e;
}

ast::Ident AstBuilder::ident(P::NameContext* ctx) const { return {ctx->getText(), span(ctx)}; }

std::vector<ast::Ident> AstBuilder::names(P::NameListContext* ctx) const {
    std::vector<ast::Ident> out;
    for (auto* n : ctx->name()) out.push_back(ident(n));
    return out;
}

// ---- declarations ------------------------------------------------------------

ast::Module AstBuilder::module(P::RecFileContext* ctx) {
    ast::Module m;
    m.file = file_;
    for (auto* d : ctx->decl()) m.decls.push_back(decl(d));
    return m;
}

ast::Decl AstBuilder::decl(P::DeclContext* ctx) {
    if (auto* d = ctx->importDecl()) return ast::ImportDecl{strip_quotes(d->STRING()->getText()), span(d)};
    if (auto* d = ctx->vocabDecl()) {
        const std::string kw = d->kind->getText();
        ast::VocabKind kind = kw == "switches"     ? ast::VocabKind::Switches
                              : kw == "layerparts" ? ast::VocabKind::LayerParts
                                                   : ast::VocabKind::OpVector;
        return ast::VocabDecl{kind, names(d->nameList()), span(d->kind)};
    }
    if (auto* d = ctx->defaultDecl()) return ast::DefaultDecl{ident(d->name()), expr(d->expr())};
    if (auto* d = ctx->opDecl()) {
        ast::OpDecl op;
        op.name = ident(d->name());
        op.span = span(d->getStart());
        return op_clauses(std::move(op), d->opClause());
    }
    if (auto* d = ctx->partDecl()) {
        ast::OpDecl op;
        op.name = ident(d->name(0));
        op.part_of = ident(d->name(1));
        op.span = span(d->getStart());
        return op_clauses(std::move(op), d->opClause());
    }
    if (auto* d = ctx->slotDecl()) return slot(d);
    if (auto* d = ctx->fieldDecl()) {
        ast::FieldDecl f;
        f.context = d->kind->getText() == "context";
        f.name = ident(d->name());
        for (auto* t : d->fieldType()->name()) f.types.push_back(ident(t));
        f.optional = d->fieldType()->optional != nullptr;
        if (d->unit != nullptr) f.unit = strip_quotes(d->unit->getText());
        if (d->doc != nullptr) f.doc = strip_quotes(d->doc->getText());
        f.span = span(d->kind);
        return f;
    }
    auto* d = ctx->fnDecl();
    ast::FnDecl fn;
    auto ns = d->name();
    fn.name = ident(ns.front());
    for (std::size_t i = 1; i < ns.size(); ++i) fn.params.push_back(ident(ns[i]));
    fn.body = expr(d->expr());
    return fn;
}

ast::OpDecl AstBuilder::op_clauses(ast::OpDecl op, const std::vector<P::OpClauseContext*>& clauses) {
    bool seen_switch = false, seen_needs = false, seen_comm = false;
    auto once = [&](bool& seen, antlr4::ParserRuleContext* c) {
        if (seen) op.duplicate_clauses.push_back(span(c));
        seen = true;
    };
    for (auto* c : clauses) {
        if (auto* s = dynamic_cast<P::SwitchClauseContext*>(c)) {
            once(seen_switch, c);
            op.switch_name = ident(s->name());
        } else if (auto* n = dynamic_cast<P::NeedsClauseContext*>(c)) {
            once(seen_needs, c);
            for (auto& id : names(n->nameList())) op.needs.push_back(std::move(id));
        } else {
            once(seen_comm, c);
            op.comm = true;
        }
    }
    return op;
}

ast::SlotDecl AstBuilder::slot(P::SlotDeclContext* ctx) {
    ast::SlotDecl s;
    s.name = ident(ctx->name(0));
    s.layer_part = ident(ctx->name(1));
    s.span = span(ctx->getStart());
    if (ctx->expr() != nullptr) s.when = expr(ctx->expr());
    for (auto* e : ctx->slotEntry()) s.entries.push_back({ident(e->name()), expr(e->expr())});
    return s;
}

// ---- expressions -------------------------------------------------------------

ast::Expr AstBuilder::expression(P::ExprContext* ctx) { return expr(ctx); }

// Deeper than the stages after the parser may recurse: reported once, at
// the first place, and the expression is refused.
ast::Expr AstBuilder::too_deep(antlr4::ParserRuleContext* ctx, const std::string& message) {
    if (!too_deep_) diags_.push_back({Severity::Error, "E0003", span(ctx), message, {}, {}});
    too_deep_ = true;
    return refused(span(ctx), "an expression nested too deep");
}

ast::Expr AstBuilder::nested_too_deep(antlr4::ParserRuleContext* ctx) {
    return too_deep(ctx, fmt::format("expression nested deeper than {} levels", kMaxNesting));
}

// Each nesting construct (a bracket, an if-else, a unary sign, `not`, `**`)
// counts one level, toward both limits; a chain a + b + c counts one level of
// the tree for each operator (it becomes ((a + b) + c)), toward the second.
ast::Expr AstBuilder::expr(P::ExprContext* ctx) {
    DepthGuard guard(depth_), tree(tree_depth_);
    if (depth_ > kMaxNesting) return nested_too_deep(ctx);
    ast::Expr body = or_test(ctx->orTest(0));
    if (ctx->expr() == nullptr) return body;
    ast::Expr e;
    e.kind = ast::ExprKind::IfElse;
    e.span = span(ctx);
    e.kids.push_back(std::move(body));
    e.kids.push_back(or_test(ctx->orTest(1)));
    e.kids.push_back(expr(ctx->expr()));
    return e;
}

ast::Expr AstBuilder::or_test(P::OrTestContext* ctx) {
    auto parts = ctx->andTest();
    if (parts.size() == 1) return and_test(parts[0]);
    ast::Expr e;
    e.kind = ast::ExprKind::Or;
    e.span = span(ctx);
    for (auto* p : parts) e.kids.push_back(and_test(p));
    return e;
}

ast::Expr AstBuilder::and_test(P::AndTestContext* ctx) {
    auto parts = ctx->notTest();
    if (parts.size() == 1) return not_test(parts[0]);
    ast::Expr e;
    e.kind = ast::ExprKind::And;
    e.span = span(ctx);
    for (auto* p : parts) e.kids.push_back(not_test(p));
    return e;
}

ast::Expr AstBuilder::not_test(P::NotTestContext* ctx) {
    if (ctx->notTest() == nullptr) return comparison(ctx->comparison());
    DepthGuard guard(depth_), tree(tree_depth_);
    if (depth_ > kMaxNesting) return nested_too_deep(ctx);
    ast::Expr e;
    e.kind = ast::ExprKind::Not;
    e.span = span(ctx);
    e.kids.push_back(not_test(ctx->notTest()));
    return e;
}

ast::Expr AstBuilder::comparison(P::ComparisonContext* ctx) {
    auto operands = ctx->arith();
    if (operands.size() == 1) return arith(operands[0]);
    ast::Expr e;
    e.kind = ast::ExprKind::Compare;
    e.span = span(ctx);
    for (auto* op : ctx->compOp()) {
        const std::string t = op->getText();
        e.compare_ops.push_back(t == "<"    ? py::CmpOp::Lt
                                : t == "<=" ? py::CmpOp::Le
                                : t == ">"  ? py::CmpOp::Gt
                                : t == ">=" ? py::CmpOp::Ge
                                : t == "==" ? py::CmpOp::Eq
                                            : py::CmpOp::Ne);
    }
    for (auto* a : operands) e.kids.push_back(arith(a));
    return e;
}

namespace {
ast::Expr binary(ast::BinaryOp op, ast::Expr lhs, ast::Expr rhs, Span where) {
    ast::Expr e;
    e.kind = ast::ExprKind::Binary;
    e.binary_op = op;
    e.span = where;
    e.kids.push_back(std::move(lhs));
    e.kids.push_back(std::move(rhs));
    return e;
}
}  // namespace

// Left-associative chains: a - b - c is (a - b) - c. Each node spans its own
// operands, from the chain's first to its own last. (The operator lists are
// taken once: ANTLR's indexed getters scan every child, which made a long
// chain quadratic.)
template <class Operand, class Build, class OpOf>
ast::Expr AstBuilder::chain(antlr4::ParserRuleContext* ctx, const std::vector<Operand*>& operands,
                            const std::vector<antlr4::ParserRuleContext*>& ops, Build build, OpOf op_of) {
    const int levels = static_cast<int>(operands.size()) - 1;
    if (tree_depth_ + levels > kMaxTreeDepth)
        return too_deep(ctx, fmt::format("expression nested deeper than {} levels (each operator of a chain "
                                         "like a + b + c is one level)", kMaxTreeDepth));
    ast::Expr e;
    {
        DepthGuard tree(tree_depth_, levels);  // the first operand is the deepest
        e = build(operands[0]);
    }
    for (std::size_t i = 1; i < operands.size(); ++i) {
        DepthGuard tree(tree_depth_, levels - static_cast<int>(i) + 1);
        Span where = span(ctx->getStart(), operands[i]->getStop());
        e = binary(op_of(ops[i - 1]->getText()), std::move(e), build(operands[i]), where);
    }
    return e;
}

ast::Expr AstBuilder::arith(P::ArithContext* ctx) {
    auto ops = ctx->addOp();
    return chain(ctx, ctx->term(), {ops.begin(), ops.end()}, [&](P::TermContext* t) { return term(t); },
                 [](const std::string& t) { return t == "+" ? ast::BinaryOp::Add : ast::BinaryOp::Sub; });
}

ast::Expr AstBuilder::term(P::TermContext* ctx) {
    auto ops = ctx->mulOp();
    return chain(ctx, ctx->factor(), {ops.begin(), ops.end()}, [&](P::FactorContext* f) { return factor(f); },
                 [](const std::string& t) {
                     return t == "*"    ? ast::BinaryOp::Mul
                            : t == "/"  ? ast::BinaryOp::Div
                            : t == "//" ? ast::BinaryOp::FloorDiv
                                        : ast::BinaryOp::Mod;
                 });
}

ast::Expr AstBuilder::factor(P::FactorContext* ctx) {
    if (ctx->power() != nullptr) return power(ctx->power());
    DepthGuard guard(depth_), tree(tree_depth_);
    if (depth_ > kMaxNesting) return nested_too_deep(ctx);
    ast::Expr e;
    e.kind = ast::ExprKind::Unary;
    e.unary_op = ctx->sign->getText() == "-" ? ast::UnaryOp::Neg : ast::UnaryOp::Pos;
    e.span = span(ctx);
    e.kids.push_back(factor(ctx->factor()));
    return e;
}

// Right-associative: a ** b ** c is a ** (b ** c), through `factor`.
ast::Expr AstBuilder::power(P::PowerContext* ctx) {
    ast::Expr base = postfix(ctx->postfix());
    if (ctx->factor() == nullptr) return base;
    DepthGuard guard(depth_), tree(tree_depth_);
    if (depth_ > kMaxNesting) return nested_too_deep(ctx);
    return binary(ast::BinaryOp::Pow, std::move(base), factor(ctx->factor()), span(ctx));
}

ast::Expr AstBuilder::postfix(P::PostfixContext* ctx) {
    ast::Expr callee = atom(ctx->atom());
    for (auto* call : ctx->callArgs()) {
        // Only a name can be called: max, min or a fn ((max)(a, b) is max(a, b)).
        ast::Expr e;
        e.span = span(ctx);
        if (callee.kind != ast::ExprKind::Name)
            return refused(e.span, "a call of something other than max, min or a fn");
        e.kind = ast::ExprKind::Call;
        e.name = callee.name;
        for (auto* a : call->expr()) e.kids.push_back(expr(a));
        callee = std::move(e);
    }
    return callee;
}

ast::Expr AstBuilder::atom(P::AtomContext* ctx) {
    Span where = span(ctx);
    if (auto* p = dynamic_cast<P::ParenAtomContext*>(ctx)) return expr(p->expr());
    if (auto* n = dynamic_cast<P::NameAtomContext*>(ctx)) {
        ast::Expr e;
        e.kind = ast::ExprKind::Name;
        e.name = n->getText();
        e.span = where;
        return e;
    }
    if (auto* i = dynamic_cast<P::IntAtomContext*>(ctx)) return number(i->INT()->getSymbol(), false);
    if (auto* f = dynamic_cast<P::FloatAtomContext*>(ctx)) return number(f->FLOAT()->getSymbol(), true);
    if (dynamic_cast<P::TrueAtomContext*>(ctx) || dynamic_cast<P::FalseAtomContext*>(ctx)) {
        ast::Expr e;
        e.literal = Value::boolean(dynamic_cast<P::TrueAtomContext*>(ctx) != nullptr);
        e.span = where;
        return e;
    }
    if (dynamic_cast<P::StringAtomContext*>(ctx)) return refused(where, "a string");
    if (dynamic_cast<P::ImagAtomContext*>(ctx)) return refused(where, "an imaginary number");
    if (dynamic_cast<P::NoneAtomContext*>(ctx)) return refused(where, "None");
    return refused(where, "Ellipsis");
}

ast::Expr AstBuilder::number(antlr4::Token* token, bool is_float) {
    std::string text;
    for (char c : token->getText())
        if (c != '_') text += c;
    ast::Expr e;
    e.span = span(token);
    if (is_float) {
        double v = 0;
        auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        // from_chars reports out-of-range for an overflow; Python gives inf.
        if (ec == std::errc::result_out_of_range) v = std::strtod(text.c_str(), nullptr);
        (void)ptr;
        e.literal = Value::real(v);
        return e;
    }
    int base = 10;
    std::size_t skip = 0;
    if (text.size() > 2 && text[0] == '0' && std::isalpha(static_cast<unsigned char>(text[1]))) {
        char p = static_cast<char>(std::tolower(static_cast<unsigned char>(text[1])));
        base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
        skip = 2;
    }
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data() + skip, text.data() + text.size(), v, base);
    (void)ptr;
    if (ec != std::errc()) return refused(e.span, "an integer literal beyond 64 bits");
    e.literal = Value::integer(v);
    return e;
}

}  // namespace oprec
