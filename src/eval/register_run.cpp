// run_registers: one loop over the instructions, threaded where the
// compiler has computed goto (as interp.h), the common arithmetic inline
// (fast_arith.h). Any error gives up: the exact run raises it, in place.
// A name with no value gives up where what is computed from it is tested
// or stored as a slot's value.
// The handler that catches it is run_registers', not execute's: a frame
// with a handler makes the unwinder read its whole table of call sites, and
// execute's is long.
#include <cstring>
#include <iterator>

#include "code/fast_arith.h"
#include "eval/register_code.h"
#include "eval/pricing.h"
#include "eval/register_run.h"

namespace oprec {

namespace {
// A cell whose name has no value holds Bindings::kMissing's type.
constexpr ValueType kUnbound = Bindings::kMissing;

// Thrown to give up where a run cannot go on (a test of a name with no
// value): run_registers catches it, as it does an EvalError.
struct Unpriceable {};
[[noreturn, gnu::cold]] void give_up() { throw Unpriceable{}; }

// The run's arithmetic: fast::'s, whose slow path gives a name with no
// value's cell back as it is (py:: would read its type as a number's).
// Python raises on reading such a name; a value computed ahead from one may
// never be used, so it gives up only where the value is.
struct Unbound {
    Value operator()(Value (*op)(Value, Value), Value a, Value b) const {
        if (a.type == kUnbound) [[unlikely]] return a;
        if (b.type == kUnbound) [[unlikely]] return b;
        return op(a, b);
    }
};
namespace run {
[[gnu::always_inline]] inline Value add(Value a, Value b) { return fast::add(a, b, Unbound{}); }
[[gnu::always_inline]] inline Value sub(Value a, Value b) { return fast::sub(a, b, Unbound{}); }
[[gnu::always_inline]] inline Value mul(Value a, Value b) { return fast::mul(a, b, Unbound{}); }
[[gnu::always_inline]] inline Value truediv(Value a, Value b) { return fast::truediv(a, b, Unbound{}); }
inline Value floordiv(Value a, Value b) { return Unbound{}(&py::floordiv, a, b); }
inline Value mod(Value a, Value b) { return Unbound{}(&py::mod, a, b); }
inline Value pow(Value a, Value b) { return Unbound{}(&py::pow, a, b); }
inline Value unary(Value (*op)(Value), Value a) { return a.type == kUnbound ? a : op(a); }
// A test decides where the run goes: on a name with no value it gives up.
[[gnu::always_inline]] inline bool compare(py::CmpOp op, Value a, Value b) {
    if (a.type == kUnbound || b.type == kUnbound) [[unlikely]] give_up();
    return fast::compare(op, a, b);
}
[[gnu::always_inline]] inline bool truth(Value v) {
    if (v.type == kUnbound) [[unlikely]] give_up();
    return v.truthy();
}
// A slot's value is the run's result: never one computed from a name with no value.
[[gnu::always_inline]] inline Value stored(Value v) {
    if (v.type == kUnbound) [[unlikely]] give_up();
    return v;
}
}  // namespace run
// A cell copied field by field: the arithmetic writes a cell's type and
// payload as two 8-byte stores, and one 16-byte load of them (what a plain
// copy compiles to) waits for both to reach the cache: store forwarding
// fails, a tenth of a run in a profile.
[[gnu::always_inline]] inline Value copy_of(const Value& from) {
    auto type = static_cast<std::uint64_t>(from.type);
    std::int64_t bits = from.i;
#if defined(__GNUC__)
    asm("" : "+r"(type), "+r"(bits));  // keeps the two loads apart
#endif
    Value v;
    v.type = static_cast<ValueType>(type);
    v.i = bits;
    return v;
}

// Python's max/min of two: the first of equal candidates; NaN never replaces.
Value better_of(py::CmpOp better, Value first, Value second) {
    return copy_of(run::compare(better, second, first) ? second : first);
}

#if defined(__GNUC__) && !defined(__clang__)
// Keeps GCC from merging the instructions' dispatch jumps back into one.
__attribute__((optimize("no-gcse", "no-crossjumping")))
#endif
#if defined(__GNUC__)
__attribute__((noinline))  // its own frame, with no handler (above)
#endif
// The run; or, with `table` (and nothing else), only where each op's
// handler is, for thread_registers (a label's address is the function's own).
bool execute(const RegisterCode* run, const Value* names, const std::uint8_t* keep, std::uint8_t* held,
             Value* slot_values, std::vector<Value>* cells, const void* const** table) {
#if defined(__GNUC__)
#define OPREC_LABELS_ONLY() if (table != nullptr) { *table = kLabels; return true; }
#else
#define OPREC_LABELS_ONLY() if (table != nullptr) return true;
#endif
#if defined(__GNUC__)
#define OPREC_OP(NAME) L_##NAME:
#define OPREC_NEXT() do { ++ip; goto* ip->handler; } while (0)
#define OPREC_JUMP(TO) do { ip = rare.start + (TO); goto* ip->handler; } while (0)
    static const void* const kLabels[] = {
#define OPREC_ROP_LABEL(NAME, R, W, J, T, D) &&L_##NAME,
        OPREC_ROPS(OPREC_ROP_LABEL)
#undef OPREC_ROP_LABEL
#define OPREC_TYPED_LABELS(OP) &&L_##OP##II, &&L_##OP##IF, &&L_##OP##FI, &&L_##OP##FF,
        OPREC_TYPED_BASES(OPREC_TYPED_LABELS)
#undef OPREC_TYPED_LABELS
#define OPREC_TYPED3_LABELS(OP) \
        &&L_##OP##III, &&L_##OP##IIF, &&L_##OP##IFI, &&L_##OP##IFF, &&L_##OP##FII, &&L_##OP##FIF, &&L_##OP##FFI, &&L_##OP##FFF,
        OPREC_TYPED3_BASES(OPREC_TYPED3_LABELS)
#undef OPREC_TYPED3_LABELS
#define OPREC_PAIR_LABEL_TYPES(P) &&L_##P##III, &&L_##P##IIF, &&L_##P##IFI, &&L_##P##IFF, &&L_##P##FII, &&L_##P##FIF, &&L_##P##FFI, &&L_##P##FFF,
#define OPREC_PAIR_LABELS(A, B) OPREC_PAIR_LABEL_TYPES(Pair##A##B##X) OPREC_PAIR_LABEL_TYPES(Pair##A##B##Y)
        OPREC_PAIR_BASES(OPREC_PAIR_LABELS)
#undef OPREC_PAIR_LABELS
#undef OPREC_PAIR_LABEL_TYPES
    };
    static_assert(std::size(kLabels) == static_cast<std::size_t>(ROp::Count_));
#endif
    OPREC_LABELS_ONLY()
#undef OPREC_LABELS_ONLY
    const RegisterCode& code = *run;
    std::vector<Value>& scratch = *cells;
    if (scratch.size() < code.cells) scratch.resize(code.cells);
    Value* const c = scratch.data();
    if (code.names > 0) std::memcpy(static_cast<void*>(c), names, code.names * sizeof(Value));
    if (!code.consts.empty())
        std::memcpy(static_cast<void*>(c + code.names), code.consts.data(), code.consts.size() * sizeof(Value));
    // What the rarer instructions use (jumps, keep and held flags, stores,
    // memo bits), kept in memory: its address is taken. The registers then
    // go to what nearly every instruction uses, the value before among
    // them (GCC spilled it to the stack, a store and a load a chain).
    struct Rare {
        const RThreaded* start;
        const std::uint8_t* keep;
        std::uint8_t* held;
        Value* slot_values;
        std::uint64_t memo;
    } rare{code.threaded.data(), keep, held, slot_values, 0};
#if defined(__GNUC__)
    asm volatile("" : : "r"(&rare) : "memory");
#endif
    const RThreaded* ip = rare.start;
    Value last;  // what the instruction before wrote (an X or Y op's operand)
#if !defined(__GNUC__)
#define OPREC_OP(NAME) case ROp::NAME:
#define OPREC_NEXT() { ++ip; continue; }
#define OPREC_JUMP(TO) { ip = rare.start + (TO); continue; }
#endif
    {
#if defined(__GNUC__)
        goto* ip->handler;
        {
            {
#else
        for (;;) {
            switch (ip->op) {
#endif
            // Each writes its value to its cell and to `last`, for an X or Y op after it.
// Braces, not do-while: without computed goto, OPREC_NEXT's `continue`
// inside do { } while (0) would end only that loop (as interp.h says).
#define OPREC_SET(EXPR) { last = (EXPR); c[ip->dst] = last; OPREC_NEXT(); }
            OPREC_OP(Move) OPREC_SET(copy_of(c[ip->x]));
            OPREC_OP(Add) OPREC_SET(run::add(c[ip->x], c[ip->y]));
            OPREC_OP(Sub) OPREC_SET(run::sub(c[ip->x], c[ip->y]));
            OPREC_OP(Mul) OPREC_SET(run::mul(c[ip->x], c[ip->y]));
            OPREC_OP(Div) OPREC_SET(run::truediv(c[ip->x], c[ip->y]));
            OPREC_OP(FloorDiv) OPREC_SET(run::floordiv(c[ip->x], c[ip->y]));
            OPREC_OP(Mod) OPREC_SET(run::mod(c[ip->x], c[ip->y]));
            OPREC_OP(Pow) OPREC_SET(run::pow(c[ip->x], c[ip->y]));
            OPREC_OP(AddX) OPREC_SET(run::add(last, c[ip->y]));
            OPREC_OP(SubX) OPREC_SET(run::sub(last, c[ip->y]));
            OPREC_OP(MulX) OPREC_SET(run::mul(last, c[ip->y]));
            OPREC_OP(DivX) OPREC_SET(run::truediv(last, c[ip->y]));
            OPREC_OP(AddY) OPREC_SET(run::add(c[ip->x], last));
            OPREC_OP(SubY) OPREC_SET(run::sub(c[ip->x], last));
            OPREC_OP(MulY) OPREC_SET(run::mul(c[ip->x], last));
            OPREC_OP(DivY) OPREC_SET(run::truediv(c[ip->x], last));
            OPREC_OP(MulMulX) OPREC_SET(run::mul(run::mul(last, c[ip->x]), c[ip->y]));
            OPREC_OP(MulDivX) OPREC_SET(run::truediv(run::mul(last, c[ip->x]), c[ip->y]));
            OPREC_OP(DivMulX) OPREC_SET(run::mul(run::truediv(last, c[ip->x]), c[ip->y]));
            OPREC_OP(DivDivX) OPREC_SET(run::truediv(run::truediv(last, c[ip->x]), c[ip->y]));
            OPREC_OP(SumAdd) OPREC_SET(run::add(c[ip->dst], run::add(c[ip->x], c[ip->y])));
            OPREC_OP(SumSub) OPREC_SET(run::add(c[ip->dst], run::sub(c[ip->x], c[ip->y])));
            OPREC_OP(SumMul) OPREC_SET(run::add(c[ip->dst], run::mul(c[ip->x], c[ip->y])));
            OPREC_OP(SumDiv) OPREC_SET(run::add(c[ip->dst], run::truediv(c[ip->x], c[ip->y])));
            OPREC_OP(Neg) {
                const Value v = c[ip->x];
                OPREC_SET(v.is_float() ? Value::real(-v.f) : run::unary(&py::neg, v));
            }
            OPREC_OP(Pos) OPREC_SET(run::unary(&py::pos, c[ip->x]));
            OPREC_OP(Not) OPREC_SET(Value::boolean(!run::truth(c[ip->x])));
            OPREC_OP(Cmp) OPREC_SET(Value::boolean(run::compare(ip->cmp, c[ip->x], c[ip->y])));
            OPREC_OP(Max2) OPREC_SET(better_of(py::CmpOp::Gt, c[ip->x], c[ip->y]));
            OPREC_OP(Min2) OPREC_SET(better_of(py::CmpOp::Lt, c[ip->x], c[ip->y]));
            OPREC_OP(Select) OPREC_SET(copy_of(run::truth(c[ip->x]) ? c[ip->y] : c[ip->z]));
            // Typed: the operands made values of the known types, so the
            // compiler drops fast::'s type tests and keeps its arithmetic.
#define OPREC_I(V) Value::integer((V).i)
#define OPREC_F(V) Value::real((V).f)
#define OPREC_TYPED(OP, BODY, A, B)                 \
            OPREC_OP(OP##II) BODY(OPREC_I(A), OPREC_I(B)) \
            OPREC_OP(OP##IF) BODY(OPREC_I(A), OPREC_F(B)) \
            OPREC_OP(OP##FI) BODY(OPREC_F(A), OPREC_I(B)) \
            OPREC_OP(OP##FF) BODY(OPREC_F(A), OPREC_F(B))
#define OPREC_ADD(a, b) OPREC_SET(run::add(a, b))
#define OPREC_SUB(a, b) OPREC_SET(run::sub(a, b))
#define OPREC_MUL(a, b) OPREC_SET(run::mul(a, b))
#define OPREC_DIV(a, b) OPREC_SET(run::truediv(a, b))
            OPREC_TYPED(Add, OPREC_ADD, c[ip->x], c[ip->y])
            OPREC_TYPED(Sub, OPREC_SUB, c[ip->x], c[ip->y])
            OPREC_TYPED(Mul, OPREC_MUL, c[ip->x], c[ip->y])
            OPREC_TYPED(Div, OPREC_DIV, c[ip->x], c[ip->y])
            OPREC_TYPED(AddX, OPREC_ADD, last, c[ip->y])
            OPREC_TYPED(SubX, OPREC_SUB, last, c[ip->y])
            OPREC_TYPED(MulX, OPREC_MUL, last, c[ip->y])
            OPREC_TYPED(DivX, OPREC_DIV, last, c[ip->y])
            OPREC_TYPED(AddY, OPREC_ADD, c[ip->x], last)
            OPREC_TYPED(SubY, OPREC_SUB, c[ip->x], last)
            OPREC_TYPED(MulY, OPREC_MUL, c[ip->x], last)
            OPREC_TYPED(DivY, OPREC_DIV, c[ip->x], last)
#define OPREC_SUM_ADD(a, b) OPREC_SET(run::add(c[ip->dst], run::add(a, b)))
#define OPREC_SUM_SUB(a, b) OPREC_SET(run::add(c[ip->dst], run::sub(a, b)))
#define OPREC_SUM_MUL(a, b) OPREC_SET(run::add(c[ip->dst], run::mul(a, b)))
#define OPREC_SUM_DIV(a, b) OPREC_SET(run::add(c[ip->dst], run::truediv(a, b)))
#define OPREC_SUM_MUL_IF(a, b) {                                                   \
                if (rare.keep[ip->z]) c[ip->dst] = run::add(c[ip->dst], run::mul(a, b)); \
                OPREC_NEXT();                                                      \
            }
#define OPREC_FIRST_MUL_IF(a, b) {                                                                            \
                c[ip->dst] = rare.keep[ip->z] ? run::add(Value::integer(0), run::mul(a, b)) : Value::integer(0); \
                OPREC_NEXT();                                                                                 \
            }
#define OPREC_MUL_STORE(a, b) { rare.held[ip->dst] = 1; rare.slot_values[ip->dst] = run::stored(run::mul(a, b)); OPREC_NEXT(); }
#define OPREC_DIV_STORE(a, b) { rare.held[ip->dst] = 1; rare.slot_values[ip->dst] = run::stored(run::truediv(a, b)); OPREC_NEXT(); }
#define OPREC_HELD_CMP(a, b) { rare.held[ip->dst] = run::compare(ip->cmp, a, b) ? 1 : 0; OPREC_NEXT(); }
#define OPREC_JUMP_UNLESS_CMP(a, b) { if (!run::compare(ip->cmp, a, b)) OPREC_JUMP(ip->dst); OPREC_NEXT(); }
            OPREC_TYPED(SumAdd, OPREC_SUM_ADD, c[ip->x], c[ip->y])
            OPREC_TYPED(SumSub, OPREC_SUM_SUB, c[ip->x], c[ip->y])
            OPREC_TYPED(SumMul, OPREC_SUM_MUL, c[ip->x], c[ip->y])
            OPREC_TYPED(SumDiv, OPREC_SUM_DIV, c[ip->x], c[ip->y])
            OPREC_TYPED(SumMulIf, OPREC_SUM_MUL_IF, c[ip->x], c[ip->y])
            OPREC_TYPED(FirstMulIf, OPREC_FIRST_MUL_IF, c[ip->x], c[ip->y])
            OPREC_TYPED(MulStore, OPREC_MUL_STORE, c[ip->x], c[ip->y])
            OPREC_TYPED(DivStore, OPREC_DIV_STORE, c[ip->x], c[ip->y])
            OPREC_TYPED(HeldCmp, OPREC_HELD_CMP, c[ip->x], c[ip->y])
            OPREC_TYPED(JumpUnlessCmp, OPREC_JUMP_UNLESS_CMP, c[ip->x], c[ip->y])
#define OPREC_TYPED3(OP, F1, F2)                                                              \
            OPREC_OP(OP##III) OPREC_SET(F2(F1(OPREC_I(last), OPREC_I(c[ip->x])), OPREC_I(c[ip->y]))) \
            OPREC_OP(OP##IIF) OPREC_SET(F2(F1(OPREC_I(last), OPREC_I(c[ip->x])), OPREC_F(c[ip->y]))) \
            OPREC_OP(OP##IFI) OPREC_SET(F2(F1(OPREC_I(last), OPREC_F(c[ip->x])), OPREC_I(c[ip->y]))) \
            OPREC_OP(OP##IFF) OPREC_SET(F2(F1(OPREC_I(last), OPREC_F(c[ip->x])), OPREC_F(c[ip->y]))) \
            OPREC_OP(OP##FII) OPREC_SET(F2(F1(OPREC_F(last), OPREC_I(c[ip->x])), OPREC_I(c[ip->y]))) \
            OPREC_OP(OP##FIF) OPREC_SET(F2(F1(OPREC_F(last), OPREC_I(c[ip->x])), OPREC_F(c[ip->y]))) \
            OPREC_OP(OP##FFI) OPREC_SET(F2(F1(OPREC_F(last), OPREC_F(c[ip->x])), OPREC_I(c[ip->y]))) \
            OPREC_OP(OP##FFF) OPREC_SET(F2(F1(OPREC_F(last), OPREC_F(c[ip->x])), OPREC_F(c[ip->y])))
            OPREC_TYPED3(MulMulX, run::mul, run::mul)
            OPREC_TYPED3(MulDivX, run::mul, run::truediv)
            OPREC_TYPED3(DivMulX, run::truediv, run::mul)
            OPREC_TYPED3(DivDivX, run::truediv, run::truediv)
#undef OPREC_TYPED3
#define OPREC_FN_Add run::add
#define OPREC_FN_Sub run::sub
#define OPREC_FN_Mul run::mul
#define OPREC_FN_Div run::truediv
#define OPREC_PAIR_T(P, F1, F2, TA, TB, TC, TYPES)                                    \
            OPREC_OP(P##X##TYPES) OPREC_SET(F2(F1(TA(c[ip->x]), TB(c[ip->y])), TC(c[ip->z]))) \
            OPREC_OP(P##Y##TYPES) OPREC_SET(F2(TC(c[ip->z]), F1(TA(c[ip->x]), TB(c[ip->y]))))
#define OPREC_PAIR(A, B)                                                                        \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_I, OPREC_I, OPREC_I, III) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_I, OPREC_I, OPREC_F, IIF) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_I, OPREC_F, OPREC_I, IFI) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_I, OPREC_F, OPREC_F, IFF) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_F, OPREC_I, OPREC_I, FII) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_F, OPREC_I, OPREC_F, FIF) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_F, OPREC_F, OPREC_I, FFI) \
            OPREC_PAIR_T(Pair##A##B, OPREC_FN_##A, OPREC_FN_##B, OPREC_F, OPREC_F, OPREC_F, FFF)
            OPREC_PAIR_BASES(OPREC_PAIR)
#undef OPREC_PAIR
#undef OPREC_PAIR_T
#undef OPREC_FN_Add
#undef OPREC_FN_Sub
#undef OPREC_FN_Mul
#undef OPREC_FN_Div
#undef OPREC_ADD
#undef OPREC_SUB
#undef OPREC_MUL
#undef OPREC_DIV
#undef OPREC_SUM_ADD
#undef OPREC_SUM_SUB
#undef OPREC_SUM_MUL
#undef OPREC_SUM_DIV
#undef OPREC_SUM_MUL_IF
#undef OPREC_FIRST_MUL_IF
#undef OPREC_MUL_STORE
#undef OPREC_DIV_STORE
#undef OPREC_HELD_CMP
#undef OPREC_JUMP_UNLESS_CMP
#undef OPREC_TYPED
#undef OPREC_I
#undef OPREC_F
#undef OPREC_SET
            OPREC_OP(Jump) OPREC_JUMP(ip->dst);
            OPREC_OP(JumpIfFalse) if (!run::truth(c[ip->x])) OPREC_JUMP(ip->dst); OPREC_NEXT();
            OPREC_OP(JumpIfTrue) if (run::truth(c[ip->x])) OPREC_JUMP(ip->dst); OPREC_NEXT();
            OPREC_OP(JumpUnlessCmp) if (!run::compare(ip->cmp, c[ip->x], c[ip->y])) OPREC_JUMP(ip->dst); OPREC_NEXT();
            OPREC_OP(Kept) if (!rare.keep[ip->x]) OPREC_JUMP(ip->dst); OPREC_NEXT();
            OPREC_OP(KeptZero)
                c[ip->y] = Value::integer(0);
                if (!rare.keep[ip->x]) OPREC_JUMP(ip->dst);
                OPREC_NEXT();
            OPREC_OP(SkipUnlessHeld) if (!rare.held[ip->x]) OPREC_JUMP(ip->dst); OPREC_NEXT();
            OPREC_OP(Memo) if ((rare.memo >> ip->x) & 1u) OPREC_JUMP(ip->dst); OPREC_NEXT();
            OPREC_OP(SetMemo) rare.memo |= std::uint64_t(1) << ip->x; OPREC_NEXT();
            OPREC_OP(Held) rare.held[ip->x] = run::truth(c[ip->y]) ? 1 : 0; OPREC_NEXT();
            OPREC_OP(SumMulIf)
                if (rare.keep[ip->z]) c[ip->dst] = run::add(c[ip->dst], run::mul(c[ip->x], c[ip->y]));
                OPREC_NEXT();
            OPREC_OP(FirstMulIf)
                c[ip->dst] = rare.keep[ip->z] ? run::add(Value::integer(0), run::mul(c[ip->x], c[ip->y])) : Value::integer(0);
                OPREC_NEXT();
            OPREC_OP(HeldCmp) rare.held[ip->dst] = run::compare(ip->cmp, c[ip->x], c[ip->y]) ? 1 : 0; OPREC_NEXT();
            OPREC_OP(Store)
                rare.held[ip->x] = 1;
                rare.slot_values[ip->x] = run::stored(copy_of(c[ip->y]));
                OPREC_NEXT();
            OPREC_OP(MulStore)
                rare.held[ip->dst] = 1;
                rare.slot_values[ip->dst] = run::stored(run::mul(c[ip->x], c[ip->y]));
                OPREC_NEXT();
            OPREC_OP(DivStore)
                rare.held[ip->dst] = 1;
                rare.slot_values[ip->dst] = run::stored(run::truediv(c[ip->x], c[ip->y]));
                OPREC_NEXT();
            OPREC_OP(Need) if (c[ip->x].type == kUnbound) [[unlikely]] give_up(); OPREC_NEXT();
            OPREC_OP(GiveUp) return false;
            OPREC_OP(Return) return true;
            }
        }
    }
#undef OPREC_OP
#undef OPREC_NEXT
#undef OPREC_JUMP
    return true;
}

}  // namespace

void thread_registers(RegisterCode& code) {
    const void* const* table = nullptr;
    execute(nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, &table);
    code.threaded.clear();
    code.threaded.reserve(code.instrs.size());
    for (const RInstr& in : code.instrs)
        code.threaded.push_back({table != nullptr ? table[static_cast<int>(in.op)] : nullptr, in.op, in.cmp, in.dst,
                                 in.x, in.y, in.z});
}

bool run_registers(const RegisterCode& code, const Value* names, const std::uint8_t* keep, std::uint8_t* held,
                   Value* slot_values, std::vector<Value>& scratch) {
    if (code.threaded.size() != code.instrs.size() || code.threaded.empty()) return false;  // not threaded
    try {
        return execute(&code, names, keep, held, slot_values, &scratch, nullptr);
    } catch (const EvalError&) {
        return false;
    } catch (const Unpriceable&) {
        return false;
    }
}

}  // namespace oprec
