// The debug switches' door past the public API: which of the evaluator's
// runs prices a layer, and the listing of those runs. Every run gives the
// same bits and errors; these are for comparing them (`oprec eval --tier`,
// `oprec eval --dump`, the tests) and are not part of include/oprec: an
// embedder has no run to choose. docs/performance.md, "Working in the
// fast tier".
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "oprec/expression.h"
#include "oprec/records.h"

namespace oprec::debug {

// Auto, the fastest that can (what Records::load gives); Tree, every
// expression walked as a tree; Registers, the layer's untyped register run.
enum class Tier : std::uint8_t { Auto, Tree, Registers };
// "auto", "tree", "registers"; nullopt for any other text.
std::optional<Tier> parse_tier(std::string_view text);

// Records::load, the layers made from them priced by `tier`.
Records load(const std::filesystem::path& path_or_name, const RecordsOptions& options, Tier tier);

// The layer's compiled run, one instruction a line: its register code,
// and the register code typed and pinned for the layer's names (made here
// if the layer has not been priced twice yet).
// For reading, not for parsing: the format may change.
std::string dump_code(const Layer& layer);

// An expression's straight-line code, one instruction a line (`oprec calc
// --dump`); for reading, as dump_code.
std::string dump_code(const Expression& expr);
// Expression::evaluate, always walking the expression's tree (`oprec calc
// --tier tree`): the same value and errors.
Number evaluate_tree(const Expression& expr, const Expression::Lookup& lookup);

}  // namespace oprec::debug
