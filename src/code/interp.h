// The tree-walking interpreter over compiled Code, with Python's laziness:
// a conditional evaluates only its taken branch, and/or and comparison chains
// short-circuit, max/min evaluate every argument left to right first.
//
// Env supplies names: `Value load(NameId name, NodeId node)`, throwing an
// EvalError for a name with no value. It is a template parameter so the
// records' array lookup inlines, while `oprec calc` can record reads.
//
// A root with a straight-line form (Code::entry, see code.h) runs that:
// one loop over its instructions, an accumulator and a small stack, the
// common arithmetic inline (fast_arith.h). Anything else walks the tree.
#pragma once

#include <array>
#include <concepts>
#include <iterator>
#include <optional>
#include <type_traits>
#include <variant>

#include "code/code.h"
#include "code/fast_arith.h"

namespace oprec {

template <class Env>
class Interpreter {
public:
    Interpreter(const Code& code, Env& env) : code_(code), env_(env) {}

    // Evaluates the expression rooted at `root`; `total` answers Op::Total.
    Value run(NodeId root, Value total = Value::integer(0)) {
        const Value v = run_once(root, total);
        if constexpr (kDirect)
            if (missing_) [[unlikely]] throw take_missing();
        return v;
    }

    // The same, an error given back rather than raised: a name with no value
    // (most of a report's errors) stops the straight-line run without a
    // throw, which would unwind its large frame at some 50k instructions.
    std::variant<Value, EvalError> try_run(NodeId root, Value total = Value::integer(0)) {
        try {
            const Value v = run_once(root, total);
            if constexpr (kDirect)
                if (missing_) [[unlikely]] return take_missing();
            return v;
        } catch (EvalError& e) {
            return std::move(e);
        }
    }

    // The same, always walking the tree (the straight-line form's yardstick in tests).
    Value run_tree(NodeId root, Value total = Value::integer(0)) {
        total_ = total;
        return eval(root, nullptr);
    }

private:
    // The straight-line form where the root has one, else the tree; a name
    // with no value leaves its error in missing_ (kDirect) for the caller.
    Value run_once(NodeId root, Value total) {
        total_ = total;
        const std::uint32_t start = code_.entry_of(root);
        if (start == kNoEntry) return eval(root, nullptr);
        return run_linear(start, nullptr, 0, total);
    }

    // An Env with its names in one array (Bindings) is read inline by the
    // straight-line code, through a pointer held in a register; a name with
    // no value (kMissing's type) stops the run with the Env's error for it.
    static constexpr bool kDirect = requires(const Env& env, NameId name) {
        { env.values() } -> std::convertible_to<const Value*>;
        std::remove_const_t<Env>::kMissing;
        { env.missing(name) } -> std::convertible_to<EvalError>;
    };
    const Value* direct_values() const {
        if constexpr (kDirect) return env_.values();
        else return nullptr;
    }
    // A name with no value stops the straight-line run: its error is kept
    // here, placed, and the run returns at once (OPREC_FETCH, in run_linear),
    // so no instruction sees the value and nothing unwinds run_linear's frame.
#if defined(__GNUC__)
    __attribute__((noinline, cold))
#endif
    void stop_missing(NameId name, NodeId node, const Instr* ip) {
        missing_.emplace(env_.missing(name));
        failed(*missing_, ip, node);
    }
    EvalError take_missing() {
        EvalError e = std::move(*missing_);
        missing_.reset();
        return e;
    }
#if defined(__GNUC__)
    __attribute__((noinline))
#endif
    Value load_at(NameId name, NodeId node, const Instr* ip) {
        try {
            return env_.load(name, node);
        } catch (EvalError& e) {
            failed(e, ip, node);
            throw;
        }
    }

