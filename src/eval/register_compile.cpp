// compile_registers: the records' layer run (as compile_layer orders it) as
// register code. Each expression occurrence gets an expression number: equal
// numbers are the same operations on the same cells, so the same value. A
// number already computed on every path here (the scopes: a branch, a kept
// entry, a held slot) is read, not computed again; a costly number used in
// several places no one path passes through all of is memoised.
#include <bit>
#include <map>
#include <unordered_map>

#include "eval/register_code.h"
#include "eval/register_compile.h"
#include "eval/register_edit.h"
#include "eval/register_run.h"

namespace oprec {

namespace {

using ExprId = std::uint32_t;
constexpr ExprId kNoNumber = 0xffffffffu;
using Cell = std::uint16_t;

constexpr std::uint32_t kMaxCells = 0xffff;
constexpr std::uint32_t kMaxInstrs = 0xffff;
constexpr std::uint32_t kMaxMemos = 64;
// Deeper expressions are left to each expression's own code (whose tree walk has the stack for them).
constexpr int kMaxDepth = 200;
// The most instructions a hoisted number may take (hoisted_).
constexpr std::uint32_t kHoistCost = 3;

struct TooBig {};  // beyond the form's limits: no register code

// What a fn body's parameters stand for: the arguments' numbers (for
// numbering) and cells (for reading).
struct Frame {
    std::vector<ExprId> ids;
    std::vector<Cell> cells;
};

// Numbers key on the operation and its operands' numbers (a constant on its
// value's type and bits, a name on its id, `total` on its slot).
enum Tag : std::uint32_t { kConst, kName, kTotal, kCall, kUnique, kOp };

class RegisterCompiler {
public:
    explicit RegisterCompiler(const Program& program) : program_(program), code_(program.code) {
        out_.names = static_cast<std::uint32_t>(program.names.size());
        if (out_.names >= kMaxCells || program.records.size() > 0xffff || program.slots.size() > 0xffff) throw TooBig{};
        next_cell_ = out_.names;
        top_numbers_.assign(code_.nodes.size(), kNoNumber);
        zero_ = const_cell(Value::integer(0));
    }

