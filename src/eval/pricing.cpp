#include "eval/pricing.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "code/fast_arith.h"
#include "code/interp.h"
#include "eval/register_code.h"
#include "eval/register_run.h"

namespace oprec {

Bindings::Bindings(const Program& program)
    : program_(&program),
      unbound_(program.names.size()),
      values_(program.names.size(), no_value()),
      state_(program.names.size(), kUnset),
      kinds_(program.names.size(), ErrorKind::UnboundName),
      messages_(program.names.size()) {}

Value Bindings::no_value() {
    Value v;
    v.type = kNoValue;
    return v;
}

void Bindings::set_error(NameId name, ErrorKind kind, std::string message) {
    if (values_[name].type != kNoValue) ++unbound_, ++type_changes_;
    values_[name] = no_value();
    state_[name] = kError;
    kinds_[name] = kind;
    messages_[name] = std::move(message);
}

EvalError Bindings::missing(NameId name) const {
    if (state_[name] == kError) {
        if (kinds_[name] == ErrorKind::MissingField && messages_[name].empty())
            return EvalError(ErrorKind::MissingField, missing_field_message(program_->names[name]));
        return EvalError(kinds_[name], messages_[name]);
    }
    return EvalError(ErrorKind::UnboundName, fmt::format("`{}` has no value", program_->names[name]));
}

void Bindings::throw_missing(NameId name) const { throw missing(name); }

KeepMask only_mask(const Program& program, RecordId only) {
    KeepMask keep(program.records.size(), 0);
    for (RecordId r = 0; r < program.records.size(); ++r) keep[r] = program.counts_for(r, only) ? 1 : 0;
    return keep;
}

namespace {
template <class F>
Value in_context(const Program& program, SlotId slot, const char* part, F&& f) {
    try {
        return f();
    } catch (EvalError& e) {
        e.set_context(fmt::format("slot `{}`{}", program.slots[slot].name, part));
        throw;
    }
}
}  // namespace

namespace {
// An expression's root: its straight-line form where it has one, or (with
// `tree`, or without one) its tree walked.
Value run_root(Interpreter<const Bindings>& interp, NodeId root, bool tree, Value total = Value::integer(0)) {
    return tree ? interp.run_tree(root, total) : interp.run(root, total);
}

Value price_slot_as(const Program& program, SlotId slot, const Bindings& names, const KeepMask& keep, bool tree) {
    const SlotInfo& s = program.slots[slot];
    Interpreter<const Bindings> interp(program.code, names);
    // Python's sum(): an int 0 to start, then each kept entry in order.
    Value total = Value::integer(0);
    for (const SlotEntryInfo& e : s.entries) {
        if (!keep[e.record]) continue;  // a dropped entry is never evaluated
        Value v = in_context(program, slot, "", [&] { return run_root(interp, e.expr, tree); });
        total = in_context(program, slot, "", [&] { return py::add(total, v); });
    }
    return in_context(program, slot, " formula", [&] { return run_root(interp, s.formula, tree, total); });
}

bool slot_holds_as(const Program& program, SlotId slot, const Bindings& names, bool tree) {
    const SlotInfo& s = program.slots[slot];
    if (!s.when) return true;
    Interpreter<const Bindings> interp(program.code, names);
    return in_context(program, slot, " when", [&] { return run_root(interp, *s.when, tree); }).truthy();
}
}  // namespace

Value price_slot(const Program& program, SlotId slot, const Bindings& names, const KeepMask& keep) {
    return price_slot_as(program, slot, names, keep, false);
}

bool slot_holds(const Program& program, SlotId slot, const Bindings& names) {
    return slot_holds_as(program, slot, names, false);
}

Value entry_elements(const Program& program, SlotId slot, std::size_t entry, const Bindings& names) {
    Interpreter<const Bindings> interp(program.code, names);
    return in_context(program, slot, "", [&] { return interp.run(program.slots[slot].entries[entry].expr); });
}

void price_layer(const Program& program, const Bindings& names, const KeepMask& keep, PartBytes& out, bool tree) {
    out.clear();
    out.held_flags.assign(program.slots.size(), 0);
    out.slot_values.assign(program.slots.size(), Value::integer(0));
    for (SlotId s = 0; s < program.slots.size(); ++s)
        if (slot_holds_as(program, s, names, tree)) out.held.push_back(s);
    PartSums sums;
    for (SlotId s : out.held) {
        out.held_flags[s] = 1;
        out.slot_values[s] = price_slot_as(program, s, names, keep, tree);
        sums.add(program.slots[s].layer_part, out.slot_values[s]);
    }
    for (const auto& [part, bytes] : sums.parts()) {
        out.parts.push_back(part);
        out.bytes.push_back(bytes);
    }
}

namespace {
// The held slots and their parts, in order of first held slot, for the
// held flags the run wrote.
void lay_out_parts(const LayerCode& layer, PartBytes& out) {
    const std::size_t n = layer.slot_count;
    out.layout_flags.assign(out.held_flags.begin(), out.held_flags.begin() + static_cast<std::ptrdiff_t>(n));
    out.layout_slot_parts = layer.slot_parts;
    out.layout_held.clear();
    out.layout_parts.clear();
    out.layout_slot_part.assign(n, 0);
    for (SlotId s = 0; s < n; ++s) {
        if (!out.layout_flags[s]) continue;
        out.layout_held.push_back(s);
        const std::uint32_t part = layer.slot_parts[s];
        const auto at = std::find(out.layout_parts.begin(), out.layout_parts.end(), part);
        out.layout_slot_part[s] = static_cast<std::uint32_t>(at - out.layout_parts.begin());
        if (at == out.layout_parts.end()) out.layout_parts.push_back(part);
    }
}
}  // namespace

void price_layer(const LayerCode& layer, const Program& program, const Bindings& names, const KeepMask& keep,
                 PartBytes& out, const RegisterCode* typed, RunTier tier) {
    const RegisterCode* const registers = tier == RunTier::Tree                   ? nullptr
                                          : typed != nullptr && tier == RunTier::Auto ? typed
                                          : layer.registers                             ? &*layer.registers
                                                                                        : nullptr;
    const std::size_t n = layer.slot_count;
    out.held_flags.resize(n);
    out.slot_values.resize(n);
    // The register run where it can (no error met, no name with no value
    // used), else each expression's own code, which raises as Python does.
    const bool done = registers != nullptr && run_registers(*registers, names.values(), keep.data(),
                                                            out.held_flags.data(), out.slot_values.data(), out.cells);
    if (!done) return price_layer(program, names, keep, out, /*tree=*/tier == RunTier::Tree);
    // The parts in order of first held slot, each from 0.0: a float sum, so
    // each step is the double of the slot's value added (nothing can raise).
    // (memcmp of no slots: their vectors' data() may be null, which memcmp may not take.)
    const bool same_layout = out.layout_flags.size() == n &&
                             (n == 0 || std::memcmp(out.held_flags.data(), out.layout_flags.data(), n) == 0) &&
                             out.layout_slot_parts == layer.slot_parts;
    if (!same_layout) lay_out_parts(layer, out);
    out.bytes.assign(out.layout_parts.size(), Value::real(0.0));
    Value* const bytes = out.bytes.data();
    const Value* const values = out.slot_values.data();
    const std::uint32_t* const slot_part = out.layout_slot_part.data();
    for (const SlotId s : out.layout_held) bytes[slot_part[s]].f += values[s].as_double();
    out.held.assign(out.layout_held.begin(), out.layout_held.end());
    out.parts.assign(out.layout_parts.begin(), out.layout_parts.end());
}

}  // namespace oprec
