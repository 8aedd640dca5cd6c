// Every load check of the language, one test each: the diagnostic's code,
// its message and its place (file:line:col), on a small records text. The
// vocabulary is stated in the text itself, so the places do not move when
// stdlib/ grows; the import tests use the real search path.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "check/loader.h"
#include "diag/diagnostic.h"
#include "support/temp_dir.h"

using namespace oprec;

namespace {

LoadOptions stdlib_only() { return {{OPREC_TEST_DATA "/../stdlib"}}; }

// A whole records file, 12 lines: what follows it starts on line 13.
const std::string kBase =
    "switches attBMM, softmax, attUp\n"          //  1
    "layerparts attention, ffn\n"                //  2
    "opvector attMM, attBMM, softmax, ffMM\n"    //  3
    "op attMM\n"                                 //  4
    "op attBMM switch attBMM needs attMM\n"      //  5
    "op softmax switch softmax needs attBMM\n"   //  6
    "op ffMM\n"                                  //  7
    "part attUp of attMM switch attUp\n"         //  8
    "slot qkv in attention {\n"                  //  9
    "    bytes = s * total\n"                    // 10
    "    attMM = h\n"                            // 11
    "}\n";                                       // 12

LoadResult load(const std::string& text) { return load_text(text, "test.rec", stdlib_only()); }

// One line per diagnostic: "where: severity: message [CODE]", the way a
// person reads them, so a test states code, message and place at once.
std::string line(const Diagnostic& d, const SourceMap& sources) {
    return sources.where(d.span) + ": " + severity_name(d.severity) + ": " + d.message + " [" + d.code + "]";
}

std::vector<std::string> lines(const LoadResult& r) {
    std::vector<std::string> out;
    for (const Diagnostic& d : r.diagnostics) out.push_back(line(d, r.sources));
    return out;
}

// The notes of the only diagnostic, as "where: message" (or the message alone).
std::vector<std::string> notes(const LoadResult& r) {
    REQUIRE(r.diagnostics.size() == 1);
    std::vector<std::string> out;
    for (const Note& n : r.diagnostics[0].notes)
        out.push_back(n.span.known() ? r.sources.where(n.span) + ": " + n.message : n.message);
    return out;
}

std::string fix(const LoadResult& r) {
    REQUIRE(r.diagnostics.size() == 1);
    REQUIRE(r.diagnostics[0].fix.has_value());
    return r.diagnostics[0].fix->replacement;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("checks: the base text loads with no diagnostic", "[checks]") {
    const LoadResult r = load(kBase);
    CHECK(lines(r) == Lines{});
    REQUIRE(r.ok());
    CHECK(r.program->records.size() == 5);
    CHECK(r.program->slots.size() == 1);
}

// ---- the front end: E0001 .. E0003 -----------------------------------------

TEST_CASE("checks E0001: an unknown keyword is a syntax error", "[checks]") {
    const LoadResult r = load(kBase + "opp ffAct\n");
    CHECK(!r.ok());
    CHECK(lines(r).at(0) == "test.rec:13:1: error: syntax error: unexpected `opp` [E0001]");
}

TEST_CASE("checks E0001: an unknown vocabulary keyword is a syntax error", "[checks]") {
    const LoadResult r = load(kBase + "switchs gather\n");
    CHECK(!r.ok());
    CHECK(lines(r).at(0) == "test.rec:13:1: error: syntax error: unexpected `switchs` [E0001]");
}

TEST_CASE("checks E0001: a syntax error reports nothing the checks would say of an emptied file", "[checks]") {
    // The file that failed to parse is empty to the checker: it would find
    // no vocabulary and no ops. Those are not the user's errors.
    const LoadResult r = load(kBase + "opp ffAct\n");
    CHECK(lines(r) == Lines{"test.rec:13:1: error: syntax error: unexpected `opp` [E0001]"});
}

TEST_CASE("checks E0001: a formula continues on the next line only inside parentheses", "[checks]") {
    const LoadResult r = load(kBase +
                              "slot ffn in ffn {\n"
                              "    bytes = total +\n"
                              "        s\n"
                              "}\n");
    CHECK(lines(r) == Lines{"test.rec:14:20: error: syntax error: unexpected end of line [E0001]"});
    CHECK(notes(r) == Lines{"a formula continues on the next line only inside parentheses"});
    // The same formula in parentheses is one logical line.
    const LoadResult ok = load(kBase +
                               "slot ffn in ffn {\n"
                               "    bytes = (total +\n"
                               "        s)\n"
                               "}\n");
    CHECK(lines(ok) == Lines{});
}

TEST_CASE("checks E0001: a line that ends early outside a formula gets no note on formulas", "[checks]") {
    const LoadResult r = load(kBase + "op ffAct switch\n");
    CHECK(lines(r) == Lines{"test.rec:13:16: error: syntax error: unexpected end of line [E0001]"});
    CHECK(notes(r).empty());
}

TEST_CASE("checks E0001: binary junk stops after a hundred errors, and the reading after a thousand characters", "[checks]") {
    const LoadResult r = load(kBase + std::string(5000, '$') + "\n");
    REQUIRE(r.diagnostics.size() >= 2);
    CHECK(r.diagnostics.size() <= 102);
    CHECK(lines(r).at(0) == "test.rec:13:1: error: syntax error: unexpected `$` [E0001]");
    CHECK(r.diagnostics.back().message ==
          "syntax error: more than 1000 characters the language does not have; stopped reading here");
}

TEST_CASE("checks E0001: an unclosed bracket is reported where it opens", "[checks]") {
    const LoadResult r = load(kBase +
                              "slot ffn in ffn {\n"
                              "    bytes = max(total, (s\n"
                              "}\n");
    CHECK(!r.ok());
    CHECK(lines(r).at(0) == "test.rec:14:24: error: syntax error: `(` was never closed [E0001]");
}

TEST_CASE("checks E0001: junk after an unclosed bracket: the bracket is the error", "[checks]") {
    // The reading stops at the thousandth junk character; the bracket left
    // open before it is still what is wrong.
    const LoadResult r = load(kBase + "default a = (1 +\n" + std::string(1001, '$') + "\n");
    CHECK(lines(r) == Lines{"test.rec:13:13: error: syntax error: `(` was never closed [E0001]"});
}

TEST_CASE("checks E0001: an unclosed bracket at the end keeps the syntax errors before it", "[checks]") {
    // It once hid them: a file fixed at its end still failed at its start.
    const LoadResult r = load(kBase + "default a = 1 $\ndefault b = 2\ndefault c = ((3\n");
    CHECK(lines(r) == Lines{"test.rec:13:15: error: syntax error: unexpected `$` [E0001]",
                            "test.rec:15:14: error: syntax error: `(` was never closed [E0001]"});
    // Two left open: what follows the first is read inside it, so nothing after it is
    // reported, and the first is named too.
    const LoadResult two = load(kBase + "default a = (1 +\ndefault b = 2\ndefault d = (4\n");
    REQUIRE(two.diagnostics.size() == 1);
    CHECK(two.diagnostics[0].message == "syntax error: `(` was never closed");
    CHECK(two.diagnostics[0].span.line == 15);
    REQUIRE(two.diagnostics[0].notes.size() == 1);
    CHECK(two.diagnostics[0].notes[0].message == "the first `(` still open");
    CHECK(two.diagnostics[0].notes[0].span.line == 13);
}

TEST_CASE("checks: a file that starts with a UTF-8 byte order mark loads", "[checks]") {
    const LoadResult r = load("\xEF\xBB\xBF" + kBase + "default a = 1\n");
    CHECK(r.ok());
    CHECK(lines(r) == Lines{});
}

TEST_CASE("checks E0002: a file that is not UTF-8 is refused at its first bad byte", "[checks]") {
    const LoadResult r = load(kBase + "# caf\xe9 au lait\n");
    CHECK(!r.ok());
    CHECK(lines(r) == Lines{"test.rec:13:6: error: the file is not valid UTF-8 text (byte 0xe9) [E0002]"});
}

TEST_CASE("checks E0002: a NUL byte is binary, not text", "[checks]") {
    const LoadResult r = load(kBase + std::string("op\0x\n", 5));
    CHECK(!r.ok());
    CHECK(lines(r).at(0) == "test.rec:13:3: error: the file is not valid UTF-8 text (byte 0x00) [E0002]");
}

TEST_CASE("checks E0003: brackets nested too deep", "[checks]") {
    const std::string deep = std::string(250, '(') + "s" + std::string(250, ')');
    const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total * " + deep + "\n}\n");
    CHECK(!r.ok());
    // The 201st bracket is the first too many: column 21 is the first.
    CHECK(lines(r).at(0) == "test.rec:14:221: error: brackets nested deeper than 200 levels [E0003]");
}

TEST_CASE("checks E0003: unary signs and powers nested too deep", "[checks]") {
    SECTION("signs") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total * " + std::string(250, '-') + "s\n}\n");
        CHECK(!r.ok());
        REQUIRE(!r.diagnostics.empty());
        CHECK(r.diagnostics[0].code == "E0003");
        CHECK(r.sources.where(r.diagnostics[0].span).rfind("test.rec:14:", 0) == 0);
        CHECK(r.diagnostics[0].message == "expression nested deeper than 200 levels");
    }
    SECTION("powers") {
        std::string chain;
        for (int i = 0; i < 250; ++i) chain += "2 ** ";
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total * " + chain + "s\n}\n");
        CHECK(!r.ok());
        REQUIRE(!r.diagnostics.empty());
        CHECK(r.diagnostics[0].code == "E0003");
        CHECK(r.sources.where(r.diagnostics[0].span).rfind("test.rec:14:", 0) == 0);
        CHECK(r.diagnostics[0].message == "expression nested deeper than 200 levels");
    }
}

