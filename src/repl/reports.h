// What the REPL's queries print: a slot, the layer, the ops alone, the
// parameters, a slot explained, two settings side by side, all through the
// public API. Each returns its text, and whether everything in it could be
// computed (a value that could not stands in the text as its error).
// PricingError escapes only where nothing at all could be priced.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::repl {

struct Report {
    std::string text;
    bool ok = true;
};

// "qkv  21,233,664 bytes  20.25 MiB", with `only OP` priced alone.
Report slot_report(const Records& records, const Layer& layer, std::string_view slot,
                   const std::optional<std::string>& only);
Report layer_report(const Records& records, const Layer& layer);
Report ops_report(const Records& records, const Layer& layer);
Report params_report(const Layer& layer);
Report explain_report(const Records& records, const Layer& layer, std::string_view slot);
Report diff_report(const Records& records, const Layer& a, std::string_view a_label, const Layer& b,
                   std::string_view b_label);

// One line on what the layer is: "selective layer (SEL_REC_LAYER), micro factor 1; recomputed: softmax".
std::string layer_summary(const Records& records, const Layer& layer);
// A pricing error as one line: where, in which slot, what, and its kind.
std::string error_line(const PricingError& e);

}  // namespace oprec::repl
