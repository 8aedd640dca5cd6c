#include "syntax/ast_build.h"

#include <charconv>
#include <typeinfo>

#include <fmt/format.h>

#include "diag/codes.h"
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

// A rule's text is built through a string stream; a name, an operator is one
// token, whose text is much cheaper to get.
namespace {
std::string token_text(antlr4::ParserRuleContext* ctx) { return ctx->getStart()->getText(); }
}  // namespace

ast::Ident AstBuilder::ident(P::NameContext* ctx) const { return {token_text(ctx), span(ctx)}; }

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
    if (auto* d = ctx->defaultDecl()) return ast::DefaultDecl{ident(d->name()), expression(d->expr())};
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
    if (auto* d = ctx->runDecl()) return setting(false, d->getStart(), d->name(), d->expr());
    if (auto* d = ctx->profileDecl()) return profile(d);
    if (auto* d = ctx->termDecl())
        return ast::TermDecl{d->kind->getText() == "beside", ident(d->name()), expression(d->expr()), span(d->kind)};
    auto* d = ctx->fnDecl();
    ast::FnDecl fn;
    auto ns = d->name();
    fn.name = ident(ns.front());
    for (std::size_t i = 1; i < ns.size(); ++i) fn.params.push_back(ident(ns[i]));
    fn.body = expression(d->expr());
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
    if (ctx->expr() != nullptr) s.when = expression(ctx->expr());
    for (auto* e : ctx->slotEntry()) s.entries.push_back({ident(e->name()), expression(e->expr())});
    return s;
}

ast::SettingDecl AstBuilder::setting(bool model, antlr4::Token* keyword, P::NameContext* name, P::ExprContext* value) {
    return {model, ident(name), expression(value), span(keyword), {}};
}

ast::ProfileDecl AstBuilder::profile(P::ProfileDeclContext* ctx) {
    ast::ProfileDecl p;
    p.name = ident(ctx->name());
    p.span = span(ctx->getStart());
    for (auto* m : ctx->STRING()) p.matches.push_back({strip_quotes(m->getText()), span(m->getSymbol())});
    for (auto* item : ctx->profileItem()) {
        if (auto* k = dynamic_cast<P::KindItemContext*>(item)) {
            ast::ProfileKind kind;
            kind.name = ident(k->name());
            kind.span = span(k->getStart());
            for (auto* f : k->flavour()) kind.flavours.emplace_back(ident(f->name(0)), ident(f->name(1)));
            auto count = [&](antlr4::tree::TerminalNode* n, std::optional<ast::Ident> op) {
                ast::Expr e = number(n->getSymbol(), false);
                ast::OpCount c{std::move(op), 0, e.span};
                // A count beyond 64 bits comes back refused: -1 lets the checker say so.
                c.count = e.kind == ast::ExprKind::Literal ? e.literal.i : -1;
                kind.counts.push_back(std::move(c));
            };
            if (auto* v = dynamic_cast<P::CountVectorContext*>(k->opCounts())) {
                for (auto* n : v->INT()) count(n, std::nullopt);
            } else {
                auto* named = dynamic_cast<P::NamedCountsContext*>(k->opCounts());
                kind.named = true;
                for (std::size_t i = 0; i < named->INT().size(); ++i) count(named->INT(i), ident(named->name(i)));
            }
            p.kinds.push_back(std::move(kind));
        } else if (auto* d = dynamic_cast<P::DefaultKindItemContext*>(item)) {
            p.default_kinds.push_back(ident(d->name()));
        } else {
            auto* s = dynamic_cast<P::SettingItemContext*>(item);
            p.settings.push_back(setting(s->which->getText() == "model", s->which, s->name(), s->expr()));
            for (auto* m : s->STRING())
                p.settings.back().matches.push_back({strip_quotes(m->getText()), span(m->getSymbol())});
        }
    }
    return p;
}

// ---- expressions -------------------------------------------------------------