// ---- declarations: E0101 .. E0108 --------------------------------------------

TEST_CASE("checks E0101: a duplicate declaration, with a note at the first", "[checks]") {
    SECTION("an op") {
        const LoadResult r = load(kBase + "op attBMM\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: op `attBMM` is declared twice [E0101]"});
        CHECK(notes(r) == Lines{"test.rec:5:4: first declared here"});
    }
    SECTION("a slot") {
        const LoadResult r = load(kBase + "slot qkv in ffn {\n    bytes = total\n}\n");
        CHECK(lines(r) == Lines{"test.rec:13:6: error: slot `qkv` is declared twice [E0101]"});
        CHECK(notes(r) == Lines{"test.rec:9:6: first declared here"});
    }
    SECTION("an entry of a slot") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total\n    ffMM = h\n    ffMM = s\n}\n");
        CHECK(lines(r) == Lines{"test.rec:16:5: error: the entry `ffMM` is declared twice [E0101]"});
        CHECK(notes(r) == Lines{"test.rec:15:5: first declared here"});
    }
    SECTION("a slot's formula") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total\n    bytes = 2 * total\n}\n");
        CHECK(lines(r) == Lines{"test.rec:15:5: error: the formula `bytes` is declared twice [E0101]"});
    }
    SECTION("a fn") {
        const LoadResult r = load(kBase + "fn f(x) = x\nfn f(y) = y\n");
        CHECK(lines(r) == Lines{"test.rec:14:4: error: fn `f` is declared twice [E0101]"});
        CHECK(notes(r) == Lines{"test.rec:13:4: first declared here"});
    }
    SECTION("a fn's parameter") {
        const LoadResult r = load(kBase + "fn f(x, x) = x\n");
        CHECK(lines(r) == Lines{"test.rec:13:9: error: parameter `x` is declared twice [E0101]"});
    }
    SECTION("a default") {
        const LoadResult r = load(kBase + "default n = 0\ndefault n = 1\n");
        CHECK(lines(r) == Lines{"test.rec:14:9: error: default `n` is declared twice [E0101]"});
    }
    SECTION("a vocabulary") {
        const LoadResult r = load(kBase + "layerparts norm\n");
        CHECK(lines(r) == Lines{"test.rec:13:1: error: `layerparts` is declared twice [E0101]"});
        CHECK(notes(r) == Lines{"test.rec:2:1: first declared here"});
    }
    SECTION("a name within a vocabulary") {
        const std::string text = "switches attBMM, softmax, attBMM, attUp\n" + kBase.substr(kBase.find('\n') + 1);
        const LoadResult r = load(text);
        CHECK(lines(r) == Lines{"test.rec:1:27: error: the name `attBMM` is declared twice [E0101]"});
    }
    SECTION("a clause of an op") {
        std::string text = kBase;
        text.replace(text.find("op ffMM\n"), 8, "op ffMM comm comm\n");
        const LoadResult r = load(text);
        CHECK(lines(r) == Lines{"test.rec:7:14: error: `ffMM` states this clause twice [E0101]"});
    }
    SECTION("a field") {
        const LoadResult r = load(kBase + "field h : int\nfield h : float\n");
        CHECK(lines(r) == Lines{"test.rec:14:7: error: field `h` is declared twice [E0101]"});
    }
}

