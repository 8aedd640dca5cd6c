// Between the reference's YAML records and .rec: `oprec import` and
// `oprec export`. Both keep the records' order and every formula's order of
// operations, so the two price the same to the bit.
#pragma once

#include <string>
#include <vector>

#include "check/program.h"
#include "diag/source.h"
#include "syntax/ast.h"

namespace oprec::yaml {

// The .rec text of a YAML file's records (`module` as read_records built it
// from `yaml`): its imports, its comments before the records they stood
// before, its declarations in order. Not yet laid out: format_source does.
std::string rec_from_yaml(const ast::Module& module, const SourceFile& yaml);

// YAML the reference's loader accepts, for a checked program and the modules
// it was loaded from: defaults, ops, parts, slots, in declaration order,
// each fn call written out inline (the reference has no fns), bracketed as
// the order of operations needs.
std::string yaml_from_rec(const std::vector<ast::Module>& modules, const Program& program, const std::string& origin);

}  // namespace oprec::yaml
