// --set and --switch: edits of a layer document from the command line,
// shared by the commands that price layers.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::cli {

struct LayerEdits {
    std::vector<std::string> sets;      // NAME=VALUE: a field (a number, true/false, none, or a string)
    std::vector<std::string> switches;  // NAME=0|1: over the context's and the layer's switches
};

void add_layer_edit_options(CLI::App& cmd, LayerEdits& edits);

// The edits on a bound layer (oprec eval, its --hf mode, oprec bench);
// throws LayerError naming the bad edit. The REPL applies the same options
// to its own layer (repl::Session::start).
void apply_edits(Layer& layer, const Records& records, const LayerEdits& edits);

}  // namespace oprec::cli