TEST_CASE("checks E0102: records that state no vocabulary", "[checks]") {
    const LoadResult r = load("op attMM\n");
    CHECK(lines(r) == Lines{
        "test.rec:1:1: error: no `switches` declaration: the records must state their vocabulary "
        "(import \"vocabulary.rec\" from the standard library) [E0102]",
        "test.rec:1:1: error: no `layerparts` declaration: the records must state their vocabulary "
        "(import \"vocabulary.rec\" from the standard library) [E0102]",
        "test.rec:1:1: error: no `opvector` declaration: the records must state their vocabulary "
        "(import \"vocabulary.rec\" from the standard library) [E0102]",
    });
}

TEST_CASE("checks E0103: an unknown op", "[checks]") {
    SECTION("declared, but not in the op vector") {
        const LoadResult r = load(kBase + "op ffMMM\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: unknown op `ffMMM`: it is not in the op vector [E0103]"});
        CHECK(fix(r) == "ffMM");
    }
    SECTION("needed, but neither an op nor a part") {
        std::string text = kBase;
        text.replace(text.find("needs attBMM"), 12, "needs attBMX");
        const LoadResult r = load(text);
        CHECK(lines(r) == Lines{"test.rec:6:33: error: `softmax` needs `attBMX`, which is neither an op nor a part [E0103]"});
        CHECK(fix(r) == "attBMM");
    }
}

