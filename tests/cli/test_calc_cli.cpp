// The expression golden cases through the `oprec calc --jsonl` process, as
// a script would use it: one JSON object per line in, one per line out. The
// value (ints by digits, floats by the bits of the double the printed number
// parses back to), its type and the order of reads match Python's; errors
// match by kind; every source the reference refuses is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "cli/golden_json.h"
#include "golden/golden_support.h"
#include "support/process.h"
#include "value/text.h"

using nlohmann::json;
using nlohmann::ordered_json;
using namespace oprec;

namespace {

const json& expr_cases() {
    static const json cases = golden::load_json(OPREC_TEST_DATA "/golden/expr_cases.json");
    return cases;
}

bool has(const json& list, const char* item) { return std::find(list.begin(), list.end(), item) != list.end(); }

// The same scope as the library's golden test (tests/golden/test_expr_golden.cpp, tests/golden/FORMAT.md).
bool in_scope(const json& c) {
    const json& r = c["result"];
    if (r.contains("type") && (r["type"] == "complex" || r["type"] == "other")) return false;
    if (has(c["flags"], "int_beyond_int64")) return false;
    const std::string src = c["source"];
    if (src.find("__builtins__") != std::string::npos) return false;
    if (src == "max" || src.find("max +") != std::string::npos) return false;
    return true;
}

// A golden binding as calc reads it: a JSON integer, a number that parses
// back to the same double, true/false, or "inf"/"-inf"/"nan".
json binding(const json& encoded) {
    if (encoded["type"] == "int" && !encoded.value("fits_int64", true))
        return json::parse(encoded["repr"].get<std::string>());  // beyond 64 bits: as written
    return json::parse(to_json(golden::decode(encoded)).dump());
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The text of "value" in an output line, as printed.
std::string value_text(const std::string& line) {
    const auto start = line.find("\"value\":");
    const auto end = line.find(",\"reads\"");
    if (start == std::string::npos || end == std::string::npos) return "";
    return line.substr(start + 8, end - start - 8);
}

}  // namespace

TEST_CASE("calc --jsonl: every in-scope expression golden case, bit for bit", "[cli][calc][golden]") {
    std::vector<const json*> cases;
    std::string input;
    for (const json& c : expr_cases()["accepted"]) {
        if (!in_scope(c)) continue;
        json bindings = json::object();
        for (const auto& [name, encoded] : c["bindings"].items()) bindings[name] = binding(encoded);
        input += json{{"expr", c["source"]}, {"bindings", bindings}}.dump() + "\n";
        cases.push_back(&c);
    }
    REQUIRE(cases.size() > 500);

    const testing::RunResult run = testing::run_oprec({"calc", "--jsonl"}, input);
    const std::vector<std::string> lines = split_lines(run.out);
    REQUIRE(lines.size() == cases.size());
    bool any_error = false;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& c = *cases[i];
        const json& expected = c["result"];
        INFO("source: " << c["source"].get<std::string>() << "  bindings: " << c["bindings"].dump());
        INFO("output: " << lines[i]);
        const ordered_json got = ordered_json::parse(lines[i]);
        if (expected.contains("error")) {
            any_error = true;
            CHECK(testing::json_mismatch(expected, got) == "");
            continue;
        }
        REQUIRE(got.contains("type"));
        CHECK(got["type"].get<std::string>() == expected["type"].get<std::string>());
        CHECK(testing::json_mismatch(expected, got["value"]) == "");
        CHECK(json::parse(got["reads"].dump()) == c["reads"]);  // one json flavour on each side (clang)
        // A float keeps a fraction or an exponent (1.0, not 1), or is "inf"/"-inf"/"nan".
        if (expected["type"] == "float") {
            const std::string text = value_text(lines[i]);
            CHECK(text.find_first_of(".e\"") != std::string::npos);
        }
    }
    // A stream with a failed line exits 1; every line is still answered.
    CHECK(run.exit_code == (any_error ? 1 : 0));
    CHECK(run.err == "");
}

TEST_CASE("calc --jsonl: every source the reference refuses is refused", "[cli][calc][golden]") {
    std::vector<const json*> cases;
    std::string input;
    for (const json& c : expr_cases()["refused"]) {
        input += json{{"expr", c["source"]}, {"bindings", json::object()}}.dump() + "\n";
        cases.push_back(&c);
    }
    const testing::RunResult run = testing::run_oprec({"calc", "--jsonl"}, input);
    const std::vector<std::string> lines = split_lines(run.out);
    REQUIRE(lines.size() == cases.size());
    int refused = 0, accepted = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const json& c = *cases[i];
        INFO("source: " << c["source"].dump() << "  output: " << lines[i]);
        const ordered_json got = ordered_json::parse(lines[i]);
        if (!c.contains("accepted_as")) {
            REQUIRE(got.contains("refused"));
            CHECK(!got["refused"]["message"].get<std::string>().empty());
            ++refused;
            continue;
        }
        ++accepted;
        CHECK(!got.contains("refused"));
        if (c["source"].is_number()) {
            // A number stands for itself (a YAML number in the reference's
            // records): an int as an int, anything else as a float.
            const json& n = c["source"];
            REQUIRE(got.contains("value"));
            CHECK(got["type"] == (n.is_number_integer() ? "int" : "float"));
            if (n.is_number_integer()) {
                CHECK(got["value"].get<std::int64_t>() == n.get<std::int64_t>());
            } else {
                CHECK(float_hex(got["value"].get<double>()) == float_hex(n.get<double>()));
            }
            CHECK(got["value"].dump() == c["accepted_as"].get<std::string>());
        } else {
            // `__builtins__` is just a name: with no binding, it has no value.
            CHECK(got["error"]["kind"] == "unbound-name");
        }
    }
    CHECK(refused > 150);
    CHECK(accepted == 6);
    CHECK(run.exit_code == 1);
}

