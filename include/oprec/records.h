// Records loaded once: a `.rec` file with its imports (or the reference's
// YAML), checked, with the code that prices them compiled. A Records is a
// cheap handle to shared, immutable state: copy it freely, use it from any
// thread; every Layer made from it keeps it alive.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/layer.h"

namespace oprec {

namespace detail {
struct RecordsState;
}

struct RecordsOptions {
    // Holds records/ and stdlib/; empty: the installed data, else the source
    // tree the library was built from.
    std::filesystem::path data_dir;
    // Import folders searched after the standard library.
    std::vector<std::filesystem::path> search_path;
    // Op profiles to load with the records (what the Hugging Face front end
    // needs): a path, or a name found like an import ("profiles.rec").
    std::optional<std::filesystem::path> profiles;
    // Files as an editor holds them, unsaved: an import of one of these
    // paths reads this text instead of the file (oprec lsp's open documents).
    std::map<std::filesystem::path, std::string> unsaved = {};
};

// A slot as the records declare it (what `oprec repl`'s explain shows).
struct SlotDecl {
    std::string name;
    std::string part;                  // the layer part it adds to
    std::optional<std::string> when;   // its condition as written ("n_exp == 1"); nullopt: every layer holds it
    std::vector<std::string> entries;  // the ops and parts it sums, in source order
    Position where;                    // its header
    // The slot as written: the comment lines just above it, then its
    // header to the brace that closes it; `first_line` is the first's number.
    std::uint32_t first_line = 0;
    std::vector<std::string> lines;
};

// An op (or a part) as the records declare it.
struct OpDecl {
    std::string name;
    std::optional<std::string> switch_name;  // the switch that, off, recomputes it; nullopt: none drops it
    std::optional<std::string> part_of;      // a part's op ("attMM" for attUp)
};

// A field of the records' schema (stdlib/fields.rec).
struct FieldDecl {
    std::string name;
    std::vector<std::string> types;  // "int", "float", "bool", "str"
    bool optional = false;           // may be stated as none
    bool context = false;            // the context's (micro_factor, ...), not the layer's
};

// The context's values a formula may read (micro_factor,
// dropless_tok_factor), as a layer document's "context" states them; a
// Layer sets them like fields. The one list of them.
const std::vector<std::string>& context_names();

class Records {
public:
    // The shipped records (records/op_records.rec).
    static Records shipped(const RecordsOptions& options = {});
    // A file, or the name of a shipped record set ("op_records", "calibrated"):
    // throws RecordsError with every diagnostic.
    static Records load(const std::filesystem::path& path_or_name, const RecordsOptions& options = {});
    // Records from text; `name` stands for the file in diagnostics.
    static Records from_text(std::string text, std::string name = "<text>", const RecordsOptions& options = {});

    // The file the records were loaded from ("<text>"-like name for text).
    const std::string& source() const;
    // The vocabulary, in declaration order.
    const std::vector<std::string>& slots() const;
    const std::vector<std::string>& ops() const;       // ops, then parts
    const std::vector<std::string>& switches() const;
    const std::vector<std::string>& parts() const;     // the layer's parts (attention, ffn, norm)
    bool has_profiles() const;
    // Every name the formulas and `when`s read, in the records' order: the
    // layer's fields, the context's values (micro_factor, ...) and what the
    // evaluator computes (kv_shards). What a caller holding a layer's
    // fields elsewhere (an object, a row) must supply, and no more.
    const std::vector<std::string>& names() const;
    // The records' defaults: what a name reads when the layer does not state it.
    Named<Number> defaults() const;
    // A slot or an op as declared; throws PricingError (unknown-slot,
    // unknown-op) for a name the records do not have.
    SlotDecl slot_decl(std::string_view slot) const;
    OpDecl op_decl(std::string_view op) const;
    // The schema's fields, the context's too, in declaration order.
    const std::vector<FieldDecl>& schema() const;
    // The files the load read, imports first: what a caller reloading the
    // records when they change watches.
    const std::vector<std::filesystem::path>& files() const;

    // A layer from its JSON document ({"fields", "switches", "context"}):
    // throws LayerError naming the place.
    Layer layer(std::string_view json_text, std::string_view source_name = "<layer>") const;
    Layer layer_file(const std::filesystem::path& path) const;
    // The same layer (its fields, switches and context as they stand) bound
    // to these records: a layer carried over a reload. Throws LayerError
    // where these records' schema refuses a field's type.
    Layer layer(const Layer& other) const;

    // The records as the reference's YAML (defaults, ops, parts, slots), as
    // `oprec export` writes it: what a reader of the reference's format (the
    // Python drop-in's op records module) takes them in.
    std::string to_yaml() const;

    // Where the shipped records and the standard library are found.
    static std::filesystem::path default_data_dir();

private:
    explicit Records(std::shared_ptr<const detail::RecordsState> state) : state_(std::move(state)) {}
    std::shared_ptr<const detail::RecordsState> state_;
    friend struct detail::Access;
};

}  // namespace oprec
