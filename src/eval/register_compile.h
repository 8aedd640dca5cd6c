// compile_registers (register_compile.cpp): a program's layer run as
// untyped register code.
#pragma once

#include <optional>

#include "check/program.h"
#include "eval/register_code.h"

namespace oprec {

// nullopt where the program is beyond the form's limits (65,535 cells or
// instructions, 64 memo bits, expressions nested deeper than it follows);
// each expression's own code then prices the layer (price_layer).
std::optional<RegisterCode> compile_registers(const Program& program);

}  // namespace oprec