TEST_CASE("checks E0104: an op of the op vector not stated", "[checks]") {
    std::string text = kBase;
    text.erase(text.find("op ffMM\n"), 8);
    const LoadResult r = load(text);
    CHECK(lines(r) == Lines{"test.rec:3:34: error: op `ffMM` of the op vector is missing: every records file "
                            "states each op of the op vector (declare `op ffMM`) [E0104]"});
}

TEST_CASE("checks E0105: an unknown switch", "[checks]") {
    SECTION("of an op") {
        std::string text = kBase;
        text.replace(text.find("op ffMM\n"), 8, "op ffMM switch softmx\n");
        const LoadResult r = load(text);
        CHECK(lines(r) == Lines{"test.rec:7:16: error: unknown switch `softmx` [E0105]"});
        CHECK(fix(r) == "softmax");
    }
    SECTION("of a part") {
        std::string text = kBase;
        text.replace(text.find("switch attUp"), 12, "switch attUpp");
        const LoadResult r = load(text);
        CHECK(lines(r) == Lines{"test.rec:8:28: error: unknown switch `attUpp` [E0105]"});
        CHECK(fix(r) == "attUp");
    }
    SECTION("an op named by its switch: the switch must be one of the vocabulary") {
        std::string text = kBase;
        text.replace(text.find("op attMM\n"), 9, "op attMM switch attMM\n");
        const LoadResult r = load(text);
        CHECK(lines(r) == Lines{"test.rec:4:17: error: unknown switch `attMM` [E0105]"});
    }
}

