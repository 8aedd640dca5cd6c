// A layer document as JSON, in the form parse_layer_doc reads back: what
// `oprec eval --hf --show-layer` prints, for a user to save and edit.
#pragma once

#include <nlohmann/json.hpp>

#include "model/layer.h"

namespace oprec::hf {

// {"fields": {...in their order}, "switches": {...}, "context": {...}}. Ints
// stay integers and floats keep a fraction, so the types read back the same.
nlohmann::ordered_json layer_doc_json(const LayerDoc& layer);

}  // namespace oprec::hf
