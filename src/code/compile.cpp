#include "code/compile.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "diag/codes.h"
#include "diag/suggest.h"
#include "code/interp.h"

namespace oprec {

namespace {

// Folding evaluates with no names at all: a node that reads one is not constant.
struct NoNames {
    Value load(NameId, NodeId) { throw EvalError(ErrorKind::UnboundName, "not constant"); }
};

bool is_const(const Code& code, NodeId id) { return code.nodes[id].op == Op::Const; }

}  // namespace

void Compiler::error(const Span& span, const char* code, std::string message) {
    diags_.push_back({Severity::Error, code, span, std::move(message), {}, {}});
}

NodeId Compiler::compile(const ast::Expr& expr, const CompileScope& scope) {
    const NodeId root = node(expr, scope);
    emit_linear(code_, root);
    return root;
}

NameId Compiler::intern(const std::string& name) {
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it != names_.end()) return static_cast<NameId>(it - names_.begin());
    names_.push_back(name);
    return static_cast<NameId>(names_.size() - 1);
}

NodeId Compiler::constant(Value v, const Span& span) {
    code_.consts.push_back(v);
    return code_.add({Op::Const, 0, static_cast<std::uint32_t>(code_.consts.size() - 1), 0, 0}, span);
}

// A node whose operands are all constant becomes its value, when computing it
// succeeds; one that fails (1 / 0) stays, to fail only if it is evaluated.
NodeId Compiler::fold(NodeId id) {
    const Node n = code_.nodes[id];
    bool all_const = true;
    switch (n.op) {
    case Op::Neg: case Op::Pos: case Op::Not: all_const = is_const(code_, n.a); break;
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::FloorDiv: case Op::Mod: case Op::Pow:
        all_const = is_const(code_, n.a) && is_const(code_, n.b);
        break;
    case Op::IfElse:
        // The condition alone decides which branch is ever read.
        if (is_const(code_, n.b)) return code_.consts[code_.nodes[n.b].a].truthy() ? n.a : n.c;
        return id;
    case Op::And: case Op::Or: case Op::Compare: case Op::Max: case Op::Min:
        for (std::uint32_t k = 0; k < n.n; ++k) all_const = all_const && is_const(code_, code_.lists[n.a + k]);
        break;
    default: return id;
    }
    if (!all_const) return id;
    try {
        NoNames env;
        Interpreter<NoNames> interp(code_, env);
        Value v = interp.run(id);
        return constant(v, code_.spans[id]);
    } catch (const EvalError&) {
        return id;
    }
}

std::optional<std::string> Compiler::constant_error(NodeId id) const {
    try {
        NoNames env;
        Interpreter<NoNames> interp(code_, env);
        interp.run(id);
    } catch (const EvalError& e) {
        if (e.kind() != ErrorKind::UnboundName) return std::string(e.what());
    }
    return std::nullopt;
}

NodeId Compiler::list_node(Op op, const std::vector<ast::Expr>& kids, const CompileScope& scope,
                           const Span& span, std::uint32_t c) {
    std::vector<NodeId> ids;
    ids.reserve(kids.size());
    for (const ast::Expr& k : kids) ids.push_back(node(k, scope));
    // The parser bounds a chain's operands (kMaxChainOperands) and the
    // compiler a call's arguments (64) to the node's 16-bit count.
    if (ids.size() > std::numeric_limits<std::uint16_t>::max())
        throw std::length_error("an operand list longer than a node's count holds");
    Node n{op, static_cast<std::uint16_t>(ids.size()), static_cast<std::uint32_t>(code_.lists.size()), 0, c};
    code_.lists.insert(code_.lists.end(), ids.begin(), ids.end());
    return code_.add(n, span);
}