namespace {

using P = oprec_gen::RecParser;

// The alternative a context is: its exact class (cheaper than dynamic_cast,
// which walks the hierarchy, once per node of a large file).
template <class T>
bool is(const antlr4::ParserRuleContext* ctx) { return typeid(*ctx) == typeid(T); }

// The i-th child of a node whose shape the grammar fixes (only a tree without
// syntax errors is built from).
template <class T = P::ExprContext>
T* child(const antlr4::ParserRuleContext* ctx, std::size_t i) { return static_cast<T*>(ctx->children[i]); }

ast::Expr binary(ast::BinaryOp op, ast::Expr lhs, ast::Expr rhs, Span where) {
    ast::Expr e;
    e.kind = ast::ExprKind::Binary;
    e.binary_op = op;
    e.span = where;
    e.kids.push_back(std::move(lhs));
    e.kids.push_back(std::move(rhs));
    return e;
}

ast::BinaryOp binary_op(const std::string& t) {
    return t == "+"    ? ast::BinaryOp::Add
           : t == "-"  ? ast::BinaryOp::Sub
           : t == "*"  ? ast::BinaryOp::Mul
           : t == "/"  ? ast::BinaryOp::Div
           : t == "//" ? ast::BinaryOp::FloorDiv
                       : ast::BinaryOp::Mod;
}

// The operator of a binary node: its middle child, a token.
std::string operator_text(const antlr4::ParserRuleContext* ctx) {
    return child<antlr4::tree::TerminalNode>(ctx, 1)->getSymbol()->getText();
}

// Whether a node is a leaf or in parentheses, the commonest first: each
// test that fails compares the classes' names.
bool is_atom(const P::ExprContext* ctx) {
    return is<P::NameExprContext>(ctx) || is<P::IntExprContext>(ctx) || is<P::ParenExprContext>(ctx) ||
           is<P::FloatExprContext>(ctx);
}

py::CmpOp compare_op(const std::string& t) {
    return t == "<"    ? py::CmpOp::Lt
           : t == "<=" ? py::CmpOp::Le
           : t == ">"  ? py::CmpOp::Gt
           : t == ">=" ? py::CmpOp::Ge
           : t == "==" ? py::CmpOp::Eq
                       : py::CmpOp::Ne;
}

}  // namespace

// A whole expression: its top is no nesting, so 200 brackets or signs are
// allowed, as the limit says ("deeper than 200 levels").
ast::Expr AstBuilder::expression(P::ExprContext* ctx) { return expr(ctx); }

// Deeper than the stages after the parser may recurse: reported once, at
// the first place, and the expression is refused.
ast::Expr AstBuilder::too_deep(antlr4::ParserRuleContext* ctx, const std::string& message) {
    if (!too_deep_) diags_.push_back({Severity::Error, code::kNestedTooDeep, span(ctx), message, {}, {}});
    too_deep_ = true;
    return refused(span(ctx), "an expression nested too deep");
}

ast::Expr AstBuilder::nested_too_deep(antlr4::ParserRuleContext* ctx) {
    return too_deep(ctx, fmt::format("expression nested deeper than {} levels", kMaxNesting));
}

// What Python's grammar does not allow where the one-rule grammar does: `not`
// as the operand of a tighter operator (`a + not b`, `-not a`), a conditional
// as a conditional's condition. Reported as the parser would: at the token.
void AstBuilder::python_operand(P::ExprContext* operand) {
    if (is<P::NotExprContext>(operand)) unexpected(operand->getStart());
}

void AstBuilder::unexpected(antlr4::Token* token) {
    diags_.push_back({Severity::Error, code::kSyntaxError, span(token),
                      fmt::format("syntax error: unexpected `{}`", token->getText()), {}, {}});
    syntax_errors_ = true;
}

// An expression where Python's grammar starts one afresh inside another:
// inside brackets, a call's argument. Each counts a level of nesting (the
// whole formula, through expression(), counts none).
ast::Expr AstBuilder::group(P::ExprContext* ctx) {
    DepthGuard guard(depth_), tree(tree_depth_);
    if (depth_ > kMaxNesting) return nested_too_deep(ctx);
    return expr(ctx);
}

