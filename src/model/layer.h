// The layer model: a layer config (the reference's `ccfg`), the evaluation
// context (`ctx`), and the JSON document that states both.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "value/value.h"

namespace oprec {

// One stated field of a layer config. A field can be stated as None
// (std::monostate; Python's `None`, which the reference's `getattr(ccfg, x,
// None)` probes read as "unstated"), as a number (Value), or as a string
// (only `cp_algo` in practice). A field that is not stated at all is simply
// not in the config.
using FieldValue = std::variant<std::monostate, Value, std::string>;

// The recompute switches, switch name -> 0/1 (1 keeps the op's activation).
// std::less<> so that lookups by string_view need no allocation.
using SwitchMap = std::map<std::string, Value, std::less<>>;

// A layer config: named fields in the order they were stated.
//
// The accessors follow Python's reading of `ccfg`: `ccfg.x` of an absent
// field raises (MissingField); arithmetic on None or a string raises
// (TypeError), which number() reports at the read.

class LayerConfig {
public:
    // States `name` (replacing its value in place when already stated).
    void set(std::string name, FieldValue value);
    // States `name` when it is not stated yet; false (and nothing changed) when it is.
    bool add(std::string name, FieldValue value);
    // Forgets `name`; returns whether it was stated.
    bool erase(std::string_view name);
    // Room for `count` fields without growing (a layer document states
    // about forty: growing one by one moved them seven times).
    void reserve(std::size_t count);

    // The field, or nullptr when absent.
    const FieldValue* find(std::string_view name) const;
    bool contains(std::string_view name) const { return find(name) != nullptr; }
    // `ccfg.name`: the field; MissingField when absent.
    const FieldValue& get(std::string_view name) const;
    // `ccfg.name` used as a number: MissingField when absent, TypeError when
    // None or a string.
    Value number(std::string_view name) const;
    // `getattr(ccfg, name, default)` used as a number: the default when
    // absent, TypeError when None or a string (Python would fail on the
    // arithmetic).
    Value number_or(std::string_view name, Value fallback) const;
    // `getattr(ccfg, name, None)` where None means "unstated": nullopt when
    // absent or None; TypeError when a string.
    std::optional<Value> stated(std::string_view name) const;
    // `bool(ccfg.name)`: Python's truth of the field (None false, a string
    // when non-empty); MissingField when absent.
    bool truth(std::string_view name) const;
    // `bool(getattr(ccfg, name, None))`: as truth(), absent being false.
    bool stated_truth(std::string_view name) const;

    // Every field, in the order first stated.
    const std::vector<std::pair<std::string, FieldValue>>& fields() const { return fields_; }
    std::size_t size() const { return fields_.size(); }
    bool empty() const { return fields_.empty(); }

private:
    // A name's first seven bytes and its length in one word: a field whose
    // name is that short (most: h, s, t, hff, n_exp) is found by comparing
    // words alone, a longer one then by its bytes.
    static std::uint64_t key_of(std::string_view name);
    std::size_t index_of(std::string_view name) const;  // size() when absent
    void index_all(std::size_t room = 0);               // table_ anew, for fields_ as they are and `room` of them
    void index_last();                                  // fields_.back() into table_

    // Fields in the order first stated (for printing), found through a
    // small open-addressed table of their keys: the native evaluators look
    // up some fifty fields a layer, and a scan of a few dozen keys each
    // time was a tenth of `eval --jsonl`.
    std::vector<std::pair<std::string, FieldValue>> fields_;
    std::vector<std::uint64_t> keys_;   // key_of each field's name, parallel to fields_
    std::vector<std::uint32_t> table_;  // by hash of key: index into fields_ + 1, 0 empty; size a power of two
};

// Python's truth of a field value (None false, a string when non-empty).
bool truth(const FieldValue& value);

// The LayerType a layer is priced as (the reference's `ctx.current_node`).
enum class NodeKind : std::uint8_t { NotRec, SelRec, FullRec };

// "NOT_REC_LAYER", "SEL_REC_LAYER", "FULL_REC_LAYER"; nullopt for anything else.
std::optional<NodeKind> parse_node_kind(std::string_view text);
std::string_view node_kind_name(NodeKind kind);

// The context's values, which the records read by name as they read a
// field: the one list of them (the document's order).
inline constexpr std::array<std::string_view, 2> kContextValues{"micro_factor", "dropless_tok_factor"};
bool is_context_value(std::string_view name);

// The evaluation context. An absent value (nullopt) raises MissingField
// when read, as the reference's `getattr(ctx, name)` raises AttributeError.
struct EvalContext {
    std::optional<Value> micro_factor = Value::integer(1);
    std::optional<Value> dropless_tok_factor = Value::integer(1);
    NodeKind node = NodeKind::NotRec;
    // Switches the context states; when present they take precedence over
    // the layer's own (the reference's `ctx.switches` when a mapping).
    std::optional<SwitchMap> switches;

    // `getattr(ctx, name)` for a name of kContextValues; MissingField when
    // absent or another name.
    Value value(std::string_view name) const;
    // Where a name of kContextValues is held; nullptr for another name.
    std::optional<Value>* slot(std::string_view name);
    const std::optional<Value>* slot(std::string_view name) const;
};

// The switches that apply to a layer: the context's when it states them,
// else the layer's own (EvalUtils.switches). A switch neither names keeps its op.
const SwitchMap& effective_switches(const EvalContext& context, const SwitchMap& layer_own);

// A layer document: the fields, the layer's own switches (`rec_op`; empty
// when it states none, which keeps every op) and the evaluation context.
struct LayerDoc {
    LayerConfig fields;
    SwitchMap switches;
    EvalContext context;
};

// What a fully recomputed layer keeps, its input: micro_factor *
// bytes_compute * s * b * h / shard (t where the family shards activations,
// else 1; docs/domain.md §3.4). The records are not consulted.
Value full_recompute_input(const LayerDoc& layer, const Value& shard);

// A document that cannot be read; the message names the source and place.
class LayerDocError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads the document
//   {"fields": {...}, "switches": {...},
//    "context": {"micro_factor": 1, "dropless_tok_factor": 1,
//                "node": "NOT_REC_LAYER", "switches": {...}}}
// Every key is optional. Fields: a JSON integer is an int, a number with a
// fraction or exponent a float, true/false a bool, null a field stated as
// None, a string a string field. Switch values: 0/1 or false/true, stored as
// int 0/1. Context: micro_factor and dropless_tok_factor default to 1, and
// null states that the context has no such value (reading it then raises,
// as in the reference); node defaults to NOT_REC_LAYER; switches to none.
// Unknown keys are errors (and, in text, duplicate keys). Throws LayerDocError.
// The ordered_json overload keeps the fields' order; nlohmann::json sorts
// object keys, so the fields then come in name order.
LayerDoc parse_layer_doc(const nlohmann::json& doc, std::string_view source_name);
LayerDoc parse_layer_doc(const nlohmann::ordered_json& doc, std::string_view source_name);
// Parses text (keeping the fields' order), then as above. Bad JSON is
// reported as `NAME:LINE:COL: invalid JSON: ...`.
// A plain document is read without a JSON tree (model/layer_doc_fast.h);
// parse_layer_doc_text_tree always builds one, and is what reports errors.
LayerDoc parse_layer_doc_text(std::string_view text, std::string_view source_name);
LayerDoc parse_layer_doc_text_tree(std::string_view text, std::string_view source_name);

}  // namespace oprec
