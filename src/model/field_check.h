// A layer document's fields against the records' field schema (the `field`
// declarations, stdlib/fields.rec): a string where the schema wants a number
// is the document's mistake, reported at the field before any formula reads
// it, rather than as a type error in every slot that does.
#pragma once

#include <string_view>

#include "check/program.h"
#include "model/layer.h"

namespace oprec {

// Throws LayerDocError: "SOURCE: fields.h: expected int or float, got a
// string ('4096')". Numbers, bools and none are left to the formulas
// (Python's arithmetic takes any number; none is a stated absence); fields
// the schema does not declare, and records with no schema, pass.
void check_field_types(const LayerConfig& fields, const Program& program, std::string_view source_name);

}  // namespace oprec