    RegisterCode compile() {
        count_layer();
        for (ExprId e : hoisted_) emit(info_[e].rep, top_, info_[e].rep_slot);
        // Every `when` first, in the records' order, at the run's top level.
        for (SlotId s = 0; s < program_.slots.size(); ++s) {
            const SlotInfo& slot = program_.slots[s];
            if (slot.when) emit_when(s, *slot.when);
        }
        for (SlotId s = 0; s < program_.slots.size(); ++s) emit_slot(s);
        add(ROp::Return);
        chain();
        out_.cells = next_cell_;
        return std::move(out_);
    }

private:
    // An Add..Div reading what the instruction before it wrote, where no
    // jump lands, reads it from the run's register (ROp::AddX...); then two
    // such multiplications or divisions in a row are one instruction where
    // nothing else reads the first one's value (ROp::MulMulX...).
    void chain() {
        auto& code = out_.instrs;
        std::vector<std::uint32_t> landings = landing_counts(code);
        for (std::size_t k = 1; k < code.size(); ++k) {
            RInstr& i = code[k];
            const RInstr& before = code[k - 1];
            if (landings[k] != 0 || !writes_value(before.op) || !plain_binary(i.op)) continue;
            if (i.x == before.dst) i.op = rop_doing(i.op, ROp::AddX);
            else if (i.y == before.dst) i.op = rop_doing(i.op, ROp::AddY);
        }
        std::vector<std::uint8_t> gone(code.size(), 0);
        // `a if c else b` where a and b are values at hand (names, constants,
        // values computed before): JumpIfFalse, Move, Jump, Move as one select.
        for (std::size_t k = 0; k + 4 <= code.size(); ++k) {
            const RInstr& test = code[k];
            const RInstr& then = code[k + 1];
            const RInstr& skip = code[k + 2];
            const RInstr& orelse = code[k + 3];
            const bool shape = test.op == ROp::JumpIfFalse && test.dst == k + 3 && then.op == ROp::Move &&
                               skip.op == ROp::Jump && skip.dst == k + 4 && orelse.op == ROp::Move &&
                               orelse.dst == then.dst;
            if (!shape || landings[k + 1] != 0 || landings[k + 2] != 0 || landings[k + 3] != 1) continue;
            code[k] = {ROp::Select, py::CmpOp::Eq, then.dst, test.x, then.x, orelse.x};
            gone[k + 1] = gone[k + 2] = gone[k + 3] = 1;
            landings[k + 3] = 0;  // the test's
            --landings[k + 4];    // the Jump's
            k += 3;
        }
        // An entry that is one product: its keep test and its step of the sum in one.
        for (std::size_t k = 0; k + 2 < code.size(); ++k) {
            RInstr& test = code[k];
            const RInstr& step = code[k + 1];
            const bool kept = test.op == ROp::Kept || (test.op == ROp::KeptZero && test.y == step.dst);
            if (!kept || step.op != ROp::SumMul || test.dst != k + 2 || landings[k + 1] != 0) continue;
            test = {test.op == ROp::Kept ? ROp::SumMulIf : ROp::FirstMulIf, py::CmpOp::Eq, step.dst, step.x, step.y,
                    static_cast<std::uint16_t>(test.x)};
            gone[k + 1] = 1;
        }
        const std::vector<std::uint32_t> reads = read_counts(out_, next_cell_);
        for (std::size_t k = 0; k + 1 < code.size(); ++k) {
            RInstr& first = code[k];
            const RInstr& second = code[k + 1];
            if (gone[k] || landings[k + 1] != 0) continue;
            // A chain's two products or quotients.
            const bool muldiv = (first.op == ROp::MulX || first.op == ROp::DivX) &&
                                (second.op == ROp::MulX || second.op == ROp::DivX);
            if (muldiv && reads[first.dst] == 0) {
                first = {rop_chain(rop_info(first.op).does, rop_info(second.op).does), py::CmpOp::Eq, second.dst,
                         first.y, second.y};
                gone[k + 1] = 1;
            }
            // `x if not c else y`: a jump on c itself.
            const bool negated_test = first.op == ROp::Not &&
                                      (second.op == ROp::JumpIfFalse || second.op == ROp::JumpIfTrue) &&
                                      second.x == first.dst && reads[first.dst] == 1;
            if (negated_test) {
                first = {second.op == ROp::JumpIfFalse ? ROp::JumpIfTrue : ROp::JumpIfFalse, py::CmpOp::Eq, second.dst,
                         first.x};
                gone[k + 1] = 1;
            }
        }
        drop_instructions(code, gone);
    }

    // --- numbering -------------------------------------------------------

    ExprId intern(std::vector<std::uint32_t> key) {
        auto [it, fresh] = ids_.try_emplace(std::move(key), static_cast<ExprId>(info_.size()));
        if (fresh) info_.push_back({});
        // Each number takes a cell at least: past the cells there are, there is no register form.
        if (info_.size() > kMaxCells) throw TooBig{};
        return it->second;
    }

