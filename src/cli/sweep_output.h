// What `oprec sweep` writes for tools: CSV and JSON, streamed a strategy at
// a time (so an interrupted sweep still writes well-formed output); and each
// strategy's Pareto front, which is all the readable table
// (cli/sweep_table.h) keeps. Over the public API's sweep (oprec/sweep.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "oprec/sweep.h"

namespace oprec::cli {

// ---- CSV: one row per strategy and setting -------------------------------------
std::string csv_header(const Sweep& sweep);
std::string csv_rows(const Sweep& sweep, const SweepRow& row);

// ---- JSON: {"model", "settings", "planned", "strategies": [...], "written", "priced",
// "skipped", "interrupted"}: of the strategies written, those priced and those the
// model cannot take ("skipped", each with why) --------
std::string json_open(const Sweep& sweep, std::size_t strategies);
std::string json_strategy(const SweepRow& row, bool first);
std::string json_close(std::size_t written, std::size_t skipped, bool interrupted);

// ---- the table ------------------------------------------------------------------
// A strategy's Pareto front, kept for the table (the full rows are not).
struct FrontPoint {
    std::size_t setting = 0;
    std::vector<Number> kind_bytes;  // by kind, as SweepModel::kinds
    double model_bytes = 0;
};
struct StrategyFront {
    HfStrategy strategy;
    std::optional<std::string> skipped;
    std::vector<FrontPoint> points;  // fewest recomputed first
};
StrategyFront front_of(const SweepRow& row);

}  // namespace oprec::cli
