#include "eval/layer_code.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

namespace oprec {

namespace {

class LayerEmitter {
public:
    explicit LayerEmitter(LayerCode& out) : out_(out), code_(out.code) {}

    // A copy of an expression's straight-line code, its jumps moved along.
    bool inline_expr(NodeId root) {
        const std::uint32_t from = code_.entry_of(root);
        if (from == kNoEntry) return false;
        const auto to = static_cast<std::uint32_t>(code_.instrs.size());
        for (std::uint32_t k = from; code_.instrs[k].op != LOp::Return; ++k) {
            Instr i = code_.instrs[k];
            if (i.op == LOp::Jump || i.op == LOp::JumpIfFalse || i.op == LOp::JumpIfTrue || i.op == LOp::CmpChain)
                i.a = i.a - from + to;
            code_.instrs.push_back(i);
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
    LayerCode& out_;
    Code& code_;
};

}  // namespace

LayerCode compile_layer(const Program& program) {
    LayerCode out;
    out.code = program.code;
    out.slot_count = program.slots.size();
    const auto start = static_cast<std::uint32_t>(out.code.instrs.size());
    LayerEmitter emit(out);
    bool ok = true;
    // Every `when` first, in the records' order.
    for (SlotId s = 0; ok && s < program.slots.size(); ++s) {
        const SlotInfo& slot = program.slots[s];
        if (!slot.when) continue;  // held: its StoreSlot says so
        emit.region(s, LayerCode::Phase::When);
        ok = emit.inline_expr(*slot.when);
        emit.add(LOp::Held, s);
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
        for (std::size_t k = 0; k < slot.entries.size(); ++k) {
            const SlotEntryInfo& e = slot.entries[k];
            const std::size_t dropped = emit.add(k == 0 ? LOp::KeptFirst : LOp::Kept, 0, e.record);
            ok = ok && emit.inline_expr(e.expr);
            emit.add(k == 0 ? LOp::FirstTotal : LOp::AddTotal);
            emit.land(dropped);
        }
        emit.region(s, LayerCode::Phase::Formula);
        ok = ok && emit.inline_expr(slot.formula);
        emit.add(LOp::StoreSlot, s);
        if (may_skip) emit.land(skip);
    }
    emit.add(LOp::Return);
    if (ok) {
        out.entry = start;
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
