// The REPL's `fit CONFIG [NAME=VALUE ...]`: `oprec fit`'s options written as
// the REPL writes settings (tp=2 pp=2 gbs=64 records=reference), read into
// the public API's strategy.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/fit.h"

namespace oprec::repl {

struct FitRequest {
    std::string config;
    FitStrategy strategy;
    std::string records = "calibrated";  // calibrated, reference or a .rec file
    std::optional<std::string> family;
};

// The option names, for help and did-you-mean.
const std::vector<std::string>& fit_option_names();
// Throws CommandError naming the option at fault.
FitRequest parse_fit(std::string_view rest);

}  // namespace oprec::repl
