// The REPL's edits of its layer: fields, switches, the layer's kind and the
// context, each checked against the records' names (with did-you-mean).
// Throws CommandError for an edit that cannot apply.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/program.h"
#include "model/layer.h"

namespace oprec::repl {

// NAME=VALUE pairs, spaces around `=` allowed: "t=8 cp = 2".
std::vector<std::pair<std::string, std::string>> parse_assignments(std::string_view text);

// What a field may be called: the schema's fields, every name a formula
// reads (less the context's and computed ones), and the layer's own fields.
std::vector<std::string> field_names(const Program& program, const LayerDoc& layer);

void set_field(LayerDoc& layer, const Program& program, std::string_view name, std::string_view text);
void unset_field(LayerDoc& layer, std::string_view name);
// `state` is on/off/1/0/true/false; `name` may be `all`.
void set_switch(LayerDoc& layer, const Program& program, std::string_view name, std::string_view state);
void set_node(LayerDoc& layer, std::string_view kind);   // plain|selective|full or the LayerType names
void set_context(LayerDoc& layer, std::string_view name, std::string_view text);
// Any of the above by name, for `diff`: a switch, `node`, a context value, else a field.
void apply_setting(LayerDoc& layer, const Program& program, std::string_view name, std::string_view value);

// `oprec repl --set NAME=VALUE --switch NAME=0|1`: the same edits, each
// named in the error (std::invalid_argument) when it cannot apply.
void apply_start_edits(LayerDoc& layer, const Program& program, const std::vector<std::string>& sets,
                       const std::vector<std::string>& switches);

std::string_view node_word(NodeKind kind);  // "plain", "selective", "full"
// The switch's state in force: "on", "off", or "on (unstated)".
std::string switch_state(const LayerDoc& layer, std::string_view name);

}  // namespace oprec::repl