TEST_CASE("checks E0106: an unknown layer part", "[checks]") {
    const LoadResult r = load(kBase + "slot ffn in fnn {\n    bytes = total\n}\n");
    CHECK(lines(r) == Lines{"test.rec:13:13: error: unknown layer part `fnn` [E0106]"});
    CHECK(fix(r) == "ffn");
}

TEST_CASE("checks E0107: a part whose `of` is not an op", "[checks]") {
    const LoadResult r = load(kBase + "part brain of attMN switch attUp\n");
    CHECK(lines(r) == Lines{"test.rec:13:15: error: part `brain` is part of `attMN`, which is not an op [E0107]"});
    CHECK(fix(r) == "attMM");
}

TEST_CASE("checks E0107: a part with no switch", "[checks]") {
    const LoadResult r = load(kBase + "part heads of attMM\n");
    CHECK(lines(r) == Lines{
        "test.rec:13:6: error: part `heads` has no switch: a part is what a switch of its own drops [E0107]"});
}

TEST_CASE("checks E0107: a part named as an op", "[checks]") {
    SECTION("an op of the op vector the file does not declare") {
        std::string text = kBase;
        text.erase(text.find("op ffMM\n"), 8);
        const LoadResult r = load(text + "part ffMM of attMM switch attUp\n");
        // Both errors, in the checker's order: the missing op first.
        CHECK(lines(r) == Lines{
            "test.rec:3:34: error: op `ffMM` of the op vector is missing: every records file states each op "
            "of the op vector (declare `op ffMM`) [E0104]",
            "test.rec:12:6: error: `ffMM` is an op of the op vector and cannot be a part [E0107]",
        });
    }
    SECTION("an op the file declares: the name is taken") {
        const LoadResult r = load(kBase + "part ffMM of attMM switch attUp\n");
        CHECK(lines(r) == Lines{"test.rec:13:6: error: part `ffMM` is declared twice [E0101]"});
        CHECK(notes(r) == Lines{"test.rec:7:4: first declared here"});
    }
}

TEST_CASE("checks E0108: a slot naming an op or part with no record", "[checks]") {
    const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total\n    ffAct = h\n}\n");
    CHECK(lines(r) == Lines{"test.rec:15:5: error: slot `ffn` names `ffAct`, which is neither an op nor a part [E0108]"});
}

// ---- formulas: E0109 .. E0118 ---------------------------------------------------

TEST_CASE("checks E0109: a formula that does not read `total`", "[checks]") {
    const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = s * b\n    ffMM = h\n}\n");
    CHECK(lines(r) == Lines{"test.rec:14:13: error: the formula of slot `ffn` does not read `total`, "
                            "the elements its ops keep [E0109]"});
}

