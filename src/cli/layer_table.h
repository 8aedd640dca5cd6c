// The table `oprec eval` prints for a layer report (model/report.h): the
// slots the layer holds by part, part totals, the layer total, then the
// parameters. Shared by `oprec eval` and `oprec eval --hf`.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/layer.h"
#include "value/value.h"

namespace oprec::cli {

// A report value as exact bytes ("21,233,664"), or "error: KIND".
std::string bytes_cell(const nlohmann::ordered_json& j);
// A report value in human units ("20.25 MiB"); "" for an error.
std::string human_cell(const nlohmann::ordered_json& j);

std::string layer_table(const nlohmann::ordered_json& report, const LayerDoc& layer, const std::string& name);
// A fully recomputed layer: the records are not consulted, the layer keeps
// only its input (`input_bytes`); then the parameters, as layer_table.
std::string full_recompute_table(const nlohmann::ordered_json& report, const LayerDoc& layer, const std::string& name,
                                 Value input_bytes);

}  // namespace oprec::cli
