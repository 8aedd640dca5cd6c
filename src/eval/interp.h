// The tree-walking interpreter over compiled Code, with Python's laziness:
// a conditional evaluates only its taken branch, and/or and comparison chains
// short-circuit, max/min evaluate every argument left to right first.
//
// Env supplies names: `Value load(NameId name, NodeId node)`, throwing an
// EvalError for a name with no value. It is a template parameter so the
// records' array lookup inlines, while `oprec calc` can record reads.
#pragma once

#include <array>

#include "eval/code.h"

namespace oprec {

template <class Env>
class Interpreter {
public:
    Interpreter(const Code& code, Env& env) : code_(code), env_(env) {}

    // Evaluates the expression rooted at `root`; `total` answers Op::Total.
    Value run(NodeId root, Value total = Value::integer(0)) {
        total_ = total;
        return eval(root, nullptr);
    }

private:
    template <class F>
    Value guarded(NodeId id, F&& f) {
        try {
            return f();
        } catch (EvalError& e) {
            e.locate(code_.spans[id]);
            throw;
        }
    }

    Value eval(NodeId id, const Value* frame) {
        const Node& n = code_.nodes[id];
        switch (n.op) {
        case Op::Const: return code_.consts[n.a];
        case Op::Load: return guarded(id, [&] { return env_.load(n.a, id); });
        case Op::Param: return frame[n.a];
        case Op::Total: return total_;
        case Op::Neg: { Value v = eval(n.a, frame); return guarded(id, [&] { return py::neg(v); }); }
        case Op::Pos: { Value v = eval(n.a, frame); return guarded(id, [&] { return py::pos(v); }); }
        case Op::Not: return Value::boolean(!eval(n.a, frame).truthy());
        case Op::Add: return binary(id, n, frame, py::add);
        case Op::Sub: return binary(id, n, frame, py::sub);
        case Op::Mul: return binary(id, n, frame, py::mul);
        case Op::Div: return binary(id, n, frame, py::truediv);
        case Op::FloorDiv: return binary(id, n, frame, py::floordiv);
        case Op::Mod: return binary(id, n, frame, py::mod);
        case Op::Pow: return binary(id, n, frame, py::pow);
        case Op::And:
        case Op::Or: {
            const bool is_and = n.op == Op::And;
            Value v;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                v = eval(code_.lists[n.a + k], frame);
                if (v.truthy() != is_and) return v;
            }
            return v;
        }
        case Op::IfElse: return eval(eval(n.b, frame).truthy() ? n.a : n.c, frame);
        case Op::Compare: {
            Value lhs = eval(code_.lists[n.a], frame);
            for (std::uint32_t k = 1; k < n.n; ++k) {
                Value rhs = eval(code_.lists[n.a + k], frame);
                if (!py::compare(code_.cmp_ops[n.b + k - 1], lhs, rhs)) return Value::boolean(false);
                lhs = rhs;
            }
            return Value::boolean(true);
        }
        case Op::Max:
        case Op::Min: {
            std::array<Value, 64> args;
            const std::uint32_t count = n.n;
            for (std::uint32_t k = 0; k < count; ++k) args[k] = eval(code_.lists[n.a + k], frame);
            // Python keeps the first of equal candidates; NaN never replaces.
            const py::CmpOp better = n.op == Op::Max ? py::CmpOp::Gt : py::CmpOp::Lt;
            Value best = args[0];
            for (std::uint32_t k = 1; k < count; ++k)
                if (py::compare(better, args[k], best)) best = args[k];
            return best;
        }
        case Op::CallFn: {
            std::array<Value, kMaxFnParams> args;
            for (std::uint32_t k = 0; k < n.n; ++k) args[k] = eval(code_.lists[n.a + k], frame);
            return eval(code_.fns[n.c].body, args.data());
        }
        case Op::ArgCountError: {
            for (std::uint32_t k = 0; k < n.n; ++k) eval(code_.lists[n.a + k], frame);
            EvalError e(ErrorKind::TypeError,
                        n.n == 0 ? "max/min expected at least 1 argument, got 0"
                                 : "max/min of one number: it is not iterable");
            e.locate(code_.spans[id]);
            throw e;
        }
        }
        return Value::integer(0);
    }

    Value binary(NodeId id, const Node& n, const Value* frame, Value (*op)(Value, Value)) {
        Value lhs = eval(n.a, frame);
        Value rhs = eval(n.b, frame);
        return guarded(id, [&] { return op(lhs, rhs); });
    }

    const Code& code_;
    Env& env_;
    Value total_;
};

}  // namespace oprec
