// A layer as the JSON document `oprec eval` reads: what `show` prints, so a
// layer built at the REPL can be saved and priced again.
#pragma once

#include <nlohmann/json.hpp>

#include "model/layer.h"

namespace oprec::repl {

nlohmann::ordered_json layer_doc_json(const LayerDoc& layer);

}  // namespace oprec::repl