TEST_CASE("checks E0110: a string, and what else is not a number", "[checks]") {
    SECTION("a string") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total\n    ffMM = 'h'\n}\n");
        CHECK(lines(r) == Lines{
            "test.rec:15:12: error: a string is not allowed in a formula: a formula is arithmetic on numbers [E0110]"});
    }
    SECTION("None") {
        const LoadResult r = load(kBase + "default n = None\n");
        CHECK(lines(r).at(0) ==
              "test.rec:13:13: error: None is not allowed in a formula: a formula is arithmetic on numbers [E0110]");
    }
    SECTION("an imaginary number in a `when`") {
        const LoadResult r = load(kBase + "slot ffn in ffn when h > 2j {\n    bytes = total\n}\n");
        CHECK(lines(r) == Lines{"test.rec:13:26: error: an imaginary number is not allowed in a formula: "
                                "a formula is arithmetic on numbers [E0110]"});
    }
    SECTION("an integer beyond 64 bits") {
        const LoadResult r = load(kBase + "fn f(x) = x * 99999999999999999999\n");
        CHECK(lines(r) == Lines{"test.rec:13:15: error: an integer literal beyond 64 bits is not allowed in a "
                                "formula: a formula is arithmetic on numbers [E0110]"});
    }
    SECTION("a call of a call's result") {
        const LoadResult r = load(kBase + "fn f(x) = x\nfn g(x) = f(x)(x)\n");
        CHECK(lines(r) == Lines{"test.rec:14:11: error: a call of something other than max, min or a fn is not "
                                "allowed in a formula: a formula is arithmetic on numbers [E0110]"});
    }
}

TEST_CASE("checks E0111: a call of anything but max, min or a fn", "[checks]") {
    const LoadResult r = load(kBase + "fn area(x) = x * x\nslot ffn in ffn {\n    bytes = total * open(s)\n}\n");
    CHECK(lines(r) == Lines{"test.rec:15:21: error: `open` is not a function: a formula may call max, min "
                            "and the fns the records declare [E0111]"});
    SECTION("a misspelt fn gets a suggestion") {
        const LoadResult near = load(kBase + "fn area(x) = x * x\nslot ffn in ffn {\n    bytes = total * aera(s)\n}\n");
        CHECK(fix(near) == "area");
    }
}

TEST_CASE("checks E0112: a call with the wrong number of arguments", "[checks]") {
    SECTION("a fn") {
        const LoadResult r = load(kBase + "fn f(x) = x\nslot ffn in ffn {\n    bytes = total * f(s, b)\n}\n");
        CHECK(lines(r) == Lines{"test.rec:15:21: error: `f` takes 1 argument, got 2 [E0112]"});
    }
    SECTION("a fn of two") {
        const LoadResult r = load(kBase + "fn f(x, y) = x\nslot ffn in ffn {\n    bytes = total * f(s)\n}\n");
        CHECK(lines(r) == Lines{"test.rec:15:21: error: `f` takes 2 arguments, got 1 [E0112]"});
    }
    SECTION("max of one number") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = max(total)\n}\n");
        CHECK(lines(r) == Lines{"test.rec:14:13: error: `max` takes two or more numbers, got 1 [E0112]"});
    }
    SECTION("min of none") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total * min()\n}\n");
        CHECK(lines(r) == Lines{"test.rec:14:21: error: `min` takes two or more numbers, got 0 [E0112]"});
    }
}

TEST_CASE("checks E0113: `total` outside a slot's formula", "[checks]") {
    SECTION("in an entry") {
        const LoadResult r = load(kBase + "slot ffn in ffn {\n    bytes = total\n    ffMM = total\n}\n");
        CHECK(lines(r) == Lines{"test.rec:15:12: error: `total` has a value only in a slot's `bytes` formula [E0113]"});
    }
    SECTION("in a `when`") {
        const LoadResult r = load(kBase + "slot ffn in ffn when total > 0 {\n    bytes = total\n}\n");
        CHECK(lines(r) == Lines{"test.rec:13:22: error: `total` has a value only in a slot's `bytes` formula [E0113]"});
    }
    SECTION("in a fn") {
        const LoadResult r = load(kBase + "fn f(x) = x * total\n");
        CHECK(lines(r) == Lines{"test.rec:13:15: error: `total` has a value only in a slot's `bytes` formula [E0113]"});
    }
}

