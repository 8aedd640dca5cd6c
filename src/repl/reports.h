// What the REPL's queries print: a slot, the layer, the ops alone, the
// parameters, a slot explained, two settings side by side. Each returns its
// text, and whether everything in it could be computed (a value that could
// not stands in the text as its error). EvalError escapes only where
// nothing at all could be priced.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/layer.h"
#include "model/evaluator.h"

namespace oprec::repl {

struct Report {
    std::string text;
    bool ok = true;
};

// "qkv  21,233,664 bytes  20.25 MiB", with `only OP` priced alone.
Report slot_report(const RecordsEvaluator& records, const LayerDoc& layer, std::string_view slot,
                   const std::optional<std::string>& only);
Report layer_report(const RecordsEvaluator& records, const LayerDoc& layer);
Report ops_report(const RecordsEvaluator& records, const LayerDoc& layer);
Report params_report(const LayerDoc& layer);
Report explain_report(const RecordsEvaluator& records, const LayerDoc& layer, std::string_view slot);
Report diff_report(const RecordsEvaluator& records, const LayerDoc& a, std::string_view a_label,
                   const LayerDoc& b, std::string_view b_label);

// One line on what the layer is: "selective layer (SEL_REC_LAYER), micro factor 1; recomputed: softmax".
std::string layer_summary(const Program& program, const LayerDoc& layer);
// The condition of a slot's `when`, as written ("n_exp == 1"); nullopt where it has none.
std::optional<std::string> when_text(const Program& program, SlotId slot);
// An evaluation error as one line: where, in which slot, what, and its kind.
std::string error_line(const EvalError& e, const SourceMap* sources);

}  // namespace oprec::repl