    // The number of `node` under `frame`; `slot` is the formula's, for `total`.
    ExprId number(NodeId id, const Frame& frame, SlotId slot, int depth = 0) {
        if (depth > kMaxDepth) throw TooBig{};
        // At the top level a node's number is kept: emitting asks for it again at each level.
        const bool top = &frame == &top_;
        if (top && top_numbers_[id] != kNoNumber) return top_numbers_[id];
        const ExprId e = number_of(id, frame, slot, depth);
        if (top) top_numbers_[id] = e;
        return e;
    }
    ExprId number_of(NodeId id, const Frame& frame, SlotId slot, int depth) {
        const Node& n = code_.nodes[id];
        switch (n.op) {
        case Op::Const: {
            const Cell cell = const_cell(code_.consts[n.a]);
            return leaf(intern({kConst, cell}), cell);
        }
        case Op::Load: return leaf(intern({kName, n.a}), static_cast<Cell>(n.a));
        case Op::Param: return frame.ids[n.a];
        case Op::Total: {
            if (!in_formula_) throw TooBig{};  // `total` outside a formula: the checker refuses it
            const ExprId e = leaf(intern({kTotal, slot}), 0);  // the slot's total cell (emit_slot's)
            info_[e].reads_total = true;
            return e;
        }
        case Op::ArgCountError: return intern({kUnique, id});
        default: break;
        }
        std::vector<std::uint32_t> key{kOp + static_cast<std::uint32_t>(n.op), n.n};
        const auto kid = [&](NodeId k) { key.push_back(number(k, frame, slot, depth + 1)); };
        switch (n.op) {
        case Op::Neg: case Op::Pos: case Op::Not: kid(n.a); break;
        case Op::IfElse: kid(n.a); kid(n.b); kid(n.c); break;
        case Op::Compare:
            for (std::uint32_t k = 0; k + 1 < n.n; ++k) key.push_back(static_cast<std::uint32_t>(code_.cmp_ops[n.b + k]));
            for (std::uint32_t k = 0; k < n.n; ++k) kid(code_.lists[n.a + k]);
            break;
        case Op::And: case Op::Or: case Op::Max: case Op::Min:
            for (std::uint32_t k = 0; k < n.n; ++k) kid(code_.lists[n.a + k]);
            break;
        case Op::CallFn: {
            // Keyed on its arguments, not only its body's value: each argument
            // is evaluated whether the body reads it or not.
            key[0] = kCall;
            key.push_back(n.c);
            for (std::uint32_t k = 0; k < n.n; ++k) kid(code_.lists[n.a + k]);
            break;
        }
        default: kid(n.a); kid(n.b); break;  // the binary operators
        }
        return intern(std::move(key));
    }
    ExprId leaf(ExprId id, Cell cell) {
        info_[id].leaf = true;
        info_[id].cell = cell;
        return id;
    }

    // How many places compute each number (a place inside another that
    // recurs counts once), what computing it costs in instructions, and
    // what hoisting it to the run's start needs to know.
    std::uint32_t count(NodeId id, const Frame& frame, SlotId slot, int depth = 0) {
        const ExprId e = number(id, frame, slot, depth);
        if (info_[e].leaf) return 0;
        if (guarded_ > 0) info_[e].guarded = true;
        if (info_[e].uses++ > 0) return info_[e].cost;
        if (&frame == &top_) {
            info_[e].rep = id;
            info_[e].rep_slot = slot;
        }
        const Node& n = code_.nodes[id];
        std::uint32_t cost = 1;
        // Hoisted only what cannot fail but on an int's overflow: a guard
        // `x / y if y else 0` may be what keeps a division from raising.
        bool safe = n.op == Op::Add || n.op == Op::Sub || n.op == Op::Mul || n.op == Op::Neg || n.op == Op::Pos ||
                    n.op == Op::Not || n.op == Op::Max || n.op == Op::Min;
        bool reads_total = false;
        const auto kid = [&](NodeId k, const Frame& f, bool lazy = false) {
            guarded_ += lazy ? 1 : 0;
            cost += count(k, f, slot, depth + 1);
            guarded_ -= lazy ? 1 : 0;
            const Info& child = info_[number(k, f, slot, depth + 1)];
            safe = safe && (child.leaf || child.safe);
            reads_total = reads_total || child.reads_total;
        };
        switch (n.op) {
        case Op::Neg: case Op::Pos: case Op::Not: kid(n.a, frame); break;
        case Op::IfElse: kid(n.b, frame); kid(n.a, frame, true); kid(n.c, frame, true); break;
        case Op::Compare: case Op::And: case Op::Or:
            // All but the first operand (a comparison's first two) run only where the others let them.
            for (std::uint32_t k = 0; k < n.n; ++k) kid(code_.lists[n.a + k], frame, k >= (n.op == Op::Compare ? 2u : 1u));
            break;
        case Op::Max: case Op::Min: case Op::ArgCountError:
            for (std::uint32_t k = 0; k < n.n; ++k) kid(code_.lists[n.a + k], frame);
            break;
        case Op::CallFn: {
            Frame inner;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                const NodeId arg = code_.lists[n.a + k];
                kid(arg, frame);
                inner.ids.push_back(number(arg, frame, slot, depth + 1));
            }
            kid(code_.fns[n.c].body, inner);
            break;
        }
        default: kid(n.a, frame); kid(n.b, frame); break;
        }
        Info& info = info_[e];
        info.cost = cost;
        info.safe = safe;
        info.reads_total = reads_total;
        return cost;
    }

