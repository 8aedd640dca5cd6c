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
#include "eval/register_meaning.h"
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

// register_meaning.h's domain for the run: the fast arithmetic on values.
// Copies go field by field (copy_of).
struct RunDomain {
    template <ROp base>
    [[gnu::always_inline]] static Value arith(Value a, Value b) {
        if constexpr (base == ROp::Add) return run::add(a, b);
        else if constexpr (base == ROp::Sub) return run::sub(a, b);
        else if constexpr (base == ROp::Mul) return run::mul(a, b);
        else if constexpr (base == ROp::Div) return run::truediv(a, b);
        else if constexpr (base == ROp::FloorDiv) return run::floordiv(a, b);
        else if constexpr (base == ROp::Mod) return run::mod(a, b);
        else {
            static_assert(base == ROp::Pow);
            return run::pow(a, b);
        }
    }
    [[gnu::always_inline]] static Value neg(Value v) { return v.is_float() ? Value::real(-v.f) : run::unary(&py::neg, v); }
    [[gnu::always_inline]] static Value pos(Value v) { return run::unary(&py::pos, v); }
    [[gnu::always_inline]] static Value logical_not(const Value& v) { return Value::boolean(!run::truth(v)); }
    [[gnu::always_inline]] static Value compare(py::CmpOp cmp, Value a, Value b) {
        return Value::boolean(run::compare(cmp, a, b));
    }
    [[gnu::always_inline]] static Value better(py::CmpOp cmp, const Value& first, const Value& second) {
        return better_of(cmp, first, second);
    }
    [[gnu::always_inline]] static Value select(const Value& c, const Value& t, const Value& f) {
        return copy_of(run::truth(c) ? t : f);
    }
    [[gnu::always_inline]] static Value copy(const Value& v) { return copy_of(v); }
    [[gnu::always_inline]] static Value zero() { return Value::integer(0); }
    [[gnu::always_inline]] static Value unknown() { return Value{}; }
    [[gnu::always_inline]] static bool truth(const Value& v) { return run::truth(v); }
    [[gnu::always_inline]] static bool test(py::CmpOp cmp, Value a, Value b) { return run::compare(cmp, a, b); }
};

// What an op does not read (an operand past its count).
struct Unread {};

// Operand k of an instruction as the run reads it: a cell or the value
// before; a typed form's made a value of its type (Value::integer of an
// int's payload), so the arithmetic's type tests fold away.
template <ROp op, int k>
[[gnu::always_inline]] inline decltype(auto) operand(const Value* c, const RThreaded* ip, const Value& last) {
    constexpr OperandFields fields = operand_fields(op);
    if constexpr (k >= fields.count) {
        return Unread{};
    } else {
        constexpr unsigned field = fields.field[k];
        const Value& v = field == kReadsLast ? last : field == kReadsY ? c[ip->y] : field == kReadsZ ? c[ip->z] : c[ip->x];
        if constexpr (!operands_typed(op)) return v;
        else if constexpr (operand_is_float(op, k)) return Value::real(v.f);
        else return Value::integer(v.i);
    }
}

