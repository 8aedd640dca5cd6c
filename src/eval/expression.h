// One expression on its own, outside any records file: what `oprec calc` and
// the REPL evaluate. Python's rules throughout, including max/min of fewer
// than two numbers raising a TypeError when evaluated.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/source.h"
#include "code/code.h"

namespace oprec {

struct CompiledExpr {
    Code code;
    std::vector<std::string> names;  // by NameId
    NodeId root = 0;
    SourceMap sources;
};

// Throws LoadError (with diagnostics) for a source the language refuses.
CompiledExpr compile_expression(std::string text, std::string name = "<expr>");

// The value of a name, or nullopt for a name with no value.
using NameLookup = std::function<std::optional<Value>(std::string_view)>;

struct ExprResult {
    Value value;
    std::vector<std::string> reads;  // the names looked up, in order of first read
};

// Evaluates; each name is looked up at most once. Throws EvalError (with
// the failing span); `reads` is filled as far as evaluation went.
// With `tree`, the tree is walked even where the expression has a
// straight-line form (to compare the two: `oprec calc --tier tree`).
Value evaluate(const CompiledExpr& expr, const NameLookup& lookup, std::vector<std::string>* reads = nullptr,
               bool tree = false);

}  // namespace oprec
