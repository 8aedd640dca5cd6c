// A layer document's fields against the records' field schema (the `field`
// declarations, stdlib/fields.rec): a string where the schema wants a number
// is the document's mistake, reported at the field before any formula reads
// it, rather than as a type error in every slot that does.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/program.h"
#include "model/layer.h"

namespace oprec {

// Throws LayerDocError: "SOURCE: fields.h: expected int or float, got a
// string ('4096')". Numbers, bools and none are left to the formulas
// (Python's arithmetic takes any number; none is a stated absence); fields
// the schema does not declare, and records with no schema, pass.
void check_field_types(const LayerConfig& fields, const Program& program, std::string_view source_name);

// The names a layer may state as fields: the schema's (the context's
// aside), every name a formula reads (less the context's values, the
// computed kv_shards and a slot's total), and those `fields` already
// states; sorted, each once. The one rule behind the REPL's `set`, the
// commands' --set and the API's Layer::unknown_field.
std::vector<std::string> settable_fields(const Program& program, const LayerConfig& fields);

// Why `name` is no field a layer can state, with a suggestion ("no field
// `tt` in the records' schema (did you mean `t`?)"); nullopt when it is one
// or a context value (which a layer states in its context).
std::optional<std::string> unknown_field(const Program& program, const LayerConfig& fields, std::string_view name);

// The fields `fields` states that the schema does not declare and no
// formula reads, each with why (and the nearest name): a misspelt field,
// which would otherwise be priced as if absent. None for records with no
// schema.
std::vector<std::pair<std::string, std::string>> unread_fields(const Program& program, const LayerConfig& fields);

}  // namespace oprec