    // The straight-line run raises out of line: each operation that can
    // raise is called from here (or from stop_missing, load_at), which places
    // the error, so that run_linear itself holds no handler. An error then
    // unwinds through it without the unwinder reading its table of call
    // sites entry by entry (455k entries read
    // over a --jsonl run of 2,000 layers: a tenth of that run's time).
    //
    // `node`: where the error is placed first (a name's own node), then the
    // instruction's node; the first place given stays.
    void failed(EvalError& e, const Instr* ip, NodeId node) {
        if (node != kNoNode) e.locate(code_.spans[node]);
        if (ip->node != kNoNode) e.locate(code_.spans[ip->node]);
    }
    // Not cold: //, % and ** always come here, not only when they raise.
#if defined(__GNUC__)
    __attribute__((noinline))
#endif
    Value exact(Value (*op)(Value, Value), Value a, Value b, const Instr* ip) {
        try {
            return op(a, b);
        } catch (EvalError& e) {
            failed(e, ip, kNoNode);
            throw;
        }
    }
#if defined(__GNUC__)
    __attribute__((noinline, cold))
#endif
    Value exact1(Value (*op)(Value), Value a, const Instr* ip) {
        try {
            return op(a);
        } catch (EvalError& e) {
            failed(e, ip, kNoNode);
            throw;
        }
    }
    // A function's body walked as a tree from the straight-line run.
#if defined(__GNUC__)
    __attribute__((noinline))
#endif
    Value eval_from(NodeId body, const Value* frame, const Instr* ip) {
        try {
            return eval(body, frame);
        } catch (EvalError& e) {
            failed(e, ip, kNoNode);
            throw;
        }
    }
    // fast::'s slow path for the instruction at `ip`: exact(), out of line.
    struct Trap {
        Interpreter* self;
        const Instr* ip;
        Value operator()(Value (*op)(Value, Value), Value a, Value b) const { return self->exact(op, a, b, ip); }
    };

#if defined(__GNUC__) && !defined(__clang__)
    // Keeps GCC from merging the instructions' dispatch jumps back into one.
    __attribute__((optimize("no-gcse", "no-crossjumping")))
#endif
    Value run_linear(std::uint32_t start, const Value* frame, std::uint32_t base, Value total) {
        const Instr* const code = code_.instrs.data();
        const Instr* ip = code + start;
        Value* const bottom = &stack_[0].v;
        Value* sp = bottom + base;  // the next free place
        // Locals, so they stay in registers across the dispatch.
        const Value* const consts = code_.consts.data();
        const Value* const names = direct_values();
        Value acc;
// Threaded dispatch where the compiler has computed goto (GCC, Clang): each
// instruction jumps to the next from its own place, which the branch
// predictor learns far better than one shared switch. Else a switch.
#if defined(__GNUC__)
#define OPREC_OP(NAME) L_##NAME:
#define OPREC_DISPATCH() goto* kLabels[static_cast<int>(ip->op)]
#define OPREC_NEXT() do { ++ip; OPREC_DISPATCH(); } while (0)
#define OPREC_JUMP(TO) do { ip = code + (TO); OPREC_DISPATCH(); } while (0)
        static const void* const kLabels[] = {
#define OPREC_LOP_LABEL(NAME, ARGS) &&L_##NAME,
            OPREC_LOPS(OPREC_LOP_LABEL)
#undef OPREC_LOP_LABEL
        };
        static_assert(std::size(kLabels) == static_cast<std::size_t>(LOp::Return) + 1);
#else
#define OPREC_OP(NAME) case LOp::NAME:
#define OPREC_DISPATCH() continue
// Braces, not do-while: a `continue` inside do { } while (0) would end only
// that loop and fall through into the next case.
#define OPREC_NEXT() { ++ip; continue; }
#define OPREC_JUMP(TO) { ip = code + (TO); continue; }
#endif
        // What can raise is called out of line (failed(), above): an error
        // is placed at the instruction's node.
#define OPREC_ADD(A, B) fast::add(A, B, Trap{this, ip})
#define OPREC_SUB(A, B) fast::sub(A, B, Trap{this, ip})
#define OPREC_MUL(A, B) fast::mul(A, B, Trap{this, ip})
#define OPREC_DIV(A, B) fast::truediv(A, B, Trap{this, ip})
#define OPREC_FLOORDIV(A, B) exact(&py::floordiv, A, B, ip)
#define OPREC_MOD(A, B) exact(&py::mod, A, B, ip)
#define OPREC_POW(A, B) exact(&py::pow, A, B, ip)
// DST = the name a's value (b: its node); a name with no value stops the run (stop_missing).
#define OPREC_FETCH(DST, NAME)                                                     \
        do {                                                                       \
            if constexpr (kDirect) {                                               \
                DST = names[NAME];                                                 \
                if (DST.type == std::remove_const_t<Env>::kMissing) [[unlikely]] { \
                    stop_missing(NAME, ip->b, ip);                                 \
                    return acc;                                                    \
                }                                                                  \
            } else {                                                               \
                DST = load_at(NAME, ip->b, ip);                                    \
            }                                                                      \
        } while (0)
        {
#if !defined(__GNUC__)
            for (;;) {
                switch (ip->op) {
#else
            OPREC_DISPATCH();
            {
                {
#endif
                OPREC_OP(Const) acc = consts[ip->a]; OPREC_NEXT();
                OPREC_OP(Load) OPREC_FETCH(acc, ip->a); OPREC_NEXT();
                OPREC_OP(Param) acc = frame[ip->a]; OPREC_NEXT();
                OPREC_OP(Total) acc = total; OPREC_NEXT();
                OPREC_OP(Push) *sp++ = acc; OPREC_NEXT();
#define OPREC_ARITH_OPS(NAME, FN)                                                                   \
                OPREC_OP(NAME##C) acc = FN(acc, consts[ip->a]); OPREC_NEXT();                              \
                OPREC_OP(NAME##N) { Value x; OPREC_FETCH(x, ip->a); acc = FN(acc, x); OPREC_NEXT(); }       \
                OPREC_OP(NAME##P) acc = FN(acc, frame[ip->a]); OPREC_NEXT();                               \
                OPREC_OP(NAME##T) acc = FN(acc, total); OPREC_NEXT();                                      \
                OPREC_OP(NAME##S) --sp; acc = FN(*sp, acc); OPREC_NEXT();
                OPREC_ARITH_OPS(Add, OPREC_ADD)
                OPREC_ARITH_OPS(Sub, OPREC_SUB)
                OPREC_ARITH_OPS(Mul, OPREC_MUL)
                OPREC_ARITH_OPS(Div, OPREC_DIV)
                OPREC_ARITH_OPS(FloorDiv, OPREC_FLOORDIV)
                OPREC_ARITH_OPS(Mod, OPREC_MOD)
                OPREC_ARITH_OPS(Pow, OPREC_POW)
#undef OPREC_ARITH_OPS
                OPREC_OP(PushN) { Value x; OPREC_FETCH(x, ip->a); *sp++ = x; OPREC_NEXT(); }
                OPREC_OP(Neg) acc = acc.is_float() ? Value::real(-acc.f) : exact1(&py::neg, acc, ip); OPREC_NEXT();
                OPREC_OP(Pos) acc = exact1(&py::pos, acc, ip); OPREC_NEXT();
                OPREC_OP(Not) acc = Value::boolean(!acc.truthy()); OPREC_NEXT();
                OPREC_OP(Jump) OPREC_JUMP(ip->a);
                OPREC_OP(JumpIfFalse) if (!acc.truthy()) OPREC_JUMP(ip->a); OPREC_NEXT();
                OPREC_OP(JumpIfTrue) if (acc.truthy()) OPREC_JUMP(ip->a); OPREC_NEXT();
                OPREC_OP(CmpChain)
                    --sp;
                    if (!fast::compare(ip->cmp, *sp, acc)) {
                        acc = Value::boolean(false);
                        OPREC_JUMP(ip->a);
                    }
                    OPREC_NEXT();
                OPREC_OP(CmpLast) --sp; acc = Value::boolean(fast::compare(ip->cmp, *sp, acc)); OPREC_NEXT();
                OPREC_OP(Max)
                OPREC_OP(Min) {
                    // Python keeps the first of equal candidates; NaN never replaces.
                    const py::CmpOp better = ip->op == LOp::Max ? py::CmpOp::Gt : py::CmpOp::Lt;
                    sp -= ip->n - 1;
                    Value best = sp[0];
                    for (std::uint32_t k = 1; k + 1 < ip->n; ++k)
                        if (fast::compare(better, sp[k], best)) best = sp[k];
                    if (fast::compare(better, acc, best)) best = acc;
                    acc = best;
                    OPREC_NEXT();
                }
                OPREC_OP(Call) {
                    sp -= ip->n;
                    const NodeId body = code_.fns[ip->a].body;
                    const std::uint32_t at = code_.entry_of(body);
                    const auto above = static_cast<std::uint32_t>(sp - bottom) + ip->n;
                    if (at != kNoEntry && above + code_.entry_depth[body] <= kMaxLinearDepth) {
                        acc = run_linear(at, sp, above, total);
                        if constexpr (kDirect)
                            if (missing_) [[unlikely]] return acc;  // the body stopped: so does its caller
                    } else {
                        total_ = total;
                        acc = eval_from(body, sp, ip);
                    }
                    OPREC_NEXT();
                }
                OPREC_OP(Return) return acc;
                }
            }
        }
#undef OPREC_ADD
#undef OPREC_SUB
#undef OPREC_MUL
#undef OPREC_DIV
#undef OPREC_FLOORDIV
#undef OPREC_MOD
#undef OPREC_POW
#undef OPREC_FETCH
#undef OPREC_OP
#undef OPREC_DISPATCH
#undef OPREC_NEXT
#undef OPREC_JUMP
        return acc;
    }

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

    // The straight-line code's stack, left uninitialised: filling it on
    // every run would cost more than most expressions.
    union Slot {
        Value v;
        Slot() {}
    };

    const Code& code_;
    Env& env_;
    Value total_;
    std::optional<EvalError> missing_;  // the name that stopped the straight-line run (kDirect)
    Slot stack_[kMaxLinearDepth];
};

}  // namespace oprec
