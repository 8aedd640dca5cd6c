// The readable table of `oprec sweep`: per strategy, its Pareto front of
// memory against ops recomputed (one layer of each kind and all layers, in
// human units), and, with a budget, the settings that fit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/strategy_grid.h"
#include "cli/sweep_output.h"

namespace oprec::cli {

struct SweepTableInfo {
    std::string source;          // the config's name
    std::size_t planned = 0;     // strategies in the grid
    bool interrupted = false;
    double seconds = 0;
    std::optional<double> budget;  // bytes, for all layers
    std::size_t switches = 0;      // the records' recompute switches
};

std::string sweep_table(const Sweep& sweep, const StrategyGrid& grid, const std::vector<StrategyFront>& fronts,
                        const SweepTableInfo& info);

}  // namespace oprec::cli
