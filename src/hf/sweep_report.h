// What `oprec sweep` writes for tools: CSV and JSON, streamed a strategy at
// a time (so an interrupted sweep still writes well-formed output); and each
// strategy's Pareto front, which is all the readable table (cli/sweep_table.h) keeps.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hf/sweep.h"

namespace oprec::hf {

// ---- CSV: one row per strategy and setting -------------------------------------
std::string csv_header(const Sweep& sweep);
std::string csv_rows(const Sweep& sweep, const StrategyResult& result);

// ---- JSON: {"model", "settings", "strategies": [...], "priced", "interrupted"} --------
std::string json_open(const Sweep& sweep, std::size_t strategies);
std::string json_strategy(const Sweep& sweep, const StrategyResult& result, bool first);
std::string json_close(std::size_t priced, bool interrupted);

// ---- the table ------------------------------------------------------------------
// A strategy's Pareto front, kept for the table (the full results are not).
struct FrontPoint {
    std::size_t setting = 0;
    std::vector<Value> kind_bytes;  // by kind, as Sweep::kinds()
    double model_bytes = 0;
};
struct StrategyFront {
    Strategy strategy;
    std::optional<std::string> skipped;
    std::vector<FrontPoint> points;  // fewest recomputed first
};
StrategyFront front_of(const Sweep& sweep, const StrategyResult& result);

}  // namespace oprec::hf
