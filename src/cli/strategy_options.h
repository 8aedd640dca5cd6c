// The strategy options of `oprec eval --hf` and `oprec sweep`: --tp --cp
// --cp-algo --sp/--no-sp --ep --etp --mbs --seq --dtype
// --flash-attention/--no-flash-attention --param-casts --micro-factor, and
// where the op profiles come from. Each option may take a comma-separated
// list (a grid, for sweep); eval takes one value each.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/strategy_grid.h"
#include "oprec/records.h"

namespace oprec::cli {

struct StrategyOptions {
    std::vector<std::string> tp, cp, cp_algo, ep, etp, mbs, seq, dtype, micro_factor;
    bool sp = false, no_sp = false;
    bool flash_attention = false, no_flash_attention = false;
    bool param_casts = false, no_param_casts = false;
    std::string family;                    // a profile by name, over the model name's choice
    std::string profiles = "profiles.rec"; // the op profiles (the standard library's)
};

void add_strategy_options(CLI::App& cmd, StrategyOptions& options, bool lists);

// The grid the options state; throws std::invalid_argument naming the option.
// A flag given both ways (--sp --no-sp) takes both values.
StrategyGrid parse_grid(const StrategyOptions& options);

// The records (`records`, else the shipped ones) with the options' op
// profiles, as the --hf commands price with them. nullopt when they do not
// load or state no op records, the reason printed after `command`'s name.
std::optional<Records> load_hf_records(const std::string& records, const StrategyOptions& options,
                                       std::string_view command);

}  // namespace oprec::cli
