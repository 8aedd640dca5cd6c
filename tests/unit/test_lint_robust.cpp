// No input crashes or hangs the front end and the linter: each hostile input
// gives clear diagnostics. The big inputs are generated here, in memory or in
// a temporary folder.
#include <filesystem>
#include <fstream>
#include <random>

#include "lint/output.h"
#include "test_lint_support.h"

using namespace oprec;
using namespace oprec::lint_test;
namespace fs = std::filesystem;

namespace {

std::string repeat(const std::string& s, std::size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

// Every rendering of every diagnostic must work too.
void render_everything(const lint::Report& r) {
    for (const Diagnostic& d : r.diagnostics) CHECK_FALSE(render(d, r.sources).empty());
}

}  // namespace

TEST_CASE("lint robust: an empty file", "[lint][robust]") {
    const auto r = linted("");
    CHECK(codes(r) == "W0116 E0102 E0102 E0102");
    render_everything(r);
    CHECK(codes(linted("\n\n  \n# only a comment\n")) == "W0116 E0102 E0102 E0102");
}

TEST_CASE("lint robust: binary garbage", "[lint][robust]") {
    std::mt19937 random(12345);
    for (int round = 0; round < 20; ++round) {
        std::string junk(4096, '\0');
        for (char& c : junk) c = static_cast<char>(random() & 0xff);
        const auto r = linted(junk);
        REQUIRE_FALSE(with_code(r, "E0002").empty());
        CHECK(r.diagnostics.size() < 200);  // a few clear errors, not one per byte
        render_everything(r);
    }
}

TEST_CASE("lint robust: invalid UTF-8 in code", "[lint][robust]") {
    const std::string text = edit(kClean, "attMM = h\n", "attMM = h\xc3\x28\n");
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0002");
    CHECK(d.message == "the file is not valid UTF-8 text (byte 0xc3)");
    CHECK(d.span.line == pos_of(text, "attMM = h").line);
    CHECK(d.span.col == 14);
    render_everything(r);
    // The bad byte, lexed as `?`, is not also a syntax error at the same place (a NUL said it twice).
    for (const std::string& bad : {std::string("\xc3\x28"), std::string(1, '\0'), std::string("\xff")}) {
        const std::string with = edit(kClean, "attMM = h\n", "attMM = h" + bad + "\n");
        const auto got = linted(with);
        const Diagnostic e = only(got, "E0002");
        for (const Diagnostic& other : got.diagnostics)
            if (other.code == "E0001") CHECK_FALSE((other.span.line == e.span.line && other.span.col == e.span.col));
    }
}

TEST_CASE("lint robust: CRLF line ends and tabs keep positions", "[lint][robust]") {
    std::string text;
    for (char c : edit(edit(kClean, "    ffMM = hff\n", "\tffMM = hff_ex\n"), "    ffAct", "\t \tffAct"))
        text += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0101");
    CHECK(d.span.col == 9);  // a tab is one column
    CHECK(d.span.line == pos_of(edit(kClean, "    ffMM = hff\n", "\tffMM = hff_ex\n"), "hff_ex").line);
    CHECK(spanned(r, d.span) == "hff_ex");
    const std::string shown = render(d, r.sources);
    CHECK(shown.find("| \t       ^~~~~~") != std::string::npos);  // the caret keeps the tab
    CHECK(shown.find('\r') == std::string::npos);
    CHECK(codes(r) == "W0101");
    // A lone CR ends a line as the lexer counts it.
    const auto cr = linted("import \"vocabulary.rec\"\rimport \"fields.rec\"\rop ffMM\rop ffMM\r");
    const Diagnostic dup = with_code(cr, "E0101").front();
    CHECK(dup.span.line == 4);
    CHECK(spanned(cr, dup.span) == "ffMM");
}

TEST_CASE("lint robust: non-ASCII text keeps columns and carets in characters", "[lint][robust]") {
    const std::string text = edit(kClean, "    attMM = h\n", "    # μ-batch: ünïcode\n    attMM = h  # µ\n") +
                             "# ✓ the end\ndefault élan = 1\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0001");
    CHECK(d.span.col == 9);  // `é` is one character
    const std::string shown = render(d, r.sources);
    CHECK(shown.find("default élan = 1\n      |         ^") != std::string::npos);
}

TEST_CASE("lint robust: a 10 MB file", "[lint][robust]") {
    SECTION("ten megabytes of records") {
        std::string text = kClean;
        for (std::size_t i = 0; text.size() < (10u << 20); ++i)
            text += "slot s" + std::to_string(i) + " in ffn when n_exp != 1 {\n    bytes = micro_factor * (s * b) * "
                    "total / (t * cp)\n    ffMM = hff_exp * n_ffMM\n    ffAct = bytes_compute * hff_exp\n}\n";
        const auto r = linted(text);
        CHECK(codes(r).empty());
    }
    SECTION("one line of ten megabytes") {
        const auto r = linted(kClean + "default x = " + repeat("x", 10u << 20) + "\n");
        CHECK(codes(r) == "W0104 E0115 W0101");  // unread, not constant, and no such name
        const std::string shown = render(r.diagnostics.front(), r.sources);
        CHECK(shown.size() < 2000);  // the line is cut to a window
    }
    SECTION("ten megabytes of one character the language does not have") {
        const auto r = linted(repeat("$", 10u << 20));
        CHECK_FALSE(with_code(r, "E0001").empty());
        CHECK(r.diagnostics.size() < 200);
    }
}

