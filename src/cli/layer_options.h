// --set and --switch: edits of a layer document from the command line,
// shared by the commands that price layers.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "check/program.h"
#include "model/field_text.h"
#include "model/layer.h"
#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::cli {

struct LayerEdits {
    std::vector<std::string> sets;      // NAME=VALUE: a field (a number, true/false, none, or a string)
    std::vector<std::string> switches;  // NAME=0|1: over the context's and the layer's switches
};

void add_layer_edit_options(CLI::App& cmd, LayerEdits& edits);

// Throws std::invalid_argument naming the bad edit.
void apply_edits(LayerDoc& layer, const LayerEdits& edits, const Program& program);
// The same on a bound layer, through the public API (oprec eval, its --hf
// mode); throws LayerError naming the bad edit.
void apply_edits(Layer& layer, const Records& records, const LayerEdits& edits);

// A field's value from text (now in the library, for the REPL too).
using oprec::field_from_text;

}  // namespace oprec::cli