TEST_CASE("checks E0114: a recursive fn", "[checks]") {
    SECTION("calling itself") {
        const LoadResult r = load(kBase + "fn f(x) = x + f(x - 1)\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: fn `f` calls itself: a fn may not recurse [E0114]"});
        CHECK(notes(r) == Lines{"test.rec:13:15: the call that closes the cycle"});
    }
    SECTION("through another fn") {
        const LoadResult r = load(kBase + "fn f(x) = g(x)\nfn g(y) = f(y) + 1\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: fn `f` calls itself through other fns: a fn may not recurse [E0114]"});
        CHECK(notes(r) == Lines{"test.rec:14:11: the call that closes the cycle"});
    }
}

TEST_CASE("checks E0115: a default that is not a constant", "[checks]") {
    const LoadResult r = load(kBase + "default n_qknorm = h / 2\n");
    CHECK(lines(r) == Lines{"test.rec:13:20: error: the default of `n_qknorm` is not a constant number [E0115]"});
    // A constant expression is a constant.
    CHECK(lines(load(kBase + "default n_qknorm = 2 ** 3 - 1\n")) == Lines{});
}

TEST_CASE("checks E0116: a slot with no formula", "[checks]") {
    const LoadResult r = load(kBase + "slot ffn in ffn {\n    ffMM = h\n}\n");
    CHECK(lines(r) == Lines{"test.rec:13:6: error: slot `ffn` has no `bytes = ...` formula [E0116]"});
}

TEST_CASE("checks E0117: a fn that cannot be declared", "[checks]") {
    SECTION("named as a builtin") {
        const LoadResult r = load(kBase + "fn max(x, y) = x\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: `max` is built in and cannot be declared [E0117]"});
    }
    SECTION("named total") {
        const LoadResult r = load(kBase + "fn total(x) = x\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: `total` is built in and cannot be declared [E0117]"});
    }
    SECTION("with more than 16 parameters") {
        std::string params;
        for (int i = 0; i < 17; ++i) params += (i ? ", p" : "p") + std::to_string(i);
        const LoadResult r = load(kBase + "fn wide(" + params + ") = p0\n");
        CHECK(lines(r) == Lines{"test.rec:13:4: error: `wide` takes more than 16 parameters [E0117]"});
    }
}

TEST_CASE("checks E0118: a field of an unknown type", "[checks]") {
    const LoadResult r = load(kBase + "field h : int | flaot, \"elements\", \"hidden width\"\n");
    CHECK(lines(r) == Lines{"test.rec:13:17: error: unknown type `flaot`: a field is int, float, bool or str [E0118]"});
    CHECK(fix(r) == "float");
}

// ---- imports: E0120 .. E0122 -----------------------------------------------------

TEST_CASE("checks E0120: a missing import, naming where it was searched", "[checks]") {
    const LoadResult r = load("import \"vocabulary.rec\"\nimport \"nowhere.rec\"\n");
    CHECK(lines(r) == Lines{"test.rec:2:1: error: no file `nowhere.rec` to import [E0120]"});
    CHECK(notes(r) == Lines{"searched in: ., " OPREC_TEST_DATA "/../stdlib"});
}

TEST_CASE("checks E0121: an import cycle", "[checks]") {
    testing::TempDir dir;
    dir.write("a.rec", "import \"b.rec\"\n");
    dir.write("b.rec", "# b\nimport \"a.rec\"\n");
    const LoadResult r = load_file(dir / "a.rec", stdlib_only());
    CHECK(!r.ok());
    REQUIRE(!r.diagnostics.empty());
    const Diagnostic& d = r.diagnostics[0];
    CHECK(d.code == "E0121");
    CHECK(d.message == "import cycle: `a.rec` imports itself through this import");
    CHECK(r.sources.where(d.span) == (dir / "b.rec").string() + ":2:1");
    // The note names the import that brought b.rec in.
    REQUIRE(d.notes.size() == 1);
    CHECK(r.sources.where(d.notes[0].span) == (dir / "a.rec").string() + ":1:1");
}

