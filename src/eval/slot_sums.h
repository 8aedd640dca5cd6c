// A slot priced under many keep masks: each entry's elements evaluated once,
// then, per mask, the kept ones summed in order as Python's sum() and the
// formula evaluated on that total. The same operations in the same order as
// price_slot, so the same bits (and the same errors), without evaluating an
// entry twice: what pricing all 2^n switch settings of a layer needs.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "eval/pricing.h"

namespace oprec {

class SlotSums {
public:
    // Evaluates every entry of `slot` on `names`; an entry that raises keeps
    // its error, raised only by a pricing that keeps the entry.
    SlotSums(const Program& program, SlotId slot, const Bindings& names);

    SlotId slot() const { return slot_; }
    // price_slot(program, slot, names, keep), to the bit. `names` must be the
    // bindings the elements were evaluated on.
    Value price(const KeepMask& keep, const Bindings& names) const;
    // The same, the error it would raise given back instead: a report of a
    // layer that cannot be priced meets it in every slot and op, and a
    // throw costs more than the pricing.
    std::variant<Value, EvalError> try_price(const KeepMask& keep, const Bindings& names) const;
    // price() with the kept entries given by position: bit j keeps entry j.
    Value price_entries(std::uint64_t kept, const Bindings& names) const;

private:
    template <class Kept>
    std::variant<Value, EvalError> price_if(Kept kept, const Bindings& names) const;

    const Program* program_;
    SlotId slot_;
    std::vector<std::variant<Value, EvalError>> elements_;  // by entry, in the slot's order
};

}  // namespace oprec
