// An expression of the records' language over the REPL's layer: its names are
// what a record would read (Layer::read: context values, kv_shards, fields,
// the records' defaults), any other field of the layer, and slot names,
// which stand for the slot's bytes.
#pragma once

#include "oprec/expression.h"
#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::repl {

// Throws PricingError, placed in the expression's source.
Number evaluate_on_layer(const Expression& expr, const Records& records, const Layer& layer);

}  // namespace oprec::repl