// Each nesting construct (a bracket, an if-else, a unary sign, `not`, `**`)
// counts one level, toward both limits; a chain a + b + c counts one level of
// the tree for each operator (it becomes ((a + b) + c)), toward the second.
ast::Expr AstBuilder::expr(P::ExprContext* ctx) {
    if (is_atom(ctx)) return atom(ctx);
    if (is<P::MulExprContext>(ctx) || is<P::AddExprContext>(ctx)) return arith_chain(ctx);
    if (is<P::CallExprContext>(ctx)) return call(static_cast<P::CallExprContext*>(ctx));
    if (is<P::CompareExprContext>(ctx)) return comparison(ctx);
    if (is<P::AndExprContext>(ctx) || is<P::OrExprContext>(ctx)) return logical(ctx);
    if (!is<P::SignExprContext>(ctx) && !is<P::NotExprContext>(ctx) && !is<P::PowerExprContext>(ctx) &&
        !is<P::IfElseExprContext>(ctx))
        return atom(ctx);  // the rarer leaves
    DepthGuard guard(depth_), tree(tree_depth_);
    if (depth_ > kMaxNesting) return nested_too_deep(ctx);
    ast::Expr e;
    e.span = span(ctx);
    if (is<P::SignExprContext>(ctx)) {
        auto* operand = child(ctx, 1);
        python_operand(operand);
        e.kind = ast::ExprKind::Unary;
        e.unary_op = static_cast<P::SignExprContext*>(ctx)->op->getText() == "-" ? ast::UnaryOp::Neg
                                                                                       : ast::UnaryOp::Pos;
        e.kids.push_back(expr(operand));
        return e;
    }
    if (is<P::NotExprContext>(ctx)) {
        e.kind = ast::ExprKind::Not;
        e.kids.push_back(expr(child(ctx, 1)));
        return e;
    }
    if (is<P::PowerExprContext>(ctx)) {  // right-associative: a ** b ** c is a ** (b ** c)
        auto* exponent = child(ctx, 2);
        python_operand(exponent);
        return binary(ast::BinaryOp::Pow, expr(child(ctx, 0)), expr(exponent), e.span);
    }
    // a if b else c: the branches may be anything, the condition not another conditional.
    auto* condition = child(ctx, 2);
    if (is<P::IfElseExprContext>(condition)) unexpected(child<antlr4::tree::TerminalNode>(condition, 1)->getSymbol());
    e.kind = ast::ExprKind::IfElse;
    e.kids.push_back(expr(child(ctx, 0)));
    e.kids.push_back(expr(condition));
    e.kids.push_back(expr(child(ctx, 4)));
    return e;
}

// A comparison or and/or chain is one flat node of all its operands (no
// level each: nothing recurses on it), whose count is 16 bits: a chain of
// 65,536 once lost the operands past it and gave a wrong value.
std::optional<ast::Expr> AstBuilder::chain_too_long(P::ExprContext* ctx, std::size_t operators, const char* example) {
    if (operators + 1 <= kMaxChainOperands) return std::nullopt;
    return too_deep(ctx, fmt::format("a chain like {} of {} operands: at most {}", example, operators + 1,
                                     kMaxChainOperands));
}

// Left-associative chains of one precedence level: a - b - c is (a - b) - c.
// The parse tree leans left, one node per operator; it is walked down its
// left edge without recursion, so a long chain costs no stack. Each node spans
// its own operands, from the chain's first to its own last.
ast::Expr AstBuilder::arith_chain(P::ExprContext* ctx) {
    std::vector<P::ExprContext*> spine{ctx};  // the chain's nodes, last operator first
    const std::type_info& level = typeid(*ctx);
    while (typeid(*child(spine.back(), 0)) == level) spine.push_back(child(spine.back(), 0));
    const int levels = static_cast<int>(spine.size());
    if (tree_depth_ + levels > kMaxTreeDepth)
        return too_deep(ctx, fmt::format("expression nested deeper than {} levels (each operator of a chain "
                                         "like a + b + c is one level)", kMaxTreeDepth));
    ast::Expr e;
    {
        DepthGuard tree(tree_depth_, levels);  // the first operand is the deepest
        auto* first = child(spine.back(), 0);
        python_operand(first);
        e = expr(first);
    }
    for (std::size_t k = spine.size(); k-- > 0;) {
        P::ExprContext* node = spine[k];
        DepthGuard tree(tree_depth_, static_cast<int>(k) + 1);
        auto* rhs = child(node, 2);
        python_operand(rhs);
        e = binary(binary_op(operator_text(node)), std::move(e), expr(rhs),
                   span(node));
    }
    return e;
}

