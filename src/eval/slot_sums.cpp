#include "eval/slot_sums.h"

#include <fmt/format.h>

#include "code/interp.h"

namespace oprec {

namespace {
// As price_slot: an error raised while pricing names the slot.
EvalError in_slot(const Program& program, SlotId slot, const char* part, EvalError e) {
    e.set_context(fmt::format("slot `{}`{}", program.slots[slot].name, part));
    return e;
}

Value value_or_throw(std::variant<Value, EvalError>&& priced) {
    if (auto* e = std::get_if<EvalError>(&priced)) throw std::move(*e);
    return std::get<Value>(priced);
}
}  // namespace

SlotSums::SlotSums(const Program& program, SlotId slot, const Bindings& names) : program_(&program), slot_(slot) {
    const SlotInfo& s = program.slots[slot];
    Interpreter<const Bindings> interp(program.code, names);
    elements_.reserve(s.entries.size());
    for (const SlotEntryInfo& e : s.entries) {
        elements_.push_back(interp.try_run(e.expr));
        if (auto* err = std::get_if<EvalError>(&elements_.back())) err->set_context(fmt::format("slot `{}`", s.name));
    }
}

Value SlotSums::price(const KeepMask& keep, const Bindings& names) const { return value_or_throw(try_price(keep, names)); }

std::variant<Value, EvalError> SlotSums::try_price(const KeepMask& keep, const Bindings& names) const {
    const SlotInfo& s = program_->slots[slot_];
    return price_if([&](std::size_t i) { return keep[s.entries[i].record] != 0; }, names);
}

Value SlotSums::price_entries(std::uint64_t kept, const Bindings& names) const {
    return value_or_throw(price_if([&](std::size_t i) { return i >= 64 || ((kept >> i) & 1u) != 0; }, names));
}

template <class Kept>
std::variant<Value, EvalError> SlotSums::price_if(Kept kept, const Bindings& names) const {
    const SlotInfo& s = program_->slots[slot_];
    // Python's sum(): an int 0 to start, then each kept entry in order.
    Value total = Value::integer(0);
    for (std::size_t i = 0; i < s.entries.size(); ++i) {
        if (!kept(i)) continue;
        if (const auto* err = std::get_if<EvalError>(&elements_[i])) return *err;
        try {
            total = py::add(total, std::get<Value>(elements_[i]));
        } catch (EvalError& e) {
            return in_slot(*program_, slot_, "", std::move(e));
        }
    }
    Interpreter<const Bindings> interp(program_->code, names);
    auto priced = interp.try_run(s.formula, total);
    if (auto* e = std::get_if<EvalError>(&priced)) return in_slot(*program_, slot_, " formula", std::move(*e));
    return priced;
}

}  // namespace oprec
