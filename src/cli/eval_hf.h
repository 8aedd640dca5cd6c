// `oprec eval --hf config.json`: derive a layer of a Hugging Face model under
// a strategy and price it as `oprec eval` prices a layer document, both
// through the public API (oprec/hf.h's hf_layer, then the Layer); only the
// strategy options are read into src/hf's grid, which `oprec sweep` shares.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/layer_options.h"
#include "cli/strategy_options.h"

namespace oprec::cli {

struct HfEvalOptions {
    std::string config;  // the config.json; empty: not --hf mode
    StrategyOptions strategy;
    std::string recompute = "selective";  // the HyperParallel parser's default
    std::int64_t layer = -1;  // -1: the first layer of the family's default kind
    std::string kind;
    bool show_layer = false;
};

// What `oprec eval` shares with its --hf mode.
struct EvalCommon {
    std::string records;  // empty: the shipped records
    LayerEdits edits;     // --set and --switch, applied to the derived layer
    std::string format;   // table or json
    std::string only;
};

// Whether --only names an op or part of the records (an empty one does);
// where not, says so on standard error.
bool only_is_known(const Records& records, const std::string& only);

void add_hf_eval_options(CLI::App& cmd, HfEvalOptions& options);
int run_hf_eval(const HfEvalOptions& options, const EvalCommon& common);

}  // namespace oprec::cli
