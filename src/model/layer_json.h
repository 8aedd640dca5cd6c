// A layer document as JSON, in the form parse_layer_doc reads back: what
// `oprec eval --hf --show-layer`, the REPL's `show` and `save` and the API's
// Layer::document_json write, for a user to save, edit and price again.
#pragma once

#include <nlohmann/json.hpp>

#include "model/layer.h"

namespace oprec {

// {"fields": {...in their order}, "switches": {...}, "context": {...}}. Ints
// stay integers and floats keep a fraction, so the types read back the same;
// a field stated as none is null.
nlohmann::ordered_json layer_doc_json(const LayerDoc& layer);

}  // namespace oprec