TEST_CASE("calc --jsonl: bindings as JSON: ints, floats, bools and the non-finite strings", "[cli][calc]") {
    const std::string input =
        R"({"expr": "x // y", "bindings": {"x": -7, "y": 2}})" "\n"
        R"({"expr": "x / y", "bindings": {"x": 1, "y": 3}})" "\n"
        R"({"expr": "w * 2", "bindings": {"w": 2.5}})" "\n"
        R"({"expr": "w + 1", "bindings": {"w": 1e300}})" "\n"
        R"({"expr": "flag and h", "bindings": {"flag": true, "h": 4096}})" "\n"
        R"({"expr": "x - x", "bindings": {"x": "inf"}})" "\n"
        R"({"expr": "-x", "bindings": {"x": "inf"}})" "\n"
        R"({"expr": "2 ** 0.5"})" "\n"
        "\n"  // a blank line is answered with an error naming it (issue 25)
        R"({"expr": "1 / 0"})" "\n";
    const testing::RunResult run = testing::run_oprec({"calc", "--jsonl"}, input);
    CHECK(run.out ==
          "{\"type\":\"int\",\"value\":-4,\"reads\":[\"x\",\"y\"]}\n"
          "{\"type\":\"float\",\"value\":0.3333333333333333,\"reads\":[\"x\",\"y\"]}\n"
          "{\"type\":\"float\",\"value\":5.0,\"reads\":[\"w\"]}\n"
          "{\"type\":\"float\",\"value\":1e+300,\"reads\":[\"w\"]}\n"
          "{\"type\":\"int\",\"value\":4096,\"reads\":[\"flag\",\"h\"]}\n"
          "{\"type\":\"float\",\"value\":\"nan\",\"reads\":[\"x\"]}\n"
          "{\"type\":\"float\",\"value\":\"-inf\",\"reads\":[\"x\"]}\n"
          "{\"type\":\"float\",\"value\":1.4142135623730951,\"reads\":[]}\n"
          "{\"error\":{\"kind\":\"invalid-input\",\"message\":\"line 9: a blank line: each line is one JSON "
          "object\",\"line\":9}}\n"
          "{\"error\":{\"kind\":\"division-by-zero\",\"message\":\"division by zero\",\"line\":10}}\n");
    CHECK(run.exit_code == 1);
}

TEST_CASE("calc --jsonl: a bad line is answered on its line, the rest go on", "[cli][calc]") {
    const std::string input =
        "not json\n"
        R"({"bindings": {}})" "\n"
        R"({"expr": "x", "bindings": {"x": "four"}})" "\n"
        R"({"expr": "x", "bindings": {"x": 9223372036854775808}})" "\n"
        R"({"expr": "h * 2", "bindings": {"h": 3}})" "\n"
        R"({"expr": "x", "bindings": {"x": 1e400}})" "\n"
        "[1]\n";
    const testing::RunResult run = testing::run_oprec({"calc", "--jsonl"}, input);
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() == 7);
    CHECK(ordered_json::parse(lines[5])["error"]["message"] == "line 6: number 1e400 is beyond a float's range");
    CHECK(ordered_json::parse(lines[6])["error"]["message"] == "line 7: expected a JSON object with \"expr\"");
    CHECK(ordered_json::parse(lines[0])["error"]["kind"] == "invalid-input");
    CHECK(ordered_json::parse(lines[0])["error"]["message"] ==
          "line 1, column 2: invalid JSON: syntax error while parsing value - invalid literal; last read: 'no'");
    CHECK(ordered_json::parse(lines[1])["error"]["kind"] == "invalid-input");
    CHECK(ordered_json::parse(lines[2])["error"]["message"] == "line 3: binding `x` is not a number or a bool");
    CHECK(ordered_json::parse(lines[3])["error"]["kind"] == "overflow");  // 2**63: an int beyond 64 bits
    CHECK(lines[4] == R"({"type":"int","value":6,"reads":["h"]})");
    CHECK(run.exit_code == 1);
}

