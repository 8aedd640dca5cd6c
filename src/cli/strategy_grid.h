// The grid of strategies the options state: each option's values, the
// strategies their product (the first option, tp, varying slowest), each
// as the public API states a strategy (oprec/hf.h). `oprec sweep` prices
// them all; `oprec eval --hf` takes a grid of one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oprec/hf.h"

namespace oprec::cli {

struct StrategyGrid {
    std::vector<std::int64_t> tp{1};
    std::vector<std::int64_t> cp{1};
    std::vector<std::string> cp_algo{"ring"};  // as canonical_cp_algo() names them
    std::vector<bool> sp{true};
    std::vector<std::int64_t> ep{1};
    std::vector<std::int64_t> etp{1};
    std::vector<std::int64_t> mbs{1};
    std::vector<std::optional<std::int64_t>> seq{std::nullopt};     // none: the model's
    std::vector<std::optional<std::string>> dtype{std::nullopt};    // as canonical_dtype() names them; none: the model's
    std::vector<bool> flash_attention{true};
    std::vector<bool> param_casts{false};
    std::vector<Number> micro_factor{Number::integer(1)};

    // Saturating: a product beyond size_t is SIZE_MAX, never a small wrapped count.
    std::size_t size() const;
    std::vector<HfStrategy> strategies() const;
    // The options that take more than one value ("tp", "cp-algo", ...), in option order.
    std::vector<std::string> varying() const;
};

// The strategy options, in the grid's order: "tp", "cp", "cp-algo", ..., "micro-factor".
const std::vector<std::string>& strategy_option_names();
// A strategy's value of an option as the option states it ("4", "ring", "on", "model").
std::string option_value(const HfStrategy& s, const std::string& option);

}  // namespace oprec::cli
