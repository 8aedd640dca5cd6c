// Modules -> the checked program. Every load-time check of the language
// lives here; each failure is a Diagnostic at its place, and the checker
// goes on so that one run reports them all.
#pragma once

#include <optional>
#include <vector>

#include "check/program.h"
#include "diag/diagnostic.h"
#include "syntax/ast.h"

namespace oprec {

// `modules` in load order (imports before the files importing them).
// Returns the program when no error was found; `diags` receives every error.
std::optional<Program> check_program(const std::vector<ast::Module>& modules, std::vector<Diagnostic>& diags);

}  // namespace oprec