NodeId Compiler::node(const ast::Expr& e, const CompileScope& scope) {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::Literal: return constant(e.literal, e.span);
    case K::Refused: {
        error(e.span, code::kNotArithmetic, fmt::format("{} is not allowed in a formula: a formula is arithmetic on numbers", e.name));
        return constant(Value::integer(0), e.span);
    }
    case K::Name: {
        if (scope.params != nullptr) {
            auto it = std::find(scope.params->begin(), scope.params->end(), e.name);
            if (it != scope.params->end())
                return code_.add({Op::Param, 0, static_cast<std::uint32_t>(it - scope.params->begin()), 0, 0}, e.span);
        }
        if (e.name == "total" && !scope.total_is_name) {
            if (!scope.total_allowed)
                error(e.span, code::kTotalOutsideFormula, "`total` has a value only in a slot's `bytes` formula");
            return code_.add({Op::Total, 0, 0, 0, 0}, e.span);
        }
        return code_.add({Op::Load, 0, intern(e.name), 0, 0}, e.span);
    }
    case K::Unary: {
        NodeId a = node(e.kids[0], scope);
        return fold(code_.add({e.unary_op == ast::UnaryOp::Neg ? Op::Neg : Op::Pos, 0, a, 0, 0}, e.span));
    }
    case K::Not: {
        NodeId a = node(e.kids[0], scope);
        return fold(code_.add({Op::Not, 0, a, 0, 0}, e.span));
    }
    case K::Binary: {
        static constexpr Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::FloorDiv, Op::Mod, Op::Pow};
        NodeId a = node(e.kids[0], scope);
        NodeId b = node(e.kids[1], scope);
        return fold(code_.add({ops[static_cast<int>(e.binary_op)], 0, a, b, 0}, e.span));
    }
    case K::And:
    case K::Or: return fold(list_node(e.kind == K::And ? Op::And : Op::Or, e.kids, scope, e.span));
    case K::Compare: {
        NodeId id = list_node(Op::Compare, e.kids, scope, e.span);
        code_.nodes[id].b = static_cast<std::uint32_t>(code_.cmp_ops.size());
        code_.cmp_ops.insert(code_.cmp_ops.end(), e.compare_ops.begin(), e.compare_ops.end());
        return fold(id);
    }
    case K::IfElse: {
        NodeId body = node(e.kids[0], scope);
        NodeId cond = node(e.kids[1], scope);
        NodeId orelse = node(e.kids[2], scope);
        return fold(code_.add({Op::IfElse, 0, body, cond, orelse}, e.span));
    }
    case K::Call: {
        if (e.kids.size() > 64) {
            error(e.span, code::kArgumentCount, fmt::format("`{}` takes at most 64 arguments", e.name));
            return constant(Value::integer(0), e.span);
        }
        if (e.name == "max" || e.name == "min") {
            if (e.kids.size() < 2) {
                if (strict_calls_) {
                    error(e.span, code::kArgumentCount, fmt::format("`{}` takes two or more numbers, got {}", e.name, e.kids.size()));
                    return constant(Value::integer(0), e.span);
                }
                return list_node(Op::ArgCountError, e.kids, scope, e.span);
            }
            return fold(list_node(e.name == "max" ? Op::Max : Op::Min, e.kids, scope, e.span));
        }
        auto fn = std::find_if(fns_.begin(), fns_.end(), [&](const FnSignature& f) { return f.name == e.name; });
        if (fn == fns_.end()) {
            std::vector<std::string> known{"max", "min"};
            for (const FnSignature& f : fns_) known.push_back(f.name);
            Diagnostic d{Severity::Error, code::kNotAFunction, e.span,
                         // An expression alone (calc, the REPL) has no records' fns to call.
                         strict_calls_ ? fmt::format("`{}` is not a function: a formula may call max, min and the fns the records declare", e.name)
                                       : fmt::format("`{}` is not a function here: an expression may call max and min (the records' fns are called from their formulas)", e.name),
                         {}, {}};
            if (auto near = closest_name(e.name, known)) d.fix = FixIt{e.span, *near};
            diags_.push_back(std::move(d));
            return constant(Value::integer(0), e.span);
        }
        if (fn->params != e.kids.size()) {
            error(e.span, code::kArgumentCount, fmt::format("`{}` takes {} argument{}, got {}", e.name, fn->params,
                                               fn->params == 1 ? "" : "s", e.kids.size()));
            return constant(Value::integer(0), e.span);
        }
        return list_node(Op::CallFn, e.kids, scope, e.span, static_cast<std::uint32_t>(fn - fns_.begin()));
    }
    }
    return constant(Value::integer(0), e.span);
}

namespace {

// Emits a node's straight-line code, keeping count of the values pushed.
class Linearizer {
public:
    explicit Linearizer(Code& code) : code_(code) {}

