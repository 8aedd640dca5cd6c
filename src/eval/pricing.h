// Pricing the records' slots on bound names: the reference's
// `records.evaluate` — sum the kept entries in order, bind `total`,
// evaluate the formula.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "check/program.h"
#include "eval/layer_code.h"
#include "value/part_sums.h"

namespace oprec {

// A layer's names for one evaluation, by NameId: each a value, or the
// error that reading it raises (absent field, a field stated as none, ...).
// Reading is an array index, so binding once and pricing many times is cheap.
class Bindings {
public:
    explicit Bindings(const Program& program);

    void set(NameId name, Value v) {
        if (values_[name].type == kNoValue) --unbound_;
        if (state_[name] == kError) std::string().swap(messages_[name]);  // a copy of the bindings copies no message
        if (values_[name].type != v.type) ++type_changes_;
        values_[name] = v;
        state_[name] = kSet;
    }
    void set_error(NameId name, ErrorKind kind, std::string message);
    // A field the layer does not state: MissingField, its message made only
    // if it is read (a layer leaves dozens of the records' names unstated).
    void set_missing_field(NameId name) { set_error(name, ErrorKind::MissingField, {}); }

    // One read of one array: a name with no value holds kNoValue's type.
    Value load(NameId name, NodeId) const {
        const Value v = values_[name];
        if (v.type != kNoValue) [[likely]] return v;
        throw_missing(name);
    }
    // The error reading a name with no value raises (load's, as a value).
    EvalError missing(NameId name) const;
    bool has(NameId name) const { return state_[name] == kSet; }
    // Every name has a value (none raises when read).
    bool all_bound() const { return unbound_ == 0; }
    // How often a name's type has changed (int to float, bound to unbound,
    // ...): a run typed for the names' types (specialise) holds while this
    // stays the same.
    std::uint64_t type_changes() const { return type_changes_; }

    // For the interpreter to read names inline: every name's value, by
    // NameId, kMissing's type where reading it raises (then call load).
    const Value* values() const { return values_.data(); }
    static constexpr auto kMissing = static_cast<ValueType>(0xff);

private:
    [[noreturn]] void throw_missing(NameId name) const;
    static Value no_value();

    static constexpr std::uint8_t kUnset = 0, kSet = 1, kError = 2;
    static constexpr auto kNoValue = kMissing;  // never a Value's type outside

    const Program* program_;
    std::size_t unbound_;  // names holding kNoValue
    std::uint64_t type_changes_ = 0;
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

// A layer's bytes by part, as the reference's layer_bytes gives them, with
// parts by index instead of by name: what a loop pricing a layer many times
// fills again and again (clear() keeps the capacity, so no allocation).
struct PartBytes {
    std::vector<std::uint32_t> parts;  // Program::layer_parts indices, in order of first held slot
    std::vector<Value> bytes;          // parallel to parts
    std::vector<SlotId> held;          // the slots the layer holds, in the records' order
    // By SlotId, for a register run to write into (kept, so not reallocated).
    std::vector<std::uint8_t> held_flags;
    std::vector<Value> slot_values;
    std::vector<Value> cells;  // a register run's (register_code.h)
    // LayerCode's pricing: the held slots and their parts for the held flags
    // `layout_flags` and the slots' parts `layout_slot_parts` (the last
    // pricing's), and where each slot adds (an index into parts, by
    // SlotId). A pricing that holds the same slots of the same layer (the
    // usual next one) sums into the same parts without finding them again.
    std::vector<std::uint8_t> layout_flags;
    std::vector<std::uint32_t> layout_slot_parts;
    std::vector<SlotId> layout_held;
    std::vector<std::uint32_t> layout_parts;
    std::vector<std::uint32_t> layout_slot_part;
    void clear() {
        parts.clear();
        bytes.clear();
        held.clear();
    }
};

// Which run prices a layer, to compare them (the same bits and errors from
// each): Auto, the fastest that can (the register run typed and pinned for
// the layer where one was made, else the untyped register run); Tree, every
// `when`, entry and formula walked as a tree, slot by slot; Registers, the
// untyped register run. Where a register run gives up (an error, or a name
// with no value used), each expression's own code prices the layer and
// raises as Python does.
enum class RunTier : std::uint8_t { Auto, Tree, Registers };

// layer_bytes on bound names: every slot's `when` first, in the records'
// order, then each held slot priced and added to its part (from 0.0); the
// held flags and slot values written too, as a register run writes them. With
// `tree`, each expression walked as a tree (Interpreter::run_tree), not
// its straight-line form.
void price_layer(const Program& program, const Bindings& names, const KeepMask& keep, PartBytes& out,
                 bool tree = false);
// The same in one register run of the program's LayerCode (compile_layer):
// the same bits and errors, several times faster. `typed`: the layer's
// register run specialised to these names' types (specialise), run in
// place of the untyped one; the caller vouches for the types.
// `tier`: which run prices it (RunTier; `typed` is Auto's alone).
void price_layer(const LayerCode& layer, const Program& program, const Bindings& names, const KeepMask& keep,
                 PartBytes& out, const RegisterCode* typed = nullptr, RunTier tier = RunTier::Auto);

}  // namespace oprec
