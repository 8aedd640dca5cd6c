// Every in-scope case of expr_cases.json, through the library: the value,
// its type and the order of reads bit for bit; every refused source refused.
#include <catch2/catch.hpp>

#include <algorithm>

#include "diag/diagnostic.h"
#include "eval/expression.h"
#include "golden/golden_support.h"

using nlohmann::json;
using namespace oprec;

namespace {

const json& expr_cases() {
    static const json cases = golden::load_json(OPREC_TEST_DATA "/golden/expr_cases.json");
    return cases;
}

bool has(const json& list, const char* item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

// tests/golden/FORMAT.md: out of scope are complex/other results, ints beyond int64, and
// max/min used other than as a direct call, or `__builtins__`.
bool in_scope(const json& c) {
    const json& r = c["result"];
    if (r.contains("type") && (r["type"] == "complex" || r["type"] == "other")) return false;
    if (has(c["flags"], "int_beyond_int64")) return false;
    const std::string src = c["source"];
    if (src.find("__builtins__") != std::string::npos) return false;
    if (src == "max" || src.find("max +") != std::string::npos) return false;
    return true;
}

}  // namespace

TEST_CASE("expression golden cases match Python bit for bit", "[golden][expr]") {
    int checked = 0;
    for (const json& c : expr_cases()["accepted"]) {
        if (!in_scope(c)) continue;
        const std::string src = c["source"];
        INFO("source: " << src << "  bindings: " << c["bindings"].dump());
        CompiledExpr expr = compile_expression(src);
        std::vector<std::string> reads;
        auto lookup = [&](std::string_view name) -> std::optional<Value> {
            const json& b = c["bindings"];
            auto it = b.find(std::string(name));
            if (it == b.end()) return std::nullopt;
            return golden::decode(*it);
        };
        const std::string diff = golden::check_outcome(c["result"], [&] { return evaluate(expr, lookup, &reads); });
        CHECK(diff == "");
        std::vector<std::string> expected_reads = c["reads"];
        CHECK(reads == expected_reads);
        ++checked;
    }
    CHECK(checked > 500);
}

TEST_CASE("every source the reference refuses is refused", "[golden][expr]") {
    for (const json& c : expr_cases()["refused"]) {
        if (!c["source"].is_string()) continue;  // YAML values: the calc test covers them
        const std::string src = c["source"];
        INFO("source: " << src);
        if (c.contains("accepted_as")) {
            CHECK_NOTHROW(compile_expression(src));
        } else {
            CHECK_THROWS_AS(compile_expression(src), LoadError);
        }
    }
}