// The ops OPREC_HANDLE's branches (in execute) take: an op of a new kind,
// which none would take, fails to compile there.
constexpr bool run_handles(ROp op) {
    const ROpInfo& i = rop_info(op);
    switch (i.writes) {
    case RWrites::Dst: case RWrites::StoreX: case RWrites::StoreDst: case RWrites::HeldX: case RWrites::HeldDst:
        return true;
    case RWrites::Sum: return i.base == ROp::SumMulIf || i.base == ROp::FirstMulIf;
    default: break;
    }
    if (is_test(op)) return true;
    switch (i.base) {
    case ROp::Jump: case ROp::Kept: case ROp::KeptZero: case ROp::SkipUnlessHeld: case ROp::Memo: case ROp::SetMemo:
    case ROp::Need: case ROp::GiveUp: case ROp::Return:
        return true;
    default: return false;
    }
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
            // Every op's handler, from one body: what it computes is
            // register_meaning.h's (its operands made values of their known
            // types where it is typed, so fast::'s type tests fold away);
            // what it does with that, by what it writes and where it goes.
            // A value-writing op writes its cell and `last`, for an X or Y
            // op after it.
// Braces, not do-while: without computed goto, OPREC_NEXT's `continue`
// inside do { } while (0) would end only that loop (as interp.h says).
#define OPREC_SET(EXPR) { last = (EXPR); c[ip->dst] = last; OPREC_NEXT(); }
#define OPREC_OPERANDS(OP) \
    operand<OP, 0>(c, ip, last), operand<OP, 1>(c, ip, last), operand<OP, 2>(c, ip, last), c[ip->dst], ip->cmp
#define OPREC_TEST_OPERANDS(OP) operand<OP, 0>(c, ip, last), operand<OP, 1>(c, ip, last), ip->cmp
#define OPREC_HANDLE(NAME)                                                                       \
            OPREC_OP(NAME) {                                                                     \
                constexpr ROp op = ROp::NAME;                                                    \
                constexpr ROpInfo info = rop_info(op);                                           \
                constexpr ROp base = info.base;                                                  \
                static_assert(run_handles(op), "an op with no handler");                         \
                if constexpr (info.writes == RWrites::Dst) {                                     \
                    OPREC_SET(computed<op>(RunDomain{}, OPREC_OPERANDS(op)));                                     \
                } else if constexpr (base == ROp::SumMulIf) {                                    \
                    if (rare.keep[ip->z]) c[ip->dst] = computed<op>(RunDomain{}, OPREC_OPERANDS(op));             \
                } else if constexpr (base == ROp::FirstMulIf) {                                  \
                    c[ip->dst] = rare.keep[ip->z] ? computed<op>(RunDomain{}, OPREC_OPERANDS(op)) : Value::integer(0); \
                } else if constexpr (info.writes == RWrites::StoreX) {                           \
                    rare.held[ip->x] = 1;                                                        \
                    rare.slot_values[ip->x] = run::stored(computed<op>(RunDomain{}, OPREC_OPERANDS(op)));         \
                } else if constexpr (info.writes == RWrites::StoreDst) {                         \
                    rare.held[ip->dst] = 1;                                                      \
                    rare.slot_values[ip->dst] = run::stored(computed<op>(RunDomain{}, OPREC_OPERANDS(op)));       \
                } else if constexpr (info.writes == RWrites::HeldX) {                            \
                    rare.held[ip->x] = test_result<op>(RunDomain{}, OPREC_TEST_OPERANDS(op)) ? 1 : 0;                  \
                } else if constexpr (info.writes == RWrites::HeldDst) {                          \
                    rare.held[ip->dst] = test_result<op>(RunDomain{}, OPREC_TEST_OPERANDS(op)) ? 1 : 0;                \
                } else if constexpr (is_test(op)) {                                              \
                    if (test_result<op>(RunDomain{}, OPREC_TEST_OPERANDS(op))) OPREC_JUMP(ip->dst);                    \
                } else if constexpr (base == ROp::Jump) {                                        \
                    OPREC_JUMP(ip->dst);                                                         \
                } else if constexpr (base == ROp::Kept) {                                        \
                    if (!rare.keep[ip->x]) OPREC_JUMP(ip->dst);                                  \
                } else if constexpr (base == ROp::KeptZero) {                                    \
                    c[ip->y] = Value::integer(0);                                                \
                    if (!rare.keep[ip->x]) OPREC_JUMP(ip->dst);                                  \
                } else if constexpr (base == ROp::SkipUnlessHeld) {                              \
                    if (!rare.held[ip->x]) OPREC_JUMP(ip->dst);                                  \
                } else if constexpr (base == ROp::Memo) {                                        \
                    if ((rare.memo >> ip->x) & 1u) OPREC_JUMP(ip->dst);                          \
                } else if constexpr (base == ROp::SetMemo) {                                     \
                    rare.memo |= std::uint64_t(1) << ip->x;                                      \
                } else if constexpr (base == ROp::Need) {                                        \
                    if (c[ip->x].type == kUnbound) [[unlikely]] give_up();                       \
                } else if constexpr (base == ROp::GiveUp) {                                      \
                    return false;                                                                \
                } else if constexpr (base == ROp::Return) {                                      \
                    return true;                                                                 \
                }                                                                                \
                OPREC_NEXT();                                                                    \
            }
#define OPREC_HANDLE_UNTYPED(NAME, R, W, J, T, D) OPREC_HANDLE(NAME)
            OPREC_ROPS(OPREC_HANDLE_UNTYPED)
#undef OPREC_HANDLE_UNTYPED
#define OPREC_HANDLE_TYPED(OP) OPREC_HANDLE(OP##II) OPREC_HANDLE(OP##IF) OPREC_HANDLE(OP##FI) OPREC_HANDLE(OP##FF)
            OPREC_TYPED_BASES(OPREC_HANDLE_TYPED)
#undef OPREC_HANDLE_TYPED
#define OPREC_HANDLE_TYPES3(P)                                                                 \
            OPREC_HANDLE(P##III) OPREC_HANDLE(P##IIF) OPREC_HANDLE(P##IFI) OPREC_HANDLE(P##IFF) \
            OPREC_HANDLE(P##FII) OPREC_HANDLE(P##FIF) OPREC_HANDLE(P##FFI) OPREC_HANDLE(P##FFF)
            OPREC_TYPED3_BASES(OPREC_HANDLE_TYPES3)
#define OPREC_HANDLE_PAIR(A, B) OPREC_HANDLE_TYPES3(Pair##A##B##X) OPREC_HANDLE_TYPES3(Pair##A##B##Y)
            OPREC_PAIR_BASES(OPREC_HANDLE_PAIR)
#undef OPREC_HANDLE_PAIR
#undef OPREC_HANDLE_TYPES3
#undef OPREC_HANDLE
#undef OPREC_OPERANDS
#undef OPREC_TEST_OPERANDS
#undef OPREC_SET
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
