#include "eval/layer_code.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "eval/register_compile.h"

namespace oprec {

namespace {

class LayerEmitter {
public:
    explicit LayerEmitter(LayerCode& out) : out_(out), code_(out.code) {}

    // A copy of an expression's straight-line code, its jumps moved along,
    // with each call of a fn that has straight-line code replaced by that
    // code between Enter and Leave (a run's top level only: no frame is live
    // there, and a call within an inlined body stays a Call).
    bool inline_expr(NodeId root) {
        const std::uint32_t from = code_.entry_of(root);
        if (from == kNoEntry) return false;
        std::uint32_t end = from;
        while (code_.instrs[end].op != LOp::Return) ++end;
        // Where each instruction lands (and the Return's place: a jump to the end).
        std::vector<std::uint32_t> at(end - from + 1);
        auto next = static_cast<std::uint32_t>(code_.instrs.size());
        for (std::uint32_t k = from; k <= end; ++k) {
            at[k - from] = next;
            next += k < end ? 1 + body_size(code_.instrs[k]) : 0;
        }
        for (std::uint32_t k = from; k < end; ++k) {
            Instr i = code_.instrs[k];
            if (is_jump(i.op)) i.a = at[i.a - from];
            const std::uint32_t body = body_of(i);
            if (body == kNoEntry) {
                code_.instrs.push_back(i);
                continue;
            }
            const std::size_t enter = code_.instrs.size();
            code_.instrs.push_back({LOp::Enter, i.cmp, i.n, 0, i.node, i.a});
            copy_body(body);
            code_.instrs.push_back({LOp::Leave, i.cmp, i.n, 0, i.node, 0});
            code_.instrs[enter].a = static_cast<std::uint32_t>(code_.instrs.size());
        }
        return true;
    }

    std::size_t add(LOp op, std::uint32_t a = 0, std::uint32_t b = 0) {
        code_.instrs.push_back({op, py::CmpOp::Eq, 0, a, kNoNode, b});
        return code_.instrs.size() - 1;
    }
    void land(std::size_t jump) { code_.instrs[jump].a = static_cast<std::uint32_t>(code_.instrs.size()); }
    void region(SlotId slot, LayerCode::Phase phase) {
        out_.regions.push_back({static_cast<std::uint32_t>(code_.instrs.size()), slot, phase});
    }

private:
    static bool is_jump(LOp op) {
        return op == LOp::Jump || op == LOp::JumpIfFalse || op == LOp::JumpIfTrue || op == LOp::CmpChain;
    }
    // A Call's fn body's first instruction, kNoEntry where it is not inlined.
    std::uint32_t body_of(const Instr& i) const {
        return i.op == LOp::Call ? code_.entry_of(code_.fns[i.a].body) : kNoEntry;
    }
    // How many instructions an inlined call adds beyond the Call's one: its
    // body's but its Return, Enter and Leave, the Call gone.
    std::uint32_t body_size(const Instr& i) const {
        const std::uint32_t body = body_of(i);
        if (body == kNoEntry) return 0;
        std::uint32_t end = body;
        while (code_.instrs[end].op != LOp::Return) ++end;
        return end - body + 1;
    }
    // A fn body's code as it is (its calls stay Calls), its jumps moved along.
    void copy_body(std::uint32_t from) {
        const auto to = static_cast<std::uint32_t>(code_.instrs.size());
        for (std::uint32_t k = from; code_.instrs[k].op != LOp::Return; ++k) {
            Instr i = code_.instrs[k];
            if (is_jump(i.op)) i.a = i.a - from + to;
            code_.instrs.push_back(i);
        }
    }

    LayerCode& out_;
    Code& code_;
};

}  // namespace

LayerCode compile_layer(const Program& program) {
    LayerCode out;
    out.code = program.code;
    out.slot_count = program.slots.size();
    for (const SlotInfo& slot : program.slots) out.slot_parts.push_back(slot.layer_part);
    const auto start = static_cast<std::uint32_t>(out.code.instrs.size());
    LayerEmitter emit(out);
    bool ok = true;
    // Every `when` first, in the records' order.
    for (SlotId s = 0; ok && s < program.slots.size(); ++s) {
        const SlotInfo& slot = program.slots[s];
        if (!slot.when) continue;  // held: its StoreSlot says so
        emit.region(s, LayerCode::Phase::When);
        const std::size_t first = out.code.instrs.size();
        ok = emit.inline_expr(*slot.when);
        Instr& last = out.code.instrs.back();
        if (ok && out.code.instrs.size() == first + 1 && last.op == LOp::CmpNC && s <= 0xffff) {
            last.op = LOp::HeldNC;  // `when n_exp == 1`: one instruction
            last.n = static_cast<std::uint16_t>(s);
        } else {
            emit.add(LOp::Held, s);
        }
    }
    // Then each held slot.
    for (SlotId s = 0; ok && s < program.slots.size(); ++s) {
        const SlotInfo& slot = program.slots[s];
        // Only a slot with a `when` may be skipped (a plain size_t: GCC warns
        // falsely of an optional here).
        const bool may_skip = slot.when.has_value();
        const std::size_t skip = may_skip ? emit.add(LOp::SkipUnlessHeld, 0, s) : 0;
        emit.region(s, LayerCode::Phase::Entries);
        // Python's sum: int 0, then each kept entry; the first entry's
        // instructions start it (KeptFirst, FirstTotal), saving a ZeroTotal.
        if (slot.entries.empty()) emit.add(LOp::ZeroTotal);
        // An entry's sum and the next entry's Kept run as one instruction
        // (FirstTotalKept, AddTotalKept), which lands where that Kept does;
        // the Kept stays after it for a dropped entry's jump to land on.
        std::optional<std::size_t> fused;  // the previous entry's sum-and-Kept
        for (std::size_t k = 0; k < slot.entries.size(); ++k) {
            const SlotEntryInfo& e = slot.entries[k];
            const std::size_t dropped = emit.add(k == 0 ? LOp::KeptFirst : LOp::Kept, 0, e.record);
            ok = ok && emit.inline_expr(e.expr);
            const bool last = k + 1 == slot.entries.size();
            const std::size_t sum =
                last ? emit.add(k == 0 ? LOp::FirstTotal : LOp::AddTotal)
                     : emit.add(k == 0 ? LOp::FirstTotalKept : LOp::AddTotalKept, 0, slot.entries[k + 1].record);
            emit.land(dropped);
            if (fused) emit.land(*fused);
            fused.reset();
            if (!last) fused = sum;
        }
        emit.region(s, LayerCode::Phase::Formula);
        ok = ok && emit.inline_expr(slot.formula);
        emit.add(LOp::StoreSlot, s);
        if (may_skip) emit.land(skip);
    }
    emit.add(LOp::Return);
    if (ok) {
        out.entry = start;
        out.registers = compile_registers(program);
    } else {
        out.code.instrs.resize(start);
        out.regions.clear();
    }
    return out;
}

std::string LayerCode::context_at(const Program& program, std::uint32_t instr) const {
    auto it = std::upper_bound(regions.begin(), regions.end(), instr,
                               [](std::uint32_t at, const Region& r) { return at < r.start; });
    if (it == regions.begin()) return "";
    --it;
    const char* part = it->phase == Phase::When ? " when" : it->phase == Phase::Formula ? " formula" : "";
    return fmt::format("slot `{}`{}", program.slots[it->slot].name, part);
}

}  // namespace oprec