TEST_CASE("calc --jsonl: a repeated or unknown key is refused, not taken", "[cli][calc]") {
    // Once the last of two "expr"s was priced, and a binding beside "bindings" went unread.
    const std::string input = R"({"expr": "1+1", "expr": "2"})" "\n"
                              R"({"expr": "h", "bindings": {"h": 3}, "h": 4})" "\n"
                              R"({"expr": "h", "bindings": {"h": 3, "h": 4}})" "\n"
                              R"({"expr": "h", "bindings": {"h": 3}})" "\n";
    const testing::RunResult run = testing::run_oprec({"calc", "--jsonl"}, input);
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() == 4);
    CHECK(ordered_json::parse(lines[0])["error"]["message"] == "line 1, column 17: duplicate key 'expr'");
    CHECK(ordered_json::parse(lines[1])["error"]["message"] == "line 2: unknown key 'h' (expected expr and bindings)");
    CHECK(ordered_json::parse(lines[2])["error"]["message"] == "line 3, column 36: duplicate key 'h'");
    CHECK(lines[3] == R"({"type":"int","value":3,"reads":["h"]})");
    CHECK(run.exit_code == 1);
}

TEST_CASE("calc --set: a binding names a name", "[cli][calc]") {
    // Once taken and ignored without a word.
    for (const char* set : {"=3", "x y=3", "2x=1"}) {
        const auto run = testing::run_oprec({"calc", "1", "--set", set});
        CHECK(run.exit_code == 2);
        CHECK(run.err == fmt::format("oprec calc: --set {}: `{}` is not a name\n", set,
                                     std::string(set).substr(0, std::string(set).find('='))));
    }
}

TEST_CASE("calc: one expression, --set bindings, Python's repr", "[cli][calc]") {
    auto run = testing::run_oprec({"calc", "h * s / t", "--set", "h=4096", "--set", "s=8192", "--set", "t=4"});
    CHECK(run.out == "8388608.0\n");
    CHECK(run.exit_code == 0);
    run = testing::run_oprec({"calc", "-2**2"});
    CHECK(run.out == "-4\n");
    run = testing::run_oprec({"calc", "x or y", "--set", "x=0", "--set", "y=2.5"});
    CHECK(run.out == "2.5\n");
    run = testing::run_oprec({"calc", "1 < x <= 3", "--set", "x=3"});
    CHECK(run.out == "True\n");
    // --set takes one value: the expression may follow it.
    run = testing::run_oprec({"calc", "--set", "h=2", "--set", "w=0.5", "h * w"});
    CHECK(run.out == "1.0\n");
    CHECK(run.exit_code == 0);
}

TEST_CASE("calc: a runtime error names its place and kind, exit 1", "[cli][calc]") {
    const auto run = testing::run_oprec({"calc", "h / (t - 4)", "--set", "h=1", "--set", "t=4"});
    CHECK(run.out == "");
    CHECK(run.err == "<expr>:1:1: error: division by zero [division-by-zero]\n");
    CHECK(run.exit_code == 1);
    const auto unbound = testing::run_oprec({"calc", "h + w"});
    CHECK(unbound.err == "<expr>:1:1: error: `h` has no value [unbound-name]\n");
}

TEST_CASE("calc: a refused source is shown with its place, exit 1", "[cli][calc]") {
    const auto run = testing::run_oprec({"calc", "h * 'x'"});
    CHECK(run.out == "");
    CHECK(run.err.rfind("<expr>:1:5: error: a string is not allowed in a formula", 0) == 0);
    CHECK(run.err.find("[E0110]") != std::string::npos);
    CHECK(run.exit_code == 1);
    const auto bad_set = testing::run_oprec({"calc", "h", "--set", "h=four"});
    CHECK(bad_set.exit_code == 2);
}

TEST_CASE("calc --tier tree gives the straight-line code's value, calc --dump lists it", "[cli][calc][tier][dump]") {
    for (const char* expr : {"s * b * h / t", "0.5 * h if t > 1 else max(s, b)", "7 // 2 ** 3"}) {
        INFO(expr);
        const std::vector<std::string> sets = {"--set", "s=4096", "--set", "b=2", "--set", "h=5120.5", "--set", "t=8"};
        std::vector<std::string> fast = {"calc", expr};
        fast.insert(fast.end(), sets.begin(), sets.end());
        std::vector<std::string> tree = fast;
        tree.insert(tree.end(), {"--tier", "tree"});
        const auto a = testing::run_oprec(fast), b = testing::run_oprec(tree);
        CHECK(a.exit_code == 0);
        CHECK(b.exit_code == 0);
        CHECK(a.out == b.out);
    }
    const auto dump = testing::run_oprec({"calc", "--dump", "s * b * h"});
    CHECK(dump.exit_code == 0);
    CHECK(dump.out == "straight-line code:\n0000  Load            s\n0001  MulN            b\n0002  MulN            h\n0003  Return\n");
}

TEST_CASE("calc: a call of a records fn says an expression alone calls max and min", "[cli][calc]") {
    // It said "the fns the records declare", which the REPL's user had just called.
    const auto run = testing::run_oprec({"calc", "ffn_elements(4096)"});
    CHECK(run.exit_code == 1);  // refused, as any expression the language refuses
    CHECK(run.err.find("`ffn_elements` is not a function here: an expression may call max and min") != std::string::npos);
}
