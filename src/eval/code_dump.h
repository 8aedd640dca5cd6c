// A listing of a layer's compiled run, one instruction a line, for reading
// what the fast tiers do with a records file (`oprec eval --dump`,
// Layer::dump_code): its register code (register_code.h), untyped and,
// where given, typed for one layer; and an expression's straight-line code
// (`oprec calc --dump`). Every opcode is named from its table (rop_name,
// lop_name).
#pragma once

#include <string>

#include "check/program.h"
#include "eval/expression.h"
#include "eval/layer_code.h"
#include "eval/register_code.h"

namespace oprec {

// "0012  MulX            c[41] = r * b": r is the value the instruction
// before wrote (an X or Y op's operand), a bound name's cell shows the
// name, a constant's its value.
std::string dump_registers(const RegisterCode& code, const Program& program);

// One expression's straight-line code (`oprec calc --dump`), or a line
// saying it has none (its tree is walked).
std::string dump_expression(const CompiledExpr& expr);

// The layer's run: its register code, then `typed` (specialise's, for one
// layer) if given.
std::string dump_layer_code(const LayerCode& layer, const Program& program, const RegisterCode* typed = nullptr);

}  // namespace oprec
