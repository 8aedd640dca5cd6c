// pin_branches: the run's branches decided ahead for the values of the
// names that decide them (a model's shape: `n_exp`, `dc_kv`, `gmm`, `dh`),
// the others (a strategy's `t`, `cp`, `b`) left free. A search prices one
// layer shape under many strategies, so these values hold from one pricing
// to the next, as a JIT's guards do; the caller checks them (pins_hold).
//
// Which names: those a branch's test can read, through every instruction
// that can write what it tests (a backward slice). One walk in order
// (every jump goes forward) keeps each cell's value where it is known, the
// same on every path there, from those names and the constants, computed
// with the exact run's arithmetic (an operation that raises is not known).
// A test known goes one way: a jump always or never taken, a select one
// value, a held flag known, a memo computed before on every path or on
// none, and, with the mask, a keep test. Then code no path reaches goes,
// and so does an instruction whose value was known and is now read by
// nothing (a test's `n_ffMM % 2`), where every name behind it is pinned.
// The pins are the names the decided tests read.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "eval/register_code.h"
#include "eval/register_edit.h"
#include "eval/register_flow.h"
#include "eval/register_meaning.h"
#include "eval/register_pin.h"

namespace oprec {

namespace {

using Known = std::optional<Value>;

// Past this many places times jumps, the walk's states cost more than they
// are worth (24 MB of them: specialise's limit is 16 times the places, its
// types being a byte each).
constexpr std::size_t kMaxStateCells = std::size_t(1) << 20;

bool writes_cell(ROp op) { return writes_value(op); }

// The Add..Pow an X, Y or sum op does (rop_info's does).
ROp plain(ROp op) { return rop_info(op).does; }

// register_meaning.h's domain for the walk: a value known ahead or not,
// with Python's arithmetic (the tree walk's, to the bit); an operation on
// one not known is not known (a select, where its test is known, is the
// value it picks). Tests are read where what they test is known.
struct KnownDomain {
    template <ROp base>
    static Known arith(const Known& a, const Known& b) {
        if (!a || !b) return std::nullopt;
        if constexpr (base == ROp::Add) return py::add(*a, *b);
        else if constexpr (base == ROp::Sub) return py::sub(*a, *b);
        else if constexpr (base == ROp::Mul) return py::mul(*a, *b);
        else if constexpr (base == ROp::Div) return py::truediv(*a, *b);
        else if constexpr (base == ROp::FloorDiv) return py::floordiv(*a, *b);
        else if constexpr (base == ROp::Mod) return py::mod(*a, *b);
        else {
            static_assert(base == ROp::Pow);
            return py::pow(*a, *b);
        }
    }
    static Known neg(const Known& a) { return a ? Known(py::neg(*a)) : std::nullopt; }
    static Known pos(const Known& a) { return a ? Known(py::pos(*a)) : std::nullopt; }
    static Known logical_not(const Known& a) { return a ? Known(Value::boolean(!a->truthy())) : std::nullopt; }
    static Known compare(py::CmpOp cmp, const Known& a, const Known& b) {
        return a && b ? Known(Value::boolean(py::compare(cmp, *a, *b))) : std::nullopt;
    }
    static Known better(py::CmpOp cmp, const Known& first, const Known& second) {
        if (!first || !second) return std::nullopt;
        return py::compare(cmp, *second, *first) ? second : first;
    }
    static Known select(const Known& c, const Known& t, const Known& f) {
        if (!c) return std::nullopt;
        return c->truthy() ? t : f;
    }
    static Known copy(const Known& a) { return a; }
    static Known zero() { return Value::integer(0); }
    static Known unknown() { return std::nullopt; }
    static bool truth(const Known& a) { return a->truthy(); }
    static bool test(py::CmpOp cmp, const Known& a, const Known& b) { return py::compare(cmp, *a, *b); }
};

// What each field of an instruction holds in the walk's state (a field it
// does not read, a cell past the state: not known).
auto known_at(const RInstr& in, const std::vector<Known>& k, const Known& last) {
    return [&in, &k, &last](unsigned field) -> const Known& {
        static const Known kUnknown;
        if (field == kReadsLast) return last;
        const std::uint16_t cell = field_cell(in, field);
        return cell < k.size() ? k[cell] : kUnknown;
    };
}

// What an untyped value-writing instruction writes, where what it reads is
// known and the exact arithmetic does not raise.
Known evaluate(const RInstr& in, const std::vector<Known>& k, const Known& last) {
    try {
        return computed_at(KnownDomain{}, in, known_at(in, k, last));
    } catch (const EvalError&) {
        return std::nullopt;  // the run meets it; nothing is decided on it
    }
}

// Whether a test whose operands are known holds (register_meaning.h's test_result).
bool known_result(const RInstr& in, const std::vector<Known>& k) {
    const Known none;
    return test_result_at(KnownDomain{}, in, known_at(in, k, none));
}

// Where the walk's state keeps what is not a cell: after the cells, each
// slot's held flag, then each memo bit.
struct Layout {
    std::size_t held, memo;
};

// The cells a branch's test reads (a held flag or a memo bit as its place in the state).
int tested(const RInstr& in, const Layout& at, std::array<std::size_t, 2>& out) {
    switch (in.op) {
    case ROp::JumpIfFalse: case ROp::JumpIfTrue: case ROp::Select: out[0] = in.x; return 1;
    case ROp::JumpUnlessCmp: out[0] = in.x; out[1] = in.y; return 2;
    case ROp::SkipUnlessHeld: out[0] = at.held + in.x; return 1;
    case ROp::Memo: out[0] = at.memo + in.x; return 1;
    default: return 0;
    }
}

// The place in the walk's state an instruction writes (a cell, or a held
// flag after them), if any.
std::optional<std::size_t> written(const RInstr& in, std::size_t held) {
    if (writes_cell(in.op) || in.op == ROp::SumMulIf || in.op == ROp::FirstMulIf) return in.dst;
    switch (in.op) {
    case ROp::KeptZero: return in.y;
    case ROp::HeldCmp: case ROp::MulStore: case ROp::DivStore: return held + in.dst;
    case ROp::Held: case ROp::Store: return held + in.x;
    default: return std::nullopt;
    }
}

// The instructions that write each place, in one array (by place: from
// start[place] to start[place + 1]).
struct Writers {
    std::vector<std::uint32_t> start, by;
    Writers(const std::vector<RInstr>& instrs, std::size_t held, std::size_t places) : start(places + 1, 0) {
        for (const RInstr& in : instrs)
            if (const auto at = written(in, held)) ++start[*at + 1];
        for (std::size_t k = 0; k < places; ++k) start[k + 1] += start[k];
        by.resize(start[places]);
        std::vector<std::uint32_t> next(start.begin(), start.end() - 1);
        for (std::uint32_t i = 0; i < instrs.size(); ++i)
            if (const auto at = written(instrs[i], held)) by[next[*at]++] = i;
    }
};

// The names the values of `from` can come from: every instruction that can
// write one of them, what it reads, and so on back.
std::vector<std::uint8_t> names_behind(const std::vector<RInstr>& instrs, std::uint32_t name_count,
                                       const Writers& writers, const std::vector<std::size_t>& from) {
    std::vector<std::uint8_t> seen(writers.start.size() - 1, 0), done(instrs.size(), 0), names(name_count, 0);
    std::vector<std::size_t> cells;
    std::vector<std::uint32_t> pending;
    const auto reach = [&](std::size_t cell) {
        if (!seen[cell]) seen[cell] = 1, cells.push_back(cell);
    };
    for (const std::size_t cell : from) reach(cell);
    while (!cells.empty() || !pending.empty()) {
        if (!cells.empty()) {
            const std::size_t cell = cells.back();
            cells.pop_back();
            if (cell < name_count) names[cell] = 1;
            pending.insert(pending.end(), writers.by.begin() + writers.start[cell],
                           writers.by.begin() + writers.start[cell + 1]);
            continue;
        }
        const std::uint32_t i = pending.back();
        pending.pop_back();
        if (done[i]) continue;
        done[i] = 1;
        const RInstr& in = instrs[i];
        if (in.op == ROp::HeldCmp) {
            reach(in.x), reach(in.y);
        } else if (in.op == ROp::Held) {
            reach(in.y);
        } else if (writes_cell(in.op)) {
            std::array<std::uint16_t, 3> read{};
            for (int n = cells_read(in, read); n-- > 0;) reach(read[std::size_t(n)]);
            if (reads_value_before(in.op) && i > 0) pending.push_back(i - 1);  // the value before: the instruction before's
        }
    }
    return names;
}

// A slot's `when` known true need not be written where the slot's store
// (which sets its held flag) follows it on every path: the one store of
// that slot after it, which no jump passes over, and nothing between that
// reads the flag.
bool stored_after(const std::vector<RInstr>& instrs, const std::vector<std::uint8_t>& gone, std::size_t test) {
    const std::uint16_t slot = instrs[test].dst;
    std::optional<std::size_t> store;
    for (std::size_t j = 0; j < instrs.size(); ++j) {
        if (gone[j]) continue;
        const RInstr& in = instrs[j];
        const bool stores = ((in.op == ROp::MulStore || in.op == ROp::DivStore) && in.dst == slot) ||
                            (in.op == ROp::Store && in.x == slot);
        if (stores && (store || j < test)) return false;
        if (stores) store = j;
        if ((in.op == ROp::SkipUnlessHeld || in.op == ROp::Held) && in.x == slot) return false;
        if (in.op == ROp::HeldCmp && in.dst == slot && j != test) return false;
    }
    if (!store) return false;
    for (std::size_t j = 0; j < instrs.size(); ++j)
        if (!gone[j] && jumps(instrs[j].op) && j < *store && instrs[j].dst > *store) return false;
    return true;
}

// A Move whose cell nothing else writes, of a value that does not change
// after (a name, a constant, a cell written once): its reads read the
// value's cell instead. An X or Y op after it reads the value's cell too.
void forward_copies(RegisterCode& code) {
    std::vector<RInstr>& instrs = code.instrs;
    std::vector<std::uint32_t> writes(code.cells, 0);
    for (const RInstr& in : instrs)
        if (const auto at = written(in, code.cells); at && *at < code.cells) ++writes[*at];
    const std::uint32_t fixed = code.names + static_cast<std::uint32_t>(code.consts.size());
    std::vector<std::uint8_t> gone(instrs.size(), 0);
    for (std::size_t i = 0; i < instrs.size(); ++i) {
        const RInstr move = instrs[i];
        if (move.op != ROp::Move || writes[move.dst] != 1 || (move.x >= fixed && writes[move.x] != 1)) continue;
        if (i + 1 < instrs.size() && reads_value_before(instrs[i + 1].op)) {
            RInstr& next = instrs[i + 1];
            const unsigned reads = rop_info(next.op).reads;
            if (reads == (kReadsLast | kReadsY)) next.op = plain(next.op), next.x = move.x;        // an X op
            else if (reads == (kReadsX | kReadsLast)) next.op = plain(next.op), next.y = move.x;   // a Y op
            else continue;  // a chain reads the value before: the Move stays
        }
        for (RInstr& in : instrs) {
            const unsigned fields = fields_read(in);
            if ((fields & kReadsX) && in.x == move.dst) in.x = move.x;
            if ((fields & kReadsY) && in.y == move.dst) in.y = move.x;
            if ((fields & kReadsZ) && in.z == move.dst) in.z = move.x;
        }
        gone[i] = 1;
    }
    drop_instructions(instrs, gone);
}

// A memo bit no test reads any more is not set.
void drop_unset_memos(const std::vector<RInstr>& instrs, std::vector<std::uint8_t>& gone, std::uint32_t memos) {
    std::vector<std::uint8_t> tested(memos, 0);
    for (std::size_t i = 0; i < instrs.size(); ++i)
        if (!gone[i] && instrs[i].op == ROp::Memo) tested[instrs[i].x] = 1;
    for (std::size_t i = 0; i < instrs.size(); ++i)
        if (!gone[i] && instrs[i].op == ROp::SetMemo && !tested[instrs[i].x]) gone[i] = 1;
}

// What a known value was computed for and nothing reads any more (a
// decided test's operands) goes too, where every name behind it is pinned:
// computed without raising for those values, it does not raise while they
// hold. (A value from names not pinned, an argument a fn ignores, stays: on
// other values it may raise, as the exact run does.)
void drop_known_unread(const std::vector<RInstr>& before, const Writers& writers,
                       const std::vector<std::uint8_t>& pinned, const std::vector<std::uint8_t>& known_write,
                       const std::vector<RInstr>& instrs, std::vector<std::uint8_t>& gone, std::uint32_t name_count,
                       std::size_t cells) {
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<std::uint32_t> reads(cells, 0);
        for (std::size_t i = 0; i < instrs.size(); ++i) {
            if (gone[i]) continue;
            std::array<std::uint16_t, 3> read{};
            for (int n = cells_read(instrs[i], read); n-- > 0;) ++reads[read[std::size_t(n)]];
        }
        for (std::size_t i = 0; i < instrs.size(); ++i) {
            if (gone[i] || !known_write[i] || reads[instrs[i].dst] > 0) continue;
            std::size_t next = i + 1;
            while (next < instrs.size() && gone[next]) ++next;
            if (next < instrs.size() && reads_value_before(instrs[next].op)) continue;  // the value before is read
            const std::vector<std::uint8_t> behind = names_behind(before, name_count, writers, {instrs[i].dst});
            bool all_pinned = true;
            for (std::uint32_t k = 0; k < name_count; ++k) all_pinned = all_pinned && (!behind[k] || pinned[k]);
            if (!all_pinned) continue;
            gone[i] = 1;
            changed = true;
        }
    }
}

// A jump to the next instruction goes (after what it jumped over went).
void drop_jumps_to_next(std::vector<RInstr>& instrs) {
    for (bool changed = true; changed;) {
        std::vector<std::uint8_t> skip(instrs.size(), 0);
        changed = false;
        for (std::size_t i = 0; i < instrs.size(); ++i)
            if (instrs[i].op == ROp::Jump && instrs[i].dst == i + 1) skip[i] = 1, changed = true;
        if (changed) drop_instructions(instrs, skip);
    }
}

}  // namespace

