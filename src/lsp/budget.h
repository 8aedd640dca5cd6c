// The work pricing a document's records would take, counted on its AST
// before any of it runs: the server prices live on every change, so records
// whose evaluation explodes (60 fns each calling the one before twice: 2^60
// calls) or nests too deep for the stack (a chain of thousands of fns) are
// not priced, and a diagnostic says why (docs/lsp.md, "Limits").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diag/source.h"
#include "syntax/ast.h"

namespace oprec::lsp {

// Expression nodes one pricing may walk (a tree walk: each call walks its
// fn's body again), and how deeply nodes and calls may nest in one walk.
inline constexpr std::uint64_t kMaxPricingSteps = 20'000'000;
inline constexpr std::uint32_t kMaxPricingDepth = 1000;

struct PricingCost {
    std::uint64_t steps = 0;  // saturates at 2^62
    std::uint32_t depth = 0;  // saturates likewise
    Span worst;               // the expression that costs the most (or nests deepest)
    std::string worst_name;   // what it is: "slot s, entry attMM", "default x"
};

// Every slot's `when`, entries and formula and every default, with the fns
// they call (found by name across the modules).
PricingCost pricing_cost(const std::vector<ast::Module>& modules);

// Why records of this cost are not priced live; none when they are.
std::optional<std::string> over_budget(const PricingCost& cost);

}  // namespace oprec::lsp