    void count_layer() {
        for (SlotId s = 0; s < program_.slots.size(); ++s)
            if (program_.slots[s].when) count(*program_.slots[s].when, top_, s);
        for (SlotId s = 0; s < program_.slots.size(); ++s) {
            for (const SlotEntryInfo& e : program_.slots[s].entries) count(e.expr, top_, s);
            in_formula_ = true;
            count(program_.slots[s].formula, top_, s);
            in_formula_ = false;
        }
        for (ExprId e = 0; e < info_.size(); ++e) {
            Info& info = info_[e];
            if (info.leaf || info.uses < 2) continue;
            // Hoisted: a cheap number that cannot fail, used in several
            // places: computed once at the run's start, past the places'
            // keep tests, `when`s and branches, even if no place is reached
            // (a few instructions).
            if (info.safe && !info.reads_total && info.cost <= kHoistCost && info.rep != kNoNode) {
                hoisted_.push_back(e);
                continue;
            }
            // Memoised: a number whose reuse saves more than the memo's two
            // instructions cost where a run first computes it.
            // Only where no place is in a branch: a conditional's two
            // branches are never both taken, and a memo there may cost more
            // than it saves.
            if (info.cost >= 3 && !info.guarded && out_.memos < kMaxMemos) info.memo = static_cast<int>(out_.memos++);
        }
    }

    // --- emitting --------------------------------------------------------

    void emit_slot(SlotId s) {
        const SlotInfo& slot = program_.slots[s];
        // A slot with no `when` runs on every path: what it computes stays at hand.
        const std::size_t skip = slot.when ? add(ROp::SkipUnlessHeld, 0, s) : 0;
        if (slot.when) open_scope();
        // Python's sum: int 0, then each kept entry in order.
        total_cell_ = new_cell();
        if (slot.entries.empty()) add(ROp::Move, total_cell_, zero_);
        for (std::size_t k = 0; k < slot.entries.size(); ++k) {
            const SlotEntryInfo& e = slot.entries[k];
            const std::size_t dropped =
                k == 0 ? add(ROp::KeptZero, 0, e.record, total_cell_) : add(ROp::Kept, 0, e.record);
            open_scope();
            const Cell v = emit(e.expr, top_, s);
            if (RInstr* last = fusable(v, plain_binary)) {
                last->op = rop_doing(last->op, ROp::SumAdd);
                last->dst = total_cell_;
            } else {
                add(ROp::Add, total_cell_, total_cell_, v);
            }
            close_scope();
            land(dropped);
        }
        // Python sums every kept entry before the formula; where the formula
        // may not read `total`, the run must still give up on one with no value.
        if (!consumes(slot.formula, Op::Total, 0)) add(ROp::Need, 0, total_cell_);
        in_formula_ = true;
        const Cell bytes = emit(slot.formula, top_, s);
        if (RInstr* last = fusable(bytes, [](ROp op) { return op == ROp::Mul || op == ROp::Div; })) {
            last->op = rop_doing(last->op, ROp::MulStore);
            last->dst = static_cast<Cell>(s);
        } else {
            add(ROp::Store, 0, s, bytes);
        }
        in_formula_ = false;
        if (slot.when) {
            close_scope();
            land(skip);
        }
    }