// a < b < c is one comparison of three operands, as in Python; (a < b) < c
// compares the first comparison's result.
ast::Expr AstBuilder::comparison(P::ExprContext* ctx) {
    std::vector<P::ExprContext*> spine{ctx};
    while (is<P::CompareExprContext>(child(spine.back(), 0))) spine.push_back(child(spine.back(), 0));
    if (const auto refused = chain_too_long(ctx, spine.size(), "a < b < c")) return *refused;
    ast::Expr e;
    e.kind = ast::ExprKind::Compare;
    e.span = span(ctx);
    auto* first = child(spine.back(), 0);
    python_operand(first);
    e.kids.push_back(expr(first));
    for (std::size_t k = spine.size(); k-- > 0;) {
        e.compare_ops.push_back(compare_op(operator_text(spine[k])));
        auto* rhs = child(spine[k], 2);
        python_operand(rhs);
        e.kids.push_back(expr(rhs));
    }
    return e;
}

// a and b and c: one node with every operand, as Python evaluates it.
ast::Expr AstBuilder::logical(P::ExprContext* ctx) {
    const std::type_info& level = typeid(*ctx);
    std::vector<P::ExprContext*> spine{ctx};
    while (typeid(*child(spine.back(), 0)) == level) spine.push_back(child(spine.back(), 0));
    if (const auto refused = chain_too_long(ctx, spine.size(), is<P::AndExprContext>(ctx) ? "a and b and c" : "a or b or c")) return *refused;
    ast::Expr e;
    e.kind = is<P::AndExprContext>(ctx) ? ast::ExprKind::And : ast::ExprKind::Or;
    e.span = span(ctx);
    e.kids.push_back(expr(child(spine.back(), 0)));
    for (std::size_t k = spine.size(); k-- > 0;) e.kids.push_back(expr(child(spine[k], 2)));
    return e;
}

ast::Expr AstBuilder::call(P::CallExprContext* ctx) {
    auto* callee_ctx = child(ctx, 0);
    python_operand(callee_ctx);
    ast::Expr callee = expr(callee_ctx);
    // Only a name can be called: max, min or a fn ((max)(a, b) is max(a, b)).
    ast::Expr e;
    e.span = span(ctx);
    if (callee.kind != ast::ExprKind::Name)
        return refused(e.span, "a call of something other than max, min or a fn");
    e.kind = ast::ExprKind::Call;
    e.name = callee.name;
    for (auto* a : child<P::CallArgsContext>(ctx, 1)->expr()) e.kids.push_back(group(a));
    return e;
}

// A leaf, or a parenthesized expression.
ast::Expr AstBuilder::atom(P::ExprContext* ctx) {
    if (is<P::NameExprContext>(ctx)) {
        ast::Expr e;
        e.kind = ast::ExprKind::Name;
        e.name = token_text(ctx);
        e.span = span(ctx);
        return e;
    }
    if (is<P::IntExprContext>(ctx)) return number(ctx->getStart(), false);
    if (is<P::ParenExprContext>(ctx)) return group(child(ctx, 1));
    const Span where = span(ctx);
    if (is<P::FloatExprContext>(ctx)) return number(ctx->getStart(), true);
    if (is<P::TrueExprContext>(ctx) || is<P::FalseExprContext>(ctx)) {
        ast::Expr e;
        e.literal = Value::boolean(is<P::TrueExprContext>(ctx));
        e.span = where;
        return e;
    }
    if (is<P::StringExprContext>(ctx)) return refused(where, "a string");
    if (is<P::ImagExprContext>(ctx)) return refused(where, "an imaginary number");
    if (is<P::NoneExprContext>(ctx)) return refused(where, "None");
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