TEST_CASE("lint robust: nesting 10,000 deep", "[lint][robust]") {
    const std::size_t n = 10000;
    struct Case {
        std::string name, text, message;
    };
    const std::string nested = "expression nested deeper than 200 levels";
    for (const Case& c : std::vector<Case>{
             {"brackets", repeat("(", n) + "1" + repeat(")", n), "brackets nested deeper than 200 levels"},
             {"calls", repeat("max(1, ", n) + "1" + repeat(")", n), "brackets nested deeper than 200 levels"},
             {"unary minus", repeat("-", n) + "1", nested},
             {"unary plus and minus", repeat("+-", n / 2) + "1", nested},
             {"not", repeat("not ", n) + "1", nested},
             {"power", repeat("2 ** ", n) + "1", nested},
             {"if-else", repeat("1 if 1 else ", n) + "1", nested},
             {"a chain of +", repeat("1 + ", n * 10) + "1",
              "expression nested deeper than 1000 levels (each operator of a chain like a + b + c is one level)"},
             {"a chain of *", repeat("h * ", n * 10) + "1",
              "expression nested deeper than 1000 levels (each operator of a chain like a + b + c is one level)"},
         }) {
        INFO(c.name);
        const auto r = linted(kClean + "default deep = " + c.text + "\n");
        const Diagnostic d = only(r, "E0003");
        CHECK(d.message == c.message);
        CHECK(d.span.line == first_added_line());
        render_everything(r);
    }
    // Flat lists are no nesting: a comparison chain, and/or of 65,535 operands
    // (its node's count). Past it, refused: 100,000 were once accepted and
    // their operands past 65,535 lost, a wrong value.
    CHECK(with_code(linted(kClean + "default flat = " + repeat("1 < ", 65534) + "2\n"), "E0003").empty());
    CHECK(with_code(linted(kClean + "default flat = " + repeat("1 and ", 65534) + "2\n"), "E0003").empty());
    CHECK(only(linted(kClean + "default flat = " + repeat("1 < ", n * 10) + "2\n"), "E0003").message ==
          "a chain like a < b < c of 100001 operands: at most 65535");
    CHECK(only(linted(kClean + "default flat = " + repeat("1 and ", n * 10) + "2\n"), "E0003").message ==
          "a chain like a and b and c of 100001 operands: at most 65535");
    // Just under the limits is fine.
    CHECK(with_code(linted(kClean + "default ok = " + repeat("-", 199) + "1\n"), "E0003").empty());
    CHECK(with_code(linted(kClean + "default ok = " + repeat("1 + ", 900) + "1\n"), "E0003").empty());
}

TEST_CASE("lint robust: an import chain 1,000 files long, and an import cycle", "[lint][robust]") {
    const fs::path dir = fs::temp_directory_path() / ("oprec-lint-chain-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const int n = 1000;
    for (int i = 0; i < n; ++i) {
        std::ofstream out(dir / ("f" + std::to_string(i) + ".rec"));
        if (i + 1 < n) out << "import \"f" << i + 1 << ".rec\"\n";
        if (i == n - 1) out << "import \"vocabulary.rec\"\nimport \"fields.rec\"\n";
        if (i == 0) out << kClean.substr(kClean.find("op attMM"));
    }
    const auto r = lint::lint_file(dir / "f0.rec", options());
    CHECK(codes(r).empty());
    CHECK(r.sources.size() == n + 2);
    // Close the chain into a cycle: the last file imports the first.
    {
        std::ofstream out(dir / ("f" + std::to_string(n - 1) + ".rec"), std::ios::app);
        out << "import \"f0.rec\"\n";
    }
    const auto cyc = lint::lint_file(dir / "f0.rec", options());
    const Diagnostic d = only(cyc, "E0121");
    CHECK(d.message == "import cycle: `f0.rec` imports itself through this import");
    CHECK(cyc.sources.file(d.span.file).path() == (dir / ("f" + std::to_string(n - 1) + ".rec")).string());
    std::error_code ec;
    fs::remove_all(dir, ec);
}

TEST_CASE("lint robust: a control byte quoted in a message reaches no terminal raw", "[lint][robust]") {
    // `unexpected ESC` once sent the byte itself: a file could drive the terminal.
    const auto r = linted(edit(kClean, "attMM = h\n", "attMM = h \x1b[2J\n"));
    const Diagnostic d = only(r, "E0001");
    const std::string shown = render(d, r.sources);
    CHECK(shown.find('\x1b') == std::string::npos);
    CHECK(shown.find("unexpected `\\x1b`") != std::string::npos);
}

TEST_CASE("lint robust: a note with no place names no file in JSON or SARIF", "[lint][robust]") {
    // A formula broken over lines outside brackets: the note is about the formula, placed nowhere.
    const auto r = linted(edit(kClean, "attMM = h\n", "attMM = h +\n    1\n"));
    const nlohmann::ordered_json json = lint::json_output({r});
    bool seen = false;
    for (const auto& d : json)
        for (const auto& n : d["notes"])
            if (n["line"].is_null()) {
                seen = true;
                CHECK(n["file"].is_null());  // was the root file's name: file index 0 by default
            }
    CHECK(seen);
    const nlohmann::ordered_json sarif = lint::sarif_output({r});
    for (const auto& res : sarif["runs"][0]["results"])
        if (res.contains("relatedLocations"))
            for (const auto& l : res["relatedLocations"])
                if (!l.contains("physicalLocation")) CHECK(l["message"]["text"].is_string());
}