TEST_CASE("checks E0122: an import that cannot be read", "[checks]") {
    testing::TempDir dir;
    std::filesystem::create_directory(dir / "sub.rec");
    const auto main = dir.write("main.rec", "import \"sub.rec\"\n");
    const LoadResult r = load_file(main, stdlib_only());
    CHECK(!r.ok());
    REQUIRE(!r.diagnostics.empty());
    CHECK(line(r.diagnostics[0], r.sources) ==
          main.string() + ":1:1: error: cannot read `" + (dir / "sub.rec").string() + "`: it is a directory [E0122]");
}

TEST_CASE("checks E0122: a records file that cannot be read", "[checks]") {
    testing::TempDir dir;
    const LoadResult r = load_file(dir / "absent.rec", stdlib_only());
    CHECK(!r.ok());
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].code == "E0122");
    CHECK(r.diagnostics[0].message == "cannot read `" + (dir / "absent.rec").string() + "`: it cannot be opened");
}

TEST_CASE("imports: the importing file's folder first, then the search path in order", "[checks]") {
    testing::TempDir dir;
    // A vocabulary beside the records shadows the standard library's.
    dir.write("vocabulary.rec", "switches s1\nlayerparts attention\nopvector only\n");
    const auto main = dir.write("main.rec",
                                "import \"vocabulary.rec\"\nop only switch s1\n"
                                "slot x in attention {\n    bytes = total\n    only = 1\n}\n");
    const LoadResult r = load_file(main, stdlib_only());
    CHECK(lines(r) == Lines{});
    REQUIRE(r.ok());
    CHECK(r.program->op_vector == std::vector<std::string>{"only"});

    // Without it, the search path's folders in order: the first that has the file.
    testing::TempDir first, second;
    first.write("extra.rec", "fn twice(x) = 2 * x\n");
    second.write("extra.rec", "fn twice(x) = 3 * x\nfn thrice(x) = 3 * x\n");
    const LoadResult found = load_text(kBase + "import \"extra.rec\"\n", "test.rec",
                                       {{OPREC_TEST_DATA "/../stdlib", first.path(), second.path()}});
    CHECK(lines(found) == Lines{});
    REQUIRE(found.ok());
    REQUIRE(found.program->code.fns.size() == 1);
    CHECK(found.program->code.fns[0].name == "twice");
}

TEST_CASE("checks: a diagnostic in an imported file names the import that brought it in", "[checks]") {
    testing::TempDir dir;
    dir.write("lib.rec", "fn f(x) = open(x)\n");
    const LoadResult r = load_text(kBase + "import \"lib.rec\"\n", "test.rec", {{dir.path()}});
    CHECK(lines(r) == Lines{(dir / "lib.rec").string() + ":1:11: error: `open` is not a function: a formula may "
                            "call max, min and the fns the records declare [E0111]"});
    CHECK(notes(r) == Lines{"test.rec:13:1: `" + (dir / "lib.rec").string() + "` was imported here"});
}

TEST_CASE("checks: one run reports every error it finds", "[checks]") {
    const LoadResult r = load(kBase + "op foo\nslot ffn in fnn {\n    bytes = s\n}\n");
    CHECK(lines(r) == Lines{
        "test.rec:13:4: error: unknown op `foo`: it is not in the op vector [E0103]",
        "test.rec:14:13: error: unknown layer part `fnn` [E0106]",
        "test.rec:15:13: error: the formula of slot `ffn` does not read `total`, the elements its ops keep [E0109]",
    });
}

TEST_CASE("checks: the rendered diagnostic quotes the line and underlines the place", "[checks]") {
    const LoadResult r = load(kBase + "slot ffn in fnn {\n    bytes = total\n}\n");
    const std::string text = render_all(r.diagnostics, r.sources);
    CHECK(text.rfind("test.rec:13:13: error: unknown layer part `fnn` [E0106]\n"
                     "   13 | slot ffn in fnn {\n"
                     "      |             ^~~\n", 0) == 0);
    CHECK(text.find("did you mean `ffn`?") != std::string::npos);
}