    // A `when`: a comparison of two is tested and stored in one instruction.
    void emit_when(SlotId s, NodeId when) {
        const Node& n = code_.nodes[when];
        if (n.op == Op::Compare && n.n == 2 && !at_hand(number(when, top_, s))) {
            const Cell x = emit(code_.lists[n.a], top_, s);
            const Cell y = emit(code_.lists[n.a + 1], top_, s);
            add(ROp::HeldCmp, static_cast<Cell>(s), x, y, code_.cmp_ops[n.b]);
            return;
        }
        add(ROp::Held, 0, s, emit(when, top_, s));
    }

    // The instruction just emitted, if it computed `v` (an op `fits`) and can take the next step too: no jump lands after it (a
    // branch's last instruction) and `v` is read nowhere else (it is
    // forgotten: the fused instruction no longer writes it).
    RInstr* fusable(Cell v, bool (*fits)(ROp)) {
        if (out_.instrs.empty() || last_landing_ == out_.instrs.size()) return nullptr;
        RInstr& i = out_.instrs.back();
        if (i.dst != v || !fits(i.op)) return nullptr;
        if (scope_added_.empty() || at_hand_.at(scope_added_.back()) != v) return nullptr;
        at_hand_.erase(scope_added_.back());
        scope_added_.pop_back();
        return &i;
    }
    bool at_hand(ExprId e) const { return info_[e].leaf || info_[e].memo >= 0 || at_hand_.count(e) != 0; }

    // The cell holding `node`'s value, computing it if it is not at hand.
    Cell emit(NodeId id, const Frame& frame, SlotId slot, int depth = 0) {
        const Op op = code_.nodes[id].op;
        if (op == Op::Param) return frame.cells[code_.nodes[id].a];
        if (op == Op::Total) return total_cell_;
        const ExprId e = number(id, frame, slot, depth);
        const Info& info = info_[e];
        if (info.leaf) return info.cell;
        if (auto it = at_hand_.find(e); it != at_hand_.end()) return it->second;
        Cell dst;
        if (info.memo >= 0) {
            // Computed at the first of its places a run reaches, read at the others.
            if (info_[e].memo_cell == 0) info_[e].memo_cell = new_cell();
            dst = info_[e].memo_cell;
            const auto bit = static_cast<std::uint16_t>(info.memo);
            const std::size_t done = add(ROp::Memo, 0, bit, dst);
            open_scope();
            emit_into(id, frame, slot, dst, depth);
            close_scope();
            add(ROp::SetMemo, 0, bit);
            land(done);
        } else {
            dst = new_cell();
            emit_into(id, frame, slot, dst, depth);
        }
        remember(e, dst);
        return dst;
    }

