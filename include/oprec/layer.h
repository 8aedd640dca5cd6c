// One layer bound to its records: its fields, switches and context, read
// once and kept bound, so that changing a field and pricing again costs a
// few hundred nanoseconds. A Layer is a value: copy it to price variants
// side by side; one Layer is used by one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "oprec/errors.h"
#include "oprec/named.h"
#include "oprec/number.h"

namespace oprec {

namespace detail {
struct LayerState;
struct Access;
}

// How the layer is kept for backward (the reference's LayerType): kept
// plainly, selectively recomputed (the switches decide), fully recomputed.
enum class Recompute : std::uint8_t { None, Selective, Full };  // NOT_REC, SEL_REC, FULL_REC
// The reference's name for it: "NOT_REC_LAYER", "SEL_REC_LAYER", "FULL_REC_LAYER".
std::string_view recompute_name(Recompute r);

// A field's value: a number, a string (cp_algo), or None (stated, no value).
using Field = std::variant<std::monostate, Number, std::string>;

// A field's value from text as a command line states it: "8", "1.5e3",
// "true", "none", or any other text as a string. Throws LayerError.
Field parse_field(std::string_view text);
// "None", "True", "8", "'ring'": a field as Python would show it.
std::string field_repr(const Field& field);

struct SlotBytes {
    std::string slot;
    std::string part;  // the layer part it adds to
    bool held = false; // its `when` holds on this layer
    Number bytes;
};

// One entry of a slot (`attMM = ...`): the elements its formula gives on
// the layer, and the bytes the slot's formula makes of them alone. What an
// editor shows beside each entry (oprec lsp's live bytes).
struct EntryBytes {
    std::string op;     // the op or part the entry is for
    bool kept = false;  // the layer's switches keep it (it adds to the slot)
    Number elements;
    Number bytes;
};

// One entry of a slot with the elements it gives on the layer, or the
// error computing them raised, in its place (Layer::entry_elements: what
// explaining a slot shows, where EntryBytes' entries() raises instead).
struct EntryElements {
    std::string op;
    bool kept = false;                  // the layer's switches keep it
    std::optional<Number> elements;     // nullopt: see `error`
    std::optional<PricingError> error;
};

// One switch setting of a selective layer: bit i of `keep_bits` keeps
// switch i of Records::switches(); bytes by part.
struct Setting {
    std::uint32_t keep_bits = 0;
    Named<Number> parts;
    Number total;
};

struct ReportOptions {
    std::optional<std::string> only;  // also price every slot with this op (or part) alone
    int indent = -1;                  // JSON indentation; -1: one line
};

// The report as JSON text, and whether every value in it was priced.
struct Report {
    std::string json;
    bool complete = true;  // false: an {"error": ...} stands in some value's place
};

class Layer {
public:
    Layer(const Layer& other);
    Layer& operator=(const Layer& other);
    Layer(Layer&&) noexcept;
    Layer& operator=(Layer&&) noexcept;
    ~Layer();

    // ---- what the layer states -------------------------------------------------
    // A field (also the context's micro_factor and dropless_tok_factor).
    // Throws LayerError for a string where the schema types a number (the
    // one type the schema's check refuses; none and numbers are taken).
    void set(std::string_view field, Field value);
    void set(std::string_view field, Number value) { set(field, Field(value)); }
    void set(std::string_view field, std::int64_t value) { set(field, Number::integer(value)); }
    void set(std::string_view field, double value) { set(field, Number::real(value)); }
    void erase(std::string_view field);  // no longer stated
    // Why `name` is no field this layer can state (not in the records'
    // schema, read by no formula, not a context value, not stated), with a
    // suggestion; nullopt when it is one. What a binding checks before set().
    std::optional<std::string> unknown_field(std::string_view name) const;
    // The fields the layer states that the schema does not declare and no
    // formula reads, each with why and the nearest name: a misspelt field
    // is priced as if absent, so a document's reader warns of these.
    Named<std::string> unread_fields() const;
    // The switches the layer states (its own, the context's) that the
    // records do not have, each named by its place ("switches.sofmax",
    // "context.switches.sofmax") with why and the nearest switch: a misspelt
    // switch changes nothing, so a document's reader warns of these.
    Named<std::string> unread_switches() const;
    // The fields stated with a value the reference reads as another, each
    // with why and what it is priced as: a `cp_algo` that names no
    // algorithm is ring CP there and here, so a reader warns of these.
    Named<std::string> doubtful_fields() const;
    // The field as stated; nullopt when it is not.
    std::optional<Field> field(std::string_view name) const;
    Named<Field> fields() const;
    // The names this layer may state as fields: the schema's, every name a
    // formula reads (the context's and kv_shards aside), and those it
    // states; what unknown_field accepts.
    std::vector<std::string> field_names() const;

    // A recompute switch (true keeps the op), over the layer's own; nullopt
    // forgets it. Throws LayerError for a switch the records do not have.
    void set_switch(std::string_view name, std::optional<bool> keep);
    void set_recompute(Recompute r);
    Recompute recompute() const;
    // A switch in force (set_switch's, the document's: the context's over
    // the layer's own); nullopt where none states it (the op is kept).
    std::optional<bool> switch_state(std::string_view name) const;

    // ---- pricing (throws PricingError, as the reference raises) -------------------
    // The layer's bytes by part (attention, ffn, norm), in the order the held slots give.
    Named<Number> parts() const;
    // The parts summed, from 0.0 as the reference sums them. A Hugging Face
    // layer (hf_layer) fully recomputed keeps only its input: that, as
    // `oprec eval --hf --recompute full` gives it.
    Number total() const;
    // One slot (held or not), with the layer's switches, or with one op (or part) alone.
    Number slot(std::string_view slot) const;
    Number slot(std::string_view slot, std::string_view only) const;
    // Every slot: its part, whether held, its bytes.
    std::vector<SlotBytes> slots() const;
    // A slot's entries in source order (the sum's order). Throws PricingError.
    std::vector<EntryBytes> entries(std::string_view slot) const;
    // Whether the layer holds `slot` (its `when`).
    bool holds(std::string_view slot) const;
    // A slot's entries, each with its elements or the error in its place.
    std::vector<EntryElements> entry_elements(std::string_view slot) const;
    // What a formula reads as `name` on this layer: a context value,
    // kv_shards, the field, else the records' default, as the records bind
    // it; nullopt where `name` is none of these. Throws what reading it
    // raises (a field stated as none, a string used as a number).
    std::optional<Number> read(std::string_view name) const;
    // The slots the layer holds (their `when`s, and nothing priced), each
    // with its part, in the records' order: the reference's layer_slots.
    Named<std::string> held_slots() const;
    // An op's bytes in each held slot it keeps in.
    Named<Number> op(std::string_view op) const;
    // Every switch setting of the layer priced as a selective layer: 2^n of them.
    std::vector<Setting> settings() const;

    // Everything, as `oprec eval --format json` prints it: slots, parts, ops,
    // [only], params, kv_shards, gathered_kv_bytes, head_dim, activations.
    // A value that cannot be computed is {"error": {kind, message}} in its
    // place; an `only` the records lack throws PricingError (UnknownOp).
    Report report(const ReportOptions& options = {}) const;
    std::string report_json(const ReportOptions& options = {}) const { return report(options).json; }
    // The layer document (fields, switches, context) as JSON.
    std::string document_json(int indent = 2) const;

private:
    explicit Layer(std::unique_ptr<detail::LayerState> state);
    std::unique_ptr<detail::LayerState> state_;
    friend struct detail::Access;
};

}  // namespace oprec
