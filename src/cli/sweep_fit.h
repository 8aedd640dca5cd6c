// `oprec sweep --budget`: every strategy of a grid (the layer's options,
// and the pipeline, its chunks, ZeRO and the schedule) fitted whole-rank,
// each with the least recomputation (none, selective, full) whose peak
// stage fits the budget: the strategies that fit, cheapest recompute and
// smallest peak first.
#pragma once

#include <string>
#include <vector>

#include "cli/strategy_options.h"

namespace oprec::cli {

struct FitSweepArgs {
    std::string config;
    StrategyOptions strategy;           // tp, cp, ep, etp, mbs, seq, dtype, ... (lists)
    std::vector<std::string> pp, vpp, zero, schedule;  // lists too
    std::string gpus = "8", gbs;
    std::string records = "calibrated";  // the whole-rank records
    std::string format = "table";       // table or json
    double budget = 0;                  // bytes a GPU holds
    bool progress = false, no_progress = false;
    std::string plot;                   // --plot FILE.html: the chart of the fits too
};

int run_fit_sweep(const FitSweepArgs& args);

}  // namespace oprec::cli