    // Computes `node` into `dst`.
    void emit_into(NodeId id, const Frame& frame, SlotId slot, Cell dst, int depth) {
        if (depth > kMaxDepth) throw TooBig{};
        const Node& n = code_.nodes[id];
        const auto kid = [&](NodeId k) { return emit(k, frame, slot, depth + 1); };
        const auto list = [&](std::uint32_t k) { return code_.lists[n.a + k]; };
        switch (n.op) {
        case Op::Const: case Op::Load: case Op::Param: case Op::Total:
            add(ROp::Move, dst, emit(id, frame, slot, depth));
            return;
        case Op::Neg: add(ROp::Neg, dst, kid(n.a)); return;
        case Op::Pos: add(ROp::Pos, dst, kid(n.a)); return;
        case Op::Not: add(ROp::Not, dst, kid(n.a)); return;
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::FloorDiv: case Op::Mod: case Op::Pow: {
            const Cell x = kid(n.a);
            const Cell y = kid(n.b);
            add(binary(n.op), dst, x, y);
            return;
        }
        case Op::IfElse: {
            // A test that is a comparison of two jumps on it, not computing its bool.
            const Node& test = code_.nodes[n.b];
            std::size_t orelse;
            if (test.op == Op::Compare && test.n == 2 && !at_hand(number(n.b, frame, slot, depth + 1))) {
                const Cell x = kid(code_.lists[test.a]);
                const Cell y = kid(code_.lists[test.a + 1]);
                orelse = add(ROp::JumpUnlessCmp, 0, x, y, code_.cmp_ops[test.b]);
            } else {
                orelse = add(ROp::JumpIfFalse, 0, kid(n.b));
            }
            open_scope();
            emit_into_kid(n.a, frame, slot, dst, depth);
            close_scope();
            const std::size_t end = add(ROp::Jump);
            land(orelse);
            open_scope();
            emit_into_kid(n.c, frame, slot, dst, depth);
            close_scope();
            land(end);
            return;
        }
        case Op::And: case Op::Or: {
            // Python's: the first operand that decides, else the last.
            std::vector<std::size_t> ends;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                if (k > 0) {
                    ends.push_back(add(n.op == Op::And ? ROp::JumpIfFalse : ROp::JumpIfTrue, 0, dst));
                    open_scope();
                }
                emit_into_kid(list(k), frame, slot, dst, depth);
            }
            for (std::size_t k = 0; k < ends.size(); ++k) close_scope();
            for (std::size_t end : ends) land(end);
            return;
        }
        case Op::Compare: {
            // a < b < c: b read once; c only where a < b.
            std::vector<std::size_t> ends;
            Cell lhs = kid(list(0));
            for (std::uint32_t k = 1; k < n.n; ++k) {
                const Cell rhs = kid(list(k));
                add(ROp::Cmp, dst, lhs, rhs, code_.cmp_ops[n.b + k - 1]);
                if (k + 1 < n.n) {
                    ends.push_back(add(ROp::JumpIfFalse, 0, dst));
                    open_scope();
                }
                lhs = rhs;
            }
            for (std::size_t k = 0; k < ends.size(); ++k) close_scope();
            for (std::size_t end : ends) land(end);
            return;
        }
        case Op::Max: case Op::Min: {
            // Every argument first, left to right; then the first best of them.
            std::vector<Cell> args;
            for (std::uint32_t k = 0; k < n.n; ++k) args.push_back(kid(list(k)));
            const ROp op = n.op == Op::Max ? ROp::Max2 : ROp::Min2;
            add(op, dst, args[0], args[1]);
            for (std::size_t k = 2; k < args.size(); ++k) add(op, dst, dst, args[k]);
            return;
        }
        case Op::CallFn: {
            Frame inner;
            const NodeId body = code_.fns[n.c].body;
            for (std::uint32_t k = 0; k < n.n; ++k) {
                inner.ids.push_back(number(list(k), frame, slot, depth + 1));
                inner.cells.push_back(kid(list(k)));
                // Python reads every argument; where the body may not, the
                // run must still give up on one with no value.
                if (may_lack_value(list(k)) && !consumes(body, Op::Param, k)) add(ROp::Need, 0, inner.cells.back());
            }
            emit_into_kid(body, inner, slot, dst, depth);
            return;
        }
        case Op::ArgCountError:
            for (std::uint32_t k = 0; k < n.n; ++k) kid(list(k));
            add(ROp::GiveUp);
            return;
        }
    }

