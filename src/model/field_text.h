// A layer field's value from text, as people type it on a command line or at
// the REPL: a number, true/false, none (stated as none), else a string.
#pragma once

#include <string_view>

#include "model/layer.h"

namespace oprec {

FieldValue field_from_text(std::string_view text);

}  // namespace oprec
