// The hand-written lexer (src/syntax/lexer.h) against the lexer ANTLR
// generates from the grammar's lexer rules, their definition: the same
// tokens (type, text, place, channel) on every text.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>

#include "eval/expression.h"
#include "exercise.h"
#include "support/temp_dir.h"
#include "value/format.h"

using namespace oprec;
namespace fs = std::filesystem;

TEST_CASE("lexer: the grammar's tokens for the shipped records, the library and the test inputs", "[syntax][lexer]") {
    int files = 0;
    for (const char* folder : {"records", "stdlib", "tests/lint", "fuzz/seeds", "fuzz/regressions"}) {
        for (const auto& entry : fs::directory_iterator(fs::path(OPREC_SOURCE_DIR) / folder)) {
            if (!entry.is_regular_file() || entry.path().extension() == ".md") continue;
            INFO(entry.path().string());
            CHECK(lexer_disagreement(testing::read_text(entry.path())) == std::nullopt);
            ++files;
        }
    }
    CHECK(files >= 10);
}

TEST_CASE("lexer: every form of token, and what is not one, as the grammar has them", "[syntax][lexer]") {
    const char* texts[] = {
        "slot qkv in attention when t > 1 {\n  attMM = 2 * h * (b +\n   s) / t\n}\n",
        "x = 1_000 + 0 + 0.5 + 1.25e-3 + 2E+10 + 3e5 + 10.0",
        "a // b ** c % d != e == f <= g >= h < i > j",
        "iffy + notx + ands + orr + elsey + Truex + None_ + ...",
        "import \"vocabulary.rec\"\nfield h: int, 'elements', \"the hidden size \\\" quoted\"",
        "# a comment with é and 中文\nx = 1  # trailing, tab\there\n",
        "s = 'é中文😀' + \"\\é\"",
        "a = (1,\r\n 2)\r\nb = 3\r\n",
        "long = 1 + \\\n  2\n",
        "\f\t x\t=\f1",
        "", "\n\n\n", "x = )",
        // numbers: the longest of INT, FLOAT, IMAG, the first rule on a tie
        "0x1F", "0o17", "0b101", "0X_f", "0x", "0b2", "0o8", "1j", "2.5J", "1e5j", ".5j", "1.j", "00", "0_0", "0_1",
        "012", "012.5", "012e1", "1.", "1.e5", "1.e", ".5", "1e", "1e+", "1E-7", "1__0", "1_", "1..2", "1...",
        "...5", "..5", ".", "..", "....", "1.5.3", "1abc", "1_a", "9.9e9.9",
        // strings, prefixed or not, closed or not, an escaped line end inside
        "r'raw'", "b\"bytes\"", "Rb'x'", "fR'x'", "ur'x'", "rr'x'", "xr'x'", "u'x'", "'open", "\"open",
        "'a\\\nb'", "'a\\\r\nb'", "'a\\'", "'\\'", "r'", "'é\\中'",
        // characters the language does not have, continuations
        "[1]", "a ! b", "$", "\\ x", "\\", "\\ \t\n", "\\\r\ny", "é", "(1", "x\ry", "a;b", "@`~",
        // a byte order mark: dropped at the start (as ANTLR's input stream drops it), a character elsewhere
        "\xEF\xBB\xBF", "\xEF\xBB\xBFslot x", "\xEF\xBB\xBF\xEF\xBB\xBF" "a", "a\xEF\xBB\xBF",
    };
    for (const char* text : texts) {
        INFO(text);
        CHECK(lexer_disagreement(text) == std::nullopt);
    }
}

TEST_CASE("lexer: random texts of the characters tokens turn on", "[syntax][lexer]") {
    const std::string alphabet[] = {"0", "1", "7", "9", "_", ".", "e", "E", "j", "x", "o", "b", "r", "R", "f", "u",
                                    "+", "-", "'", "\"", "\\", "\n", "\r\n", "#", " ", "\t", "(", ")", "{", "}",
                                    "!", "=", "<", "*", "/", "é", "中", "a", "if", "not", "J", "X"};
    std::mt19937 rng(20261206);
    std::uniform_int_distribution<std::size_t> pick(0, std::size(alphabet) - 1), length(1, 24);
    int compared = 0;
    for (int k = 0; k < 20000; ++k) {
        std::string text;
        for (std::size_t n = length(rng); n > 0; --n) text += alphabet[pick(rng)];
        INFO(text);
        CHECK(lexer_disagreement(text) == std::nullopt);
        ++compared;
    }
    CHECK(compared == 20000);
}

TEST_CASE("lexer: the rarer number forms are Python's values", "[syntax][lexer]") {
    const auto calc = [](const std::string& text) {
        return repr(evaluate(compile_expression(text), [](std::string_view) { return std::nullopt; }));
    };
    CHECK(calc("0x1F + 0o17 + 0b101") == "51");
    CHECK(calc("1. + .5") == "1.5");
    CHECK(calc("1_000 * 0_0") == "0");
    CHECK(calc("\xEF\xBB\xBF" "1 + 2") == "3");
}