    // Whether evaluating `id` surely hands the value of `leaf` (the fn
    // parameter `param`, or the slot's `total`) to an instruction that gives
    // up on a name with no value (a test, a comparison, a store, a Need),
    // or to its own result (arithmetic passes a name with no value on).
    // Where it may not (a conditional's branch, and/or's right side, an
    // operand it does not read), the caller emits a Need.
    bool consumes(NodeId id, Op leaf, std::uint32_t param) const {
        const Node& n = code_.nodes[id];
        const auto list = [&](std::uint32_t k) { return code_.lists[n.a + k]; };
        const auto sub = [&](NodeId k) { return consumes(k, leaf, param); };
        switch (n.op) {
        case Op::Const: case Op::Load: return false;
        case Op::Param: return leaf == Op::Param && n.a == param;
        case Op::Total: return leaf == Op::Total;
        case Op::Neg: case Op::Pos: case Op::Not: return sub(n.a);
        case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::FloorDiv: case Op::Mod: case Op::Pow:
            return sub(n.a) || sub(n.b);
        case Op::And: case Op::Or: return n.n > 0 && sub(list(0));  // the first is always tested
        case Op::IfElse: return sub(n.b) || (sub(n.a) && sub(n.c));
        case Op::Compare: return (n.n > 0 && sub(list(0))) || (n.n > 1 && sub(list(1)));  // the first comparison
        case Op::Max: case Op::Min: case Op::CallFn:  // every argument read (a call's: by its body, or a Need)
            for (std::uint32_t k = 0; k < n.n; ++k)
                if (sub(list(k))) return true;
            return false;
        case Op::ArgCountError: return true;  // gives up in any case
        }
        return false;
    }

    // Whether `id` reads a name, a parameter or `total`: what may have no
    // value. A call may: its body reads names of its own.
    bool may_lack_value(NodeId id) const {
        const Node& n = code_.nodes[id];
        switch (n.op) {
        case Op::Const: return false;
        case Op::Load: case Op::Param: case Op::Total: case Op::CallFn: return true;
        case Op::Neg: case Op::Pos: case Op::Not: return may_lack_value(n.a);
        case Op::IfElse: return may_lack_value(n.a) || may_lack_value(n.b) || may_lack_value(n.c);
        case Op::And: case Op::Or: case Op::Compare: case Op::Max: case Op::Min: case Op::ArgCountError:
            for (std::uint32_t k = 0; k < n.n; ++k)
                if (may_lack_value(code_.lists[n.a + k])) return true;
            return false;
        default: return may_lack_value(n.a) || may_lack_value(n.b);  // the binary operators
        }
    }

    // `node` into `dst`, a value at hand moved there. Not remembered: dst
    // is shared (a conditional's branches, and/or's operands write it).
    void emit_into_kid(NodeId id, const Frame& frame, SlotId slot, Cell dst, int depth) {
        const Op op = code_.nodes[id].op;
        const ExprId e = number(id, frame, slot, depth + 1);
        const Info& info = info_[e];
        if (op == Op::Param || op == Op::Total || info.leaf || info.memo >= 0 || at_hand_.count(e) != 0) {
            add(ROp::Move, dst, emit(id, frame, slot, depth + 1));
            return;
        }
        emit_into(id, frame, slot, dst, depth + 1);
    }

    static ROp binary(Op op) {
        switch (op) {
        case Op::Add: return ROp::Add;
        case Op::Sub: return ROp::Sub;
        case Op::Mul: return ROp::Mul;
        case Op::Div: return ROp::Div;
        case Op::FloorDiv: return ROp::FloorDiv;
        case Op::Mod: return ROp::Mod;
        default: return ROp::Pow;
        }
    }

    // --- cells, instructions, scopes ------------------------------------

