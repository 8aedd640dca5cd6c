// The table `oprec eval` prints for a layer report (model/report.h): the
// slots the layer holds by part, part totals, the layer total, then the
// parameters. Shared by `oprec eval` and `oprec eval --hf`.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "oprec/layer.h"
#include "value/value.h"

namespace oprec::cli {

// Whether a report (or any part of one) holds an {"error": ...} where a
// value could not be computed.
bool has_error(const nlohmann::ordered_json& report);
// A float past its range prices a part at inf or nan, as Python does: warns
// on standard error that there is no usable answer (the caller exits 1),
// never a silent inf. `slot`: only that slot's bytes count. True if it warned.
bool warn_non_finite(const Layer& layer, std::string_view name, const std::string& slot = {});
// A report value as exact bytes ("21,233,664"), or "error: KIND".
std::string bytes_cell(const nlohmann::ordered_json& j);
// A report value in human units ("20.25 MiB"); "" for an error.
std::string human_cell(const nlohmann::ordered_json& j);

// The header line's facts: "NOT_REC_LAYER" and the micro factor ("1", "?").
struct TableHeader {
    std::string name;
    std::string node;
    std::string micro_factor;
};

// `layer`: the layer the report is of, for its total (Layer::total).
std::string layer_table(const nlohmann::ordered_json& report, const TableHeader& header, const Layer& layer);
// A fully recomputed layer: the records are not consulted, the layer keeps
// only its input (`input_bytes`); then the parameters, as layer_table.
std::string full_recompute_table(const nlohmann::ordered_json& report, const TableHeader& header, Value input_bytes);

}  // namespace oprec::cli
