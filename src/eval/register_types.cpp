// specialise: the register run typed for one set of bound names' types
// (and keep mask). One walk over the instructions in order (every jump goes
// forward) keeps each cell's type where it is the same on every path to
// that point, and turns each op of OPREC_TYPED_BASES whose two operands are
// an int or a float there into its typed form. With the mask, a keep test
// goes one way, so a sum's type is known after it. What a type is not
// known for stays as it was.
//
// The same walk shortens the run. With the mask, a keep test that goes on
// and an entry not kept go, and so does code no path reaches. A slot's
// sum's start (int 0): an instruction reading the sum's cell where it
// holds that 0 on every path reads the constant 0 instead, the first step
// of an int sum (`0 + x * y`) is the product alone, and the start goes
// where nothing reads its 0 any more. Then typed pairs are fused
// (register_fuse.cpp). With `pin`, the branches are first decided for the
// values of the names they test (register_pin.cpp), so the walk sees one
// path where it saw two, and types more.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "eval/register_code.h"
#include "eval/register_edit.h"
#include "eval/register_flow.h"
#include "eval/register_fuse.h"
#include "eval/register_meaning.h"
#include "eval/register_pin.h"
#include "eval/register_run.h"
#include "eval/register_types.h"

namespace oprec {

namespace {

// Open: not the same on every path, or not known. Any: whatever the other
// paths to a join say (a memo's cell where the memo jumps: the value there
// is the same value, so of the same type, as where it is computed); no
// longer Any once the join is made. Zero: a KeptZero's int 0, on every
// path; SomeZeroInt: on some paths, an int on the others; SomeZero: on
// some paths, not known on the others.
enum class T : std::uint8_t { Open, Bool, Int, Float, Any, Zero, SomeZeroInt, SomeZero };
using State = std::vector<T>;

// Past this many cells times jumps, the walk's states cost more than they are worth.
constexpr std::size_t kMaxStateCells = std::size_t(1) << 24;

// A cell's type as the arithmetic sees it.
constexpr T kind(T t) {
    switch (t) {
    case T::Zero: case T::SomeZeroInt: return T::Int;
    case T::SomeZero: case T::Any: return T::Open;
    default: return t;
    }
}
constexpr bool zeroish(T t) { return t == T::Zero || t == T::SomeZeroInt || t == T::SomeZero; }

// What a cell is where two paths join.
constexpr T join(T a, T b) {
    if (a == b || b == T::Any) return a;
    if (a == T::Any) return b;
    if (!zeroish(a) && !zeroish(b)) return T::Open;
    return kind(a) == T::Int && kind(b) == T::Int ? T::SomeZeroInt : T::SomeZero;
}

T type_of(Value v) {
    switch (v.type) {
    case ValueType::Bool: return T::Bool;
    case ValueType::Int: return T::Int;
    case ValueType::Float: return T::Float;
    }
    return T::Open;
}

// Python's numbers (every value here is a bool, an int or a float): a float
// on either side makes a float whatever the other is, a bool counts as an
// int (an int result that would not fit gives up the run, so it is an int);
// a quotient is a float.
T numeric(T a, T b) {
    if (a == T::Float || b == T::Float) return T::Float;
    if (a == T::Open || b == T::Open) return T::Open;
    return T::Int;
}
T quotient(T, T) { return T::Float; }
T same(T a, T b) { return a == b ? a : T::Open; }
T negated(T a) { return a == T::Bool ? T::Int : a; }
// int ** int is an int or, for a negative exponent, a float.
T power(T a, T b) { return numeric(a, b) == T::Float ? T::Float : T::Open; }

// register_meaning.h's domain for the walk: the types of what it computes.
struct TypeDomain {
    template <ROp base>
    static T arith(T a, T b) {
        if constexpr (base == ROp::Div) return quotient(a, b);
        else if constexpr (base == ROp::Pow) return power(a, b);
        else {
            static_assert(base == ROp::Add || base == ROp::Sub || base == ROp::Mul || base == ROp::FloorDiv ||
                          base == ROp::Mod);
            return numeric(a, b);
        }
    }
    static T neg(T a) { return negated(a); }
    static T pos(T a) { return negated(a); }
    static T logical_not(T) { return T::Bool; }
    static T compare(py::CmpOp, T, T) { return T::Bool; }
    static T better(py::CmpOp, T first, T second) { return same(first, second); }
    static T select(T, T t, T f) { return same(t, f); }
    static T copy(T a) { return a; }
    static T zero() { return T::Int; }
    static T unknown() { return T::Open; }
};

// The type each field of an instruction holds in the walk's state, as the
// arithmetic sees it (a field it does not read, a cell past the state: Open).
auto type_at(const RInstr& in, const State& state, T last) {
    return [&in, &state, last](unsigned field) {
        if (field == kReadsLast) return last;
        const std::uint16_t cell = field_cell(in, field);
        return cell < state.size() ? kind(state[cell]) : T::Open;
    };
}

// The typed forms (OPREC_TYPED_BASES, OPREC_TYPED3_BASES): by the operands' types.
ROp typed(ROp base, T a, T b) { return typed_form(base, a == T::Float, b == T::Float); }
ROp typed3(ROp base, T a, T b, T c) { return typed3_form(base, a == T::Float, b == T::Float, c == T::Float); }
bool typable(T t) { return t == T::Int || t == T::Float; }

// join on the bytes, with selects and no branch, so that merging whole
// states (most of the walk's time) is vectorised; the same as join for
// every pair (checked below).
constexpr std::uint8_t join_bytes(std::uint8_t a, std::uint8_t b) {
    constexpr auto any = static_cast<std::uint8_t>(T::Any), zero = static_cast<std::uint8_t>(T::Zero);
    const auto int_kind = [](std::uint8_t t) {
        return t == static_cast<std::uint8_t>(T::Int) || t == zero || t == static_cast<std::uint8_t>(T::SomeZeroInt);
    };
    std::uint8_t r = a >= zero || b >= zero ? static_cast<std::uint8_t>(int_kind(a) && int_kind(b) ? T::SomeZeroInt : T::SomeZero)
                                            : static_cast<std::uint8_t>(T::Open);
    r = a == b || b == any ? a : r;
    return a == any ? b : r;
}
static_assert(static_cast<int>(T::Zero) == 5 && static_cast<int>(T::SomeZero) == 7, "zeroish: Zero and after");
static_assert([] {
    for (int a = 0; a <= static_cast<int>(T::SomeZero); ++a)
        for (int b = 0; b <= static_cast<int>(T::SomeZero); ++b)
            if (join_bytes(std::uint8_t(a), std::uint8_t(b)) != static_cast<std::uint8_t>(join(T(a), T(b)))) return false;
    return true;
}());

void merge_into(T* into, const T* from, std::size_t cells) {
    auto* const a = reinterpret_cast<std::uint8_t*>(into);
    const auto* const b = reinterpret_cast<const std::uint8_t*>(from);
    for (std::size_t k = 0; k < cells; ++k) a[k] = join_bytes(a[k], b[k]);
}
// With the mask known: a kept entry's product added without its keep test,
// or the product alone where it starts the sum and is an int. True where
// the instruction does nothing (a keep test that goes on, the step of an
// entry not kept).
bool fold_keep(RInstr& in, const State& state, const std::uint8_t* keep) {
    switch (in.op) {
    case ROp::Kept: return keep[in.x] != 0;
    case ROp::SumMulIf:
        if (!keep[in.z]) return true;
        in.op = ROp::SumMul;
        return false;
    case ROp::FirstMulIf:
        if (keep[in.z] && numeric(kind(state[in.x]), kind(state[in.y])) == T::Int) in.op = ROp::Mul;  // 0 + v is v
        return false;
    default: return false;
    }
}

// A read of a sum's cell where it holds its start (int 0) on every path
// reads the constant; the first step of a sum that is an int (`0 + v`, v
// an int) writes v.
void fold_zero(RInstr& in, const State& state, std::uint16_t zero_cell) {
    const unsigned fields = fields_read(in);
    const auto zero = [&](std::uint16_t cell) { return cell < state.size() && state[cell] == T::Zero; };
    if ((fields & kReadsX) && zero(in.x)) in.x = zero_cell;
    if ((fields & kReadsY) && zero(in.y)) in.y = zero_cell;
    if ((fields & kReadsZ) && zero(in.z)) in.z = zero_cell;
    // (fold_keep made a kept SumMulIf a SumMul; an int sum's first step is not a division)
    const bool sum_step = rop_info(in.op).reads == (kReadsDst | kReadsX | kReadsY) && writes_value(in.op) &&
                          is_untyped(in.op) && in.op != ROp::SumDiv;
    if (!sum_step || !zero(in.dst) || numeric(kind(state[in.x]), kind(state[in.y])) != T::Int) return;
    in.op = rop_info(in.op).does;
}

}  // namespace

std::optional<RegisterCode> specialise(const RegisterCode& untyped, const Value* names, const std::uint8_t* keep,
                                       bool pin) {
    RegisterCode pinned;
    if (pin) {
        pinned = untyped;
        pinned.pins = pin_branches(pinned, names, keep);
    }
    const RegisterCode& code = pin ? pinned : untyped;
    // Each instruction a jump lands on gets a state: the types the jumps
    // to it bring, merged (register_flow.h).
    const std::size_t cells = code.cells;
    using Flow = ForwardFlow<T, void (*)(T*, const T*, std::size_t)>;
    Flow flow;
    if (!flow.start(code.instrs, cells, kMaxStateCells, merge_into)) return std::nullopt;
    const auto bring = [&](std::size_t target, const State& from) { flow.bring(target, from.data()); };

    RegisterCode out = code;
    State state(cells, T::Open);
    for (std::uint32_t k = 0; k < code.names; ++k) state[k] = type_of(names[k]);
    for (std::size_t k = 0; k < code.consts.size(); ++k) state[code.names + k] = type_of(code.consts[k]);
    // The constant int 0, which a sum's start is read as; each cell a
    // start's 0 is read from (so that the start stays); the starts the mask
    // leaves to drop where nothing reads their 0: a KeptZero whose entry is
    // kept, a FirstMulIf whose entry is not.
    std::optional<std::uint16_t> zero_cell;
    for (std::size_t k = 0; k < code.consts.size() && !zero_cell; ++k)
        if (code.consts[k].is_int() && code.consts[k].i == 0) zero_cell = static_cast<std::uint16_t>(code.names + k);
    std::vector<std::uint8_t> zero_read(cells, 0);
    std::vector<std::pair<std::size_t, std::uint16_t>> starts;  // by instruction, its cell
    std::vector<std::uint8_t> gone(code.instrs.size(), 0);  // what the run does without
    bool live = true;     // reached by the instruction before, falling through
    T last = T::Open;     // the type of what the last value-writing instruction wrote (an X or Y op's operand)
    bool any = false;

    for (std::size_t i = 0; i < out.instrs.size(); ++i) {
        RInstr& in = out.instrs[i];
        const Flow::Arrival arrival = flow.arrive(i, state, live);
        if (arrival == Flow::Arrival::Joined) {
            for (T& t : state) t = t == T::Any ? T::Open : t;  // what is still Any is known from no path
            last = T::Open;
            live = true;
        } else if (arrival == Flow::Arrival::Unreached) {
            gone[i] = 1;  // nothing gets here (past a jump, or a keep test the mask says jumps)
            continue;
        }
        if (keep != nullptr && fold_keep(in, state, keep)) {
            gone[i] = 1;  // a keep test that goes on, an entry not kept
            continue;
        }
        if (zero_cell) fold_zero(in, state, *zero_cell);
        std::array<std::uint16_t, 3> reads{};
        for (int k = cells_read(in, reads); k-- > 0;)
            if (zeroish(state[reads[std::size_t(k)]])) zero_read[reads[std::size_t(k)]] = 1;
        const ROp op = in.op;  // what it does; in.op may become its typed form
        const auto at = type_at(in, state, last);
        const OperandFields fields = operand_fields(op);
        const T a = at(fields.field[0]), b = at(fields.field[1]), c = at(fields.field[2]);
        const T wrote = computed_at(TypeDomain{}, in, at);
        if (rop_info(op).typed == 2 && typable(a) && typable(b)) {
            in.op = typed(op, a, b);
            any = true;
        } else if (rop_info(op).typed == 3 && typable(a) && typable(b) && typable(c)) {
            in.op = typed3(op, a, b, c);
            any = true;
        }
        if (writes_value(op)) {  // writes c[dst] and the value before
            state[in.dst] = wrote;
            last = wrote;
            continue;
        }
        // Kept or not: as the mask says where it is known, else the sum's
        // type where both ways agree.
        const auto kept = [&](std::uint16_t record) -> std::optional<bool> {
            if (keep == nullptr) return std::nullopt;
            return keep[record] != 0;
        };
        switch (op) {
        case ROp::SumMulIf: {
            const T added = wrote;
            const std::optional<bool> k = kept(in.z);
            state[in.dst] = !k ? join(state[in.dst], added) : *k ? added : state[in.dst];
            break;
        }
        case ROp::FirstMulIf: {
            const T added = wrote;
            const std::optional<bool> k = kept(in.z);
            state[in.dst] = !k ? same(T::Int, added) : *k ? added : T::Zero;
            if (k && !*k) starts.emplace_back(i, in.dst);
            break;
        }
        case ROp::KeptZero:
            state[in.y] = T::Zero;
            if (keep != nullptr && keep[in.x]) starts.emplace_back(i, in.y);
            break;
        default: break;
        }
        // Where the mask is known, a keep test goes one way only.
        const bool tests_keep = op == ROp::Kept || op == ROp::KeptZero;
        const std::optional<bool> k = tests_keep ? kept(in.x) : std::nullopt;
        if (op == ROp::Memo && in.y < state.size()) {
            // Where the memo jumps, its cell holds the value computed before
            // in this run: the type the code after it computes.
            const T kept_type = state[in.y];
            state[in.y] = T::Any;
            bring(in.dst, state);
            state[in.y] = kept_type;
        } else if (jumps(op) && !(k && *k)) {
            bring(in.dst, state);
        }
        if (ends_path(op) || (k && !*k)) live = false;
    }
    if (!any && code.pins.empty() && code.instrs.size() == untyped.instrs.size()) return std::nullopt;
    for (const auto& [i, cell] : starts) gone[i] = gone[i] || !zero_read[cell];
    drop_instructions(out.instrs, gone);
    fuse_pairs(out);
    thread_registers(out);
    return out;
}

}  // namespace oprec