    Cell new_cell() {
        if (next_cell_ >= kMaxCells) throw TooBig{};
        return static_cast<Cell>(next_cell_++);
    }
    // Constants by type and bits (0 and 0.0, 0.0 and -0.0 differ).
    Cell const_cell(Value v) {
        const std::uint64_t bits = v.is_bool() ? std::uint64_t(v.b) : std::bit_cast<std::uint64_t>(v.i);
        auto [it, fresh] = consts_.try_emplace({static_cast<std::uint8_t>(v.type), bits}, 0);
        if (fresh) {
            // Every constant is met while counting, before any other cell is
            // given out: they sit together after the names.
            it->second = new_cell();
            if (it->second != out_.names + out_.consts.size()) throw TooBig{};
            out_.consts.push_back(v);
        }
        return it->second;
    }

    // Its index, for a jump to land.
    std::size_t add(ROp op, Cell dst = 0, std::uint32_t x = 0, std::uint32_t y = 0,
                    py::CmpOp cmp = py::CmpOp::Eq) {
        if (out_.instrs.size() >= kMaxInstrs) throw TooBig{};
        out_.instrs.push_back({op, cmp, dst, static_cast<std::uint16_t>(x), static_cast<std::uint16_t>(y)});
        return out_.instrs.size() - 1;
    }
    // A jump's target (its dst) is here.
    void land(std::size_t jump) {
        last_landing_ = out_.instrs.size();
        out_.instrs[jump].dst = static_cast<std::uint16_t>(last_landing_);
    }

    void remember(ExprId e, Cell cell) {
        at_hand_.emplace(e, cell);
        scope_added_.push_back(e);
    }
    void open_scope() { scope_marks_.push_back(scope_added_.size()); }
    void close_scope() {
        const std::size_t mark = scope_marks_.back();
        scope_marks_.pop_back();
        for (std::size_t k = mark; k < scope_added_.size(); ++k) at_hand_.erase(scope_added_[k]);
        scope_added_.resize(mark);
    }

    struct Info {
        bool leaf = false;
        Cell cell = 0;        // a leaf's
        std::uint32_t uses = 0;
        std::uint32_t cost = 0;
        bool guarded = false;      // some place of it runs only as a value decides (a branch, and/or)
        bool safe = false;         // fails only on an int's overflow
        bool reads_total = false;
        NodeId rep = kNoNode;      // a place of it outside any fn body, to emit it from
        SlotId rep_slot = 0;
        int memo = -1;        // its memo bit
        Cell memo_cell = 0;   // where a memoised number lives (0: not yet given one)
    };

    const Program& program_;
    const Code& code_;
    RegisterCode out_;
    std::uint32_t next_cell_ = 0;
    Cell zero_ = 0;
    Cell total_cell_ = 0;
    bool in_formula_ = false;
    std::size_t last_landing_ = 0;  // where a jump last landed
    int guarded_ = 0;               // counting: inside how many value-decided places
    std::vector<ExprId> hoisted_;   // computed at the run's start
    const Frame top_{};

    struct KeyHash {
        std::size_t operator()(const std::vector<std::uint32_t>& key) const {
            std::uint64_t h = 0xcbf29ce484222325u;  // FNV-1a over the words
            for (std::uint32_t w : key) h = (h ^ w) * 0x100000001b3u;
            return static_cast<std::size_t>(h);
        }
    };
    std::unordered_map<std::vector<std::uint32_t>, ExprId, KeyHash> ids_;
    std::vector<Info> info_;
    std::map<std::pair<std::uint8_t, std::uint64_t>, Cell> consts_;

    std::vector<ExprId> top_numbers_;  // by NodeId, kNoNumber where not yet numbered

    std::unordered_map<ExprId, Cell> at_hand_;  // numbers computed on every path to here
    std::vector<ExprId> scope_added_;
    std::vector<std::size_t> scope_marks_;
};

}  // namespace

std::optional<RegisterCode> compile_registers(const Program& program) {
    try {
        RegisterCompiler compiler(program);
        RegisterCode code = compiler.compile();
        thread_registers(code);
        return code;
    } catch (const TooBig&) {
        return std::nullopt;
    }
}

}  // namespace oprec
