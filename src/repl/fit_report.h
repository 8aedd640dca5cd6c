// A fit's per-stage table (a column per stage, a row per term, the total,
// the terms beside it) and its verdict: what `oprec fit` prints as text and
// what the REPL's `fit` prints.
#pragma once

#include <string>
#include <string_view>

#include "oprec/fit.h"

namespace oprec::repl {

// The model, the settled strategy and the records (`source` names the
// config, `records` the records' file), then a column for every stage up to
// eight, else for the first two, the peak and the last two; `all_stages`
// says where the rest are ("--format json lists every one").
// A parameter count in three figures: 6.74B, 125M, 13.6K.
std::string parameter_count(double n);

std::string fit_text(const FitResult& result, std::string_view source, std::string_view records,
                     std::string_view all_stages);

}  // namespace oprec::repl
