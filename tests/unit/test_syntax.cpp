// The expression grammar: one ANTLR rule with Python's precedence, and what
// Python's grammar refuses that the one rule takes; the declaration-at-a-time
// fast path against the full parse.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "check/loader.h"
#include "eval/expression.h"
#include "value/format.h"

using namespace oprec;

namespace {

std::string calc(const std::string& text) {
    const CompiledExpr e = compile_expression(text);
    return repr(evaluate(e, [](std::string_view name) -> std::optional<Value> {
        if (name == "x") return Value::integer(3);
        if (name == "y") return Value::integer(0);
        return std::nullopt;
    }));
}

// The first diagnostic of a refused expression, as "col: message [CODE]".
std::string refusal(const std::string& text) {
    try {
        compile_expression(text);
    } catch (const LoadError& e) {
        REQUIRE(!e.diagnostics().empty());
        const Diagnostic& d = e.diagnostics().front();
        return std::to_string(d.span.col) + ": " + d.message + " [" + d.code + "]";
    }
    return "accepted";
}

}  // namespace

TEST_CASE("syntax: Python's precedence and associativity", "[syntax]") {
    CHECK(calc("-2 ** 2") == "-4");           // - (2 ** 2)
    CHECK(calc("2 ** -1 * 3") == "1.5");      // (2 ** -1) * 3
    CHECK(calc("2 ** 3 ** 2") == "512");      // right-associative
    CHECK(calc("2 ** -x ** 2") == "0.001953125");  // 2 ** -(x ** 2)
    CHECK(calc("7 - 2 - 1") == "4");          // left-associative
    CHECK(calc("7 // 2 * 3 % 4") == "1");
    CHECK(calc("1 + 2 * 3") == "7");
    CHECK(calc("-x * 2 + 1") == "-5");
    CHECK(calc("not 1 == 2") == "True");      // not (1 == 2)
    CHECK(calc("not x and y") == "False");    // (not x) and y
    CHECK(calc("y or x and 0") == "0");       // y or (x and 0)
    CHECK(calc("1 if y else 2 if y else 3") == "3");  // 1 if y else (2 if y else 3)
    CHECK(calc("x + 1 if x else 0") == "4");  // (x + 1) if x else 0
    CHECK(calc("x if (y if y else x) else 0") == "3");  // a conditional condition, in parentheses
}

TEST_CASE("syntax: a comparison chain is one comparison, in parentheses it is not", "[syntax]") {
    CHECK(calc("3 > 2 > 1") == "True");      // 3 > 2 and 2 > 1
    CHECK(calc("(3 > 2) > 1") == "False");   // True > 1
    CHECK(calc("1 < x == 3 != 4") == "True");
}

TEST_CASE("syntax: what Python's grammar refuses is a syntax error at its token", "[syntax]") {
    CHECK(refusal("1 + not x") == "5: syntax error: unexpected `not` [E0001]");
    CHECK(refusal("-not x") == "2: syntax error: unexpected `not` [E0001]");
    CHECK(refusal("2 ** not x") == "6: syntax error: unexpected `not` [E0001]");
    CHECK(refusal("x < not y") == "5: syntax error: unexpected `not` [E0001]");
    CHECK(refusal("max(not x, 1) * not y") == "17: syntax error: unexpected `not` [E0001]");
    CHECK(refusal("1 if x if y else 2 else 3") == "8: syntax error: unexpected `if` [E0001]");
    // Where Python allows them.
    CHECK(calc("x and not y") == "True");
    CHECK(calc("max(not y, 0)") == "True");
    CHECK(calc("(not y) + 1") == "2");
    CHECK(calc("1 if not y else 2") == "1");
    CHECK(calc("0 if y else not y") == "True");
}

TEST_CASE("syntax: a long chain costs no stack, and too long a chain is refused", "[syntax]") {
    std::string ok = "1";
    for (int i = 0; i < 900; ++i) ok += " + 1";
    CHECK(calc(ok) == "901");
    std::string long_chain = "1";
    for (int i = 0; i < 100000; ++i) long_chain += " + 1";
    const std::string r = refusal(long_chain);
    CHECK(r.find("[E0003]") != std::string::npos);
}

TEST_CASE("syntax: records parse a declaration at a time, comments anywhere", "[syntax]") {
    const std::string text =
        "# a comment before anything\n"
        "switches softmax  # and after a declaration\n"
        "layerparts attention\n"
        "\n"
        "opvector attMM, softmax\n"
        "op attMM\n"
        "op softmax switch softmax needs attMM\n"
        "slot score in attention {  # here\n"
        "    # and inside a slot\n"
        "    bytes = (s *  # inside brackets too\n"
        "             total)\n"
        "    softmax = 2\n"
        "}\n"
        "# and at the end, with no newline";
    const LoadResult r = load_text(text, "t.rec", {});
    CHECK(r.diagnostics.empty());
    REQUIRE(r.ok());
    CHECK(r.program->slots.size() == 1);
}

TEST_CASE("syntax: an error after good declarations is reported as by the full parse", "[syntax]") {
    const LoadResult r = load_text("switches softmax\nlayerparts attention\nopvector softmax\nop softmax x\n", "t.rec", {});
    REQUIRE(!r.diagnostics.empty());
    CHECK(r.sources.where(r.diagnostics[0].span) == "t.rec:4:12");
    CHECK(r.diagnostics[0].message == "syntax error: unexpected `x`");
}

// The grammar lists the names a formula may read twice, in `name` and in
// nameExpr (a rule there would cost a parse-tree node per name): the lists
// must agree, and each of those keywords reads as a name in a formula.
TEST_CASE("syntax: a formula reads every declaration keyword as a name, as `name` takes them", "[syntax]") {
    std::ifstream in(std::string(OPREC_SOURCE_DIR) + "/grammar/Rec.g4");
    std::ostringstream text;
    text << in.rdbuf();
    const std::string grammar = text.str();
    const auto words = [](const std::string& part) {
        std::set<std::string> out;
        const std::regex quoted("'([A-Za-z_]+)'|\\bNAME\\b");
        for (auto m = std::sregex_iterator(part.begin(), part.end(), quoted); m != std::sregex_iterator(); ++m)
            out.insert((*m)[1].matched ? (*m)[1].str() : "NAME");
        return out;
    };
    const std::size_t rule = grammar.find("\nname ");
    REQUIRE(rule != std::string::npos);
    const std::set<std::string> in_name = words(grammar.substr(rule, grammar.find(';', rule) - rule));
    const std::size_t label = grammar.find("# nameExpr");
    REQUIRE(label != std::string::npos);
    const std::size_t open = grammar.rfind("| (NAME", label);
    REQUIRE(open != std::string::npos);
    const std::set<std::string> in_expr = words(grammar.substr(open, label - open));
    CHECK(in_name.size() > 20);
    CHECK(in_name == in_expr);
    for (const std::string& word : in_name) {
        if (word == "NAME") continue;
        INFO(word);
        CHECK(refusal(word + " + 1").find("E0001") == std::string::npos);
    }
}
