// The hand-written scanner of the parser's fast path against ANTLR's lexer:
// the same tokens wherever it takes a text, a refusal (and so ANTLR's path)
// for the rarer forms, and the same parse either way.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "check/loader.h"
#include "eval/expression.h"
#include "syntax/scanner.h"
#include "value/format.h"

using namespace oprec;
namespace fs = std::filesystem;

namespace {

// Whether the scanner takes the whole text.
bool scans(const std::string& text) {
    Scanner scanner(text, 200);
    try {
        while (scanner.next().getType() != antlr4::Token::EOF) {
        }
    } catch (const ScanRefused&) {
        return false;
    }
    return true;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("scanner: ANTLR's tokens for the shipped records, the library and the test inputs", "[syntax][scanner]") {
    int taken = 0;
    for (const char* folder : {"records", "stdlib", "tests/lint", "fuzz/seeds", "fuzz/regressions"}) {
        for (const auto& entry : fs::directory_iterator(fs::path(OPREC_SOURCE_DIR) / folder)) {
            if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
            const std::string text = read(entry.path());
            INFO(entry.path().string());
            CHECK(scanner_disagreement(text) == std::nullopt);
            if (scans(text)) ++taken;
        }
    }
    CHECK(taken >= 8);  // the shipped records and library among them
    CHECK(scans(read(fs::path(OPREC_SOURCE_DIR) / "records/op_records.rec")));
}

TEST_CASE("scanner: the forms it takes give ANTLR's tokens", "[syntax][scanner]") {
    const char* texts[] = {
        "slot qkv in attention when t > 1 {\n  attMM = 2 * h * (b +\n   s) / t\n}\n",
        "x = 1_000 + 0 + 0.5 + 1.25e-3 + 2E+10 + 3e5 + 10.0",
        "a // b ** c % d != e == f <= g >= h < i > j",
        "iffy + notx + ands + orr + elsey + Truex + None_ + ...",
        "not a and b or c if d else e",
        "import \"vocabulary.rec\"\nfield h: int, 'elements', \"the hidden size \\\" quoted\"",
        "# a comment with é and 中文\nx = 1  # trailing, tab\there\n",
        "s = 'é中文😀' + \"\\é\"",
        "a = (1,\r\n 2)\r\nb = 3\r\n",
        "long = 1 + \\\n  2\n",
        "\f\t x\t=\f1",
        "fn f(a, b,) = a if b else 0",
        "profile llama matches 'llama', \"Llama\" {\n kind dense = 1 2 3\n}",
        "(((((a)))))",
        "",
        "\n\n\n",
        "x = )",  // an unmatched close: the parser's error, not the scanner's
    };
    for (const char* text : texts) {
        INFO(text);
        CHECK(scans(text));
        CHECK(scanner_disagreement(text) == std::nullopt);
    }
}

TEST_CASE("scanner: the rarer forms go to ANTLR's lexer, and parse the same", "[syntax][scanner]") {
    const char* refused[] = {
        "0x1F", "0o17", "0b101", "1j", "2.5J", "00", "0_0", "012", "1.", "1.e5", ".5", "1e", "1__0", "1_",
        "r'raw'", "b\"bytes\"", "'open", "'a\\\nb'", "[1]", "a ! b", "$", "\\ x", "é", "(1", "1..2", "x\ry",
    };
    for (const char* text : refused) {
        INFO(text);
        CHECK_FALSE(scans(text));
    }
    const auto calc = [](const std::string& text) {
        return repr(evaluate(compile_expression(text), [](std::string_view) { return std::nullopt; }));
    };
    CHECK(calc("0x1F + 0o17 + 0b101") == "51");
    CHECK(calc("1. + .5") == "1.5");
}
