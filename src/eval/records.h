// Pricing the records' slots on bound names: the reference's
// `records.evaluate` — sum the kept entries in order, bind `total`,
// evaluate the formula.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "check/program.h"

namespace oprec {

// A layer's names for one evaluation, by NameId: each a value, or the
// error that reading it raises (absent field, a field stated as none, ...).
// Reading is an array index, so binding once and pricing many times is cheap.
class Bindings {
public:
    explicit Bindings(const Program& program);

    void set(NameId name, Value v) {
        values_[name] = v;
        state_[name] = kSet;
    }
    void set_error(NameId name, ErrorKind kind, std::string message);

    Value load(NameId name, NodeId) const {
        if (state_[name] == kSet) return values_[name];
        throw_missing(name);
    }
    bool has(NameId name) const { return state_[name] == kSet; }

private:
    [[noreturn]] void throw_missing(NameId name) const;

    static constexpr std::uint8_t kUnset = 0, kSet = 1, kError = 2;
    const Program* program_;
    std::vector<Value> values_;
    std::vector<std::uint8_t> state_;
    std::vector<ErrorKind> kinds_;
    std::vector<std::string> messages_;
};

// Keep factors by RecordId: 1 keeps an entry's elements, 0 leaves them out.
using KeepMask = std::vector<std::uint8_t>;

// Every entry whose record counts for `only` (the op with its parts, or the part).
KeepMask only_mask(const Program& program, RecordId only);

Value price_slot(const Program& program, SlotId slot, const Bindings& names, const KeepMask& keep);
// The slot's `when`, true where it has none.
bool slot_holds(const Program& program, SlotId slot, const Bindings& names);
// The elements of one entry alone (for `explain`).
Value entry_elements(const Program& program, SlotId slot, std::size_t entry, const Bindings& names);

}  // namespace oprec
