// A layer document read without a JSON tree: the fast path of
// parse_layer_doc_text (model/layer.h).
#pragma once

#include <optional>
#include <string_view>

#include "model/layer.h"

namespace oprec {

// The document as parse_layer_doc_text reads it, when the text is a plain,
// valid layer document; nullopt for anything else (the caller then reads it
// with the tree reader, which says what is wrong and where). Never throws
// for bad input.
std::optional<LayerDoc> read_layer_doc_fast(std::string_view text);

}  // namespace oprec