std::vector<RegisterPin> pin_branches(RegisterCode& code, const Value* names, const std::uint8_t* keep) {
    code.threaded.clear();  // the instructions change: thread_registers again after
    std::vector<RInstr>& instrs = code.instrs;
    const std::size_t cells = code.cells;
    // Held flags follow the cells in the walk's state.
    std::size_t slots = 0;
    for (const RInstr& in : instrs) {
        if (in.op == ROp::HeldCmp || in.op == ROp::MulStore || in.op == ROp::DivStore) slots = std::max<std::size_t>(slots, in.dst + 1u);
        if (in.op == ROp::Held || in.op == ROp::Store || in.op == ROp::SkipUnlessHeld) slots = std::max<std::size_t>(slots, in.x + 1u);
    }
    const Layout at{cells, cells + slots};
    const std::size_t width = at.memo + code.memos;
    std::vector<std::size_t> tests;
    for (const RInstr& in : instrs) {
        std::array<std::size_t, 2> t{};
        for (int n = tested(in, at, t); n-- > 0;) tests.push_back(t[std::size_t(n)]);
    }
    // Each instruction a jump lands on gets a state: the values the jumps
    // to it bring, where they agree (register_flow.h).
    using Flow = ForwardFlow<Known, void (*)(Known*, const Known*, std::size_t)>;
    Flow flow;
    const auto merge = [](Known* into, const Known* from, std::size_t n) {
        for (std::size_t k = 0; k < n; ++k)
            if (into[k] && !(from[k] && identical(*into[k], *from[k]))) into[k].reset();
    };
    if (tests.empty() || !flow.start(instrs, width, kMaxStateCells, merge)) return {};
    const std::vector<RInstr> before = instrs;  // what the slices read
    const Writers writers(before, at.held, width);
    const std::vector<std::uint8_t> seeded = names_behind(before, code.names, writers, tests);

    std::vector<Known> state(width);
    for (std::uint32_t k = 0; k < code.names; ++k)
        if (seeded[k]) state[k] = names[k];
    for (std::size_t k = 0; k < code.consts.size(); ++k) state[code.names + k] = code.consts[k];
    for (std::size_t k = 0; k < code.memos; ++k) state[at.memo + k] = Value::boolean(false);  // a run starts with none set
    const auto bring = [&](std::size_t target, const std::vector<Known>& from) { flow.bring(target, from.data()); };

    std::vector<std::uint8_t> gone(instrs.size(), 0), known_write(instrs.size(), 0);
    std::vector<std::size_t> decided;    // the cells decided tests read
    std::vector<std::size_t> held_known;  // the `when`s known true
    bool live = true;
    Known last;
    for (std::size_t i = 0; i < instrs.size(); ++i) {
        RInstr& in = instrs[i];
        const Flow::Arrival arrival = flow.arrive(i, state, live);
        if (arrival == Flow::Arrival::Joined) {
            last.reset();
            live = true;
        } else if (arrival == Flow::Arrival::Unreached) {
            gone[i] = 1;  // nothing gets here
            continue;
        }
        // A test known: which way it goes.
        std::optional<bool> jump;
        std::array<std::size_t, 2> t{};
        const int n = tested(in, at, t);
        const bool known_test = n > 0 && state[t[0]] && (n < 2 || state[t[1]]);
        if (known_test) {
            const Value a = *state[t[0]];
            switch (in.op) {
            case ROp::JumpIfFalse: case ROp::JumpIfTrue: case ROp::JumpUnlessCmp: jump = known_result(in, state); break;
            case ROp::SkipUnlessHeld: jump = !a.truthy(); break;
            case ROp::Memo: jump = a.truthy(); break;  // computed before on every path, or on none
            default: break;  // Select
            }
            decided.insert(decided.end(), t.begin(), t.begin() + n);
        }
        if (in.op == ROp::Select && known_test) in = RInstr{ROp::Move, in.cmp, in.dst, state[in.x]->truthy() ? in.y : in.z, 0, 0};
        // With the mask, a keep test goes one way too (specialise drops it
        // or the code it skips; here the walk follows that way alone).
        const bool tests_keep = keep != nullptr && (in.op == ROp::Kept || in.op == ROp::KeptZero);
        const bool skips = tests_keep && !keep[in.x];
        if (jump) {
            if (!*jump) {
                gone[i] = 1;  // never taken
                continue;
            }
            in = RInstr{ROp::Jump, in.cmp, in.dst, 0, 0, 0};
        }
        // What it writes.
        if (writes_cell(in.op)) {
            state[in.dst] = evaluate(in, state, last);
            known_write[i] = state[in.dst].has_value();
            last = state[in.dst];
        }
        switch (in.op) {
        case ROp::SumMulIf: case ROp::FirstMulIf: state[in.dst].reset(); break;  // a sum: not followed here
        case ROp::KeptZero: state[in.y] = Value::integer(0); break;
        case ROp::HeldCmp:
            state[cells + in.dst].reset();
            if (state[in.x] && state[in.y]) {
                const bool holds = known_result(in, state);
                state[cells + in.dst] = Value::boolean(holds);
                decided.push_back(in.x), decided.push_back(in.y);
                if (holds) held_known.push_back(i);
            }
            break;
        case ROp::Held:
            state[cells + in.x].reset();
            if (state[in.y]) state[cells + in.x] = Value::boolean(known_result(in, state));
            break;
        case ROp::Store: state[cells + in.x] = Value::boolean(true); break;
        case ROp::MulStore: case ROp::DivStore: state[cells + in.dst] = Value::boolean(true); break;
        case ROp::SetMemo: state[at.memo + in.x] = Value::boolean(true); break;
        default: break;
        }
        if (in.op == ROp::Memo && in.y < cells) {
            // Where the memo jumps, its cell holds what an earlier place computed.
            Known kept;
            kept.swap(state[in.y]);
            bring(in.dst, state);
            kept.swap(state[in.y]);
        } else if (jumps(in.op) && (!tests_keep || skips)) {
            bring(in.dst, state);
        }
        if (ends_path(in.op) || skips) live = false;
    }
    if (decided.empty()) return {};

    const std::vector<std::uint8_t> pinned = names_behind(before, code.names, writers, decided);
    drop_unset_memos(instrs, gone, code.memos);
    drop_known_unread(before, writers, pinned, known_write, instrs, gone, code.names, cells);
    for (const std::size_t i : held_known)
        if (!gone[i]) gone[i] = stored_after(instrs, gone, i);
    drop_instructions(instrs, gone);
    forward_copies(code);
    drop_jumps_to_next(instrs);

    std::vector<RegisterPin> pins;
    for (std::uint32_t k = 0; k < code.names; ++k)
        if (pinned[k]) pins.push_back({static_cast<std::uint16_t>(k), names[k]});
    return pins;
}

}  // namespace oprec
