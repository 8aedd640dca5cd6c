// The REPL's edits of its layer: fields, switches, the layer's kind and the
// context, each checked against the records' names (with did-you-mean),
// through the public Layer. Throws CommandError for an edit that cannot
// apply.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::repl {

// NAME=VALUE pairs, spaces around `=` allowed: "t=8 cp = 2".
std::vector<std::pair<std::string, std::string>> parse_assignments(std::string_view text);

// A context value's name (micro_factor, dropless_tok_factor).
bool is_context_name(std::string_view name);

void set_field(Layer& layer, const Records& records, std::string_view name, std::string_view text);
void unset_field(Layer& layer, std::string_view name);
// `state` is on/off/1/0/true/false; `name` may be `all`.
void set_switch(Layer& layer, const Records& records, std::string_view name, std::string_view state);
void set_node(Layer& layer, std::string_view kind);   // plain|selective|full or the LayerType names
void set_context(Layer& layer, std::string_view name, std::string_view text);
// Any of the above by name, for `diff`: a switch, `node`, a context value, else a field.
void apply_setting(Layer& layer, const Records& records, std::string_view name, std::string_view value);

// `oprec repl --set NAME=VALUE --switch NAME=0|1`: the same edits, each
// named in the error (std::invalid_argument) when it cannot apply.
void apply_start_edits(Layer& layer, const Records& records, const std::vector<std::string>& sets,
                       const std::vector<std::string>& switches);

std::string_view node_word(Recompute kind);  // "plain", "selective", "full"
// The switch's state in force: "on", "off", or "on (unstated)".
std::string switch_state(const Layer& layer, std::string_view name);

}  // namespace oprec::repl
