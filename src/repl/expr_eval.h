// An expression of the records' language over the REPL's layer: its names are
// what a record would read (RecordsEvaluator::bind: context values,
// kv_shards, fields, the records' defaults), any other field of the layer,
// and slot names, which stand for the slot's bytes.
#pragma once

#include "eval/expression.h"
#include "model/layer.h"
#include "model/evaluator.h"

namespace oprec::repl {

// Throws EvalError, located in the expression's source.
Value evaluate_on_layer(const CompiledExpr& expr, const RecordsEvaluator& records, const LayerDoc& layer);

}  // namespace oprec::repl
