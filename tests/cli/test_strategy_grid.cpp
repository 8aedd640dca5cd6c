// The command's grid of strategies (cli/strategy_grid.h): the product of
// the options' values, as the public API states a strategy.
#include <catch2/catch.hpp>

#include "cli/strategy_grid.h"

using namespace oprec;
using namespace oprec::cli;

TEST_CASE("the grid: the product of the options' values", "[sweep]") {
    StrategyGrid g;
    CHECK(g.size() == 1);
    CHECK(g.varying().empty());
    g.tp = {1, 2, 4, 8};
    g.cp = {1, 2};
    g.cp_algo = {"ring", "ulysses"};
    g.seq = {4096, 32768};
    CHECK(g.size() == 32);
    const auto all = g.strategies();
    REQUIRE(all.size() == 32);
    CHECK(all.front().tp == 1);
    CHECK(all.back().tp == 8);
    CHECK(all.back().seq == std::optional<std::int64_t>(32768));
    CHECK(all[1].seq == std::optional<std::int64_t>(32768));  // the last option varies fastest
    CHECK(g.varying() == std::vector<std::string>{"tp", "cp", "cp-algo", "seq"});
    CHECK(option_value(all.back(), "cp-algo") == "ulysses");
    CHECK(option_value(all.front(), "dtype") == "model");
    CHECK(option_value(all.front(), "micro-factor") == "1");
}

TEST_CASE("the grid's size saturates instead of wrapping", "[sweep]") {
    StrategyGrid g;
    g.tp.assign(1u << 16, 1);
    g.cp.assign(1u << 16, 1);
    g.ep.assign(1u << 16, 1);
    g.etp.assign(1u << 16, 1);
    g.mbs.assign(2, 1);
    CHECK(g.size() == SIZE_MAX);
}