    bool emit(NodeId id) {
        const Node n = code_.nodes[id];
        switch (n.op) {
        case Op::Const: add(LOp::Const, id, n.a); return true;
        case Op::Load: add(LOp::Load, id, n.a, id); return true;
        case Op::Param: add(LOp::Param, id, n.a); return true;
        case Op::Total: add(LOp::Total, id); return true;
        case Op::Neg: case Op::Pos: case Op::Not:
            if (!emit(n.a)) return false;
            add(n.op == Op::Neg ? LOp::Neg : n.op == Op::Pos ? LOp::Pos : LOp::Not, id);
            return true;
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::FloorDiv: case Op::Mod: case Op::Pow: {
            const int base = static_cast<int>(LOp::AddC) + kLOpKinds * (static_cast<int>(n.op) - static_cast<int>(Op::Add));
            const Node rhs = code_.nodes[n.b];
            const int kind = rhs.op == Op::Const ? 0 : rhs.op == Op::Load ? 1 : rhs.op == Op::Param ? 2
                           : rhs.op == Op::Total ? 3 : 4;
            if (!emit(n.a)) return false;
            if (kind < 4) {  // the right operand read in the same instruction
                add(static_cast<LOp>(base + kind), id, rhs.a, n.b);
                return true;
            }
            if (!push_then(n.b)) return false;
            add(static_cast<LOp>(base + 4), id);
            --depth_;
            return true;
        }
        case Op::And: case Op::Or: {
            std::vector<std::size_t> jumps;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                if (!emit(code_.lists[n.a + k])) return false;
                if (k + 1 < n.n) jumps.push_back(add(n.op == Op::And ? LOp::JumpIfFalse : LOp::JumpIfTrue, id));
            }
            for (std::size_t j : jumps) land(j);
            return true;
        }
        case Op::IfElse: {
            if (!emit(n.b)) return false;
            const std::size_t to_else = add(LOp::JumpIfFalse, id);
            if (!emit(n.a)) return false;
            const std::size_t to_end = add(LOp::Jump, id);
            land(to_else);
            if (!emit(n.c)) return false;
            land(to_end);
            return true;
        }
        case Op::Compare: {
            std::vector<std::size_t> jumps;
            if (!emit(code_.lists[n.a])) return false;
            for (std::uint32_t k = 1; k < n.n; ++k) {
                if (!push_then(code_.lists[n.a + k])) return false;
                const bool last = k + 1 == n.n;
                const std::size_t at = add(last ? LOp::CmpLast : LOp::CmpChain, id);
                code_.instrs[at].cmp = code_.cmp_ops[n.b + k - 1];
                if (!last) jumps.push_back(at);
                --depth_;
            }
            for (std::size_t j : jumps) land(j);
            return true;
        }
        case Op::Max: case Op::Min: {
            if (!emit(code_.lists[n.a])) return false;
            for (std::uint32_t k = 1; k < n.n; ++k)
                if (!push_then(code_.lists[n.a + k])) return false;
            code_.instrs[add(n.op == Op::Max ? LOp::Max : LOp::Min, id)].n = n.n;
            depth_ -= n.n - 1;
            return true;
        }
        case Op::CallFn: {
            // Each argument pushed in turn, a name in one instruction.
            for (std::uint32_t k = 0; k < n.n; ++k) {
                const NodeId arg = code_.lists[n.a + k];
                if (code_.nodes[arg].op == Op::Load) {
                    add(LOp::PushN, arg, code_.nodes[arg].a, arg);
                    bump();
                    continue;
                }
                if (!emit(arg)) return false;
                push();
            }
            code_.instrs[add(LOp::Call, id, n.c)].n = n.n;
            depth_ -= n.n;
            return true;
        }
        case Op::ArgCountError: return false;
        }
        return false;
    }

    std::uint32_t max_depth() const { return max_depth_; }

private:
    std::size_t add(LOp op, NodeId node, std::uint32_t a = 0, std::uint32_t b = 0) {
        code_.instrs.push_back({op, py::CmpOp::Eq, 0, a, node, b});
        return code_.instrs.size() - 1;
    }
    // A jump emitted earlier lands here.
    void land(std::size_t jump) { code_.instrs[jump].a = static_cast<std::uint32_t>(code_.instrs.size()); }
    void push() {
        add(LOp::Push, 0);
        bump();
    }
    // push(), then emit(next).
    bool push_then(NodeId next) {
        push();
        return emit(next);
    }
    void bump() { max_depth_ = std::max(max_depth_, ++depth_); }

    Code& code_;
    std::uint32_t depth_ = 0, max_depth_ = 0;
};

}  // namespace

void emit_linear(Code& code, NodeId root) {
    if (code.entry.size() < code.nodes.size()) {
        code.entry.resize(code.nodes.size(), kNoEntry);
        code.entry_depth.resize(code.nodes.size(), 0);
    }
    if (code.entry[root] != kNoEntry) return;
    const std::size_t start = code.instrs.size();
    Linearizer lin(code);
    if (!lin.emit(root) || lin.max_depth() > kMaxLinearDepth) {
        code.instrs.resize(start);  // the tree is walked instead
        return;
    }
    code.instrs.push_back({LOp::Return, py::CmpOp::Eq, 0, 0, root, 0});
    code.entry[root] = static_cast<std::uint32_t>(start);
    code.entry_depth[root] = lin.max_depth();
}

void collect_names(const ast::Expr& e, std::vector<std::string>& out) {
    if (e.kind == ast::ExprKind::Name && std::find(out.begin(), out.end(), e.name) == out.end())
        out.push_back(e.name);
    for (const ast::Expr& k : e.kids) collect_names(k, out);
}

}  // namespace oprec
