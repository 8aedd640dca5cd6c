// oprec fmt: idempotent and meaning-preserving over every .rec of the repo
// and the fuzz corpus, every comment kept; the shipped records and stdlib
// kept formatted; the layout's rules; the command's modes.
#include <catch2/catch.hpp>

#include <antlr4-runtime.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include "RecLexer.h"
#include "format/diff.h"
#include "format/format.h"
#include "format/print.h"
#include "syntax/parse.h"

using namespace oprec;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every .rec under the source tree (but build output), the fuzz corpus included.
std::vector<fs::path> rec_files() {
    std::vector<fs::path> files;
    const fs::path root = OPREC_SOURCE_DIR;
    for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() && (name.starts_with("build") || name.starts_with("."))) {
            it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file() && it->path().extension() == ".rec") files.push_back(it->path());
    }
    for (const char* dir : {"/fuzz/seeds", "/fuzz/regressions"})
        for (const auto& e : fs::directory_iterator(root.string() + dir))
            if (e.is_regular_file() && e.path().extension() != ".rec" && e.path().filename() != "README.md")
                files.push_back(e.path());
    return files;
}

// The comments of a text, in order, as the lexer finds them.
std::vector<std::string> comments(const std::string& text) {
    antlr4::ANTLRInputStream input(text);
    oprec_gen::RecLexer lexer(&input);
    lexer.removeErrorListeners();
    std::vector<std::string> out;
    for (auto t = lexer.nextToken(); t->getType() != antlr4::Token::EOF; t = lexer.nextToken())
        if (t->getType() == oprec_gen::RecLexer::COMMENT) {
            std::string c = t->getText();
            while (!c.empty() && (c.back() == ' ' || c.back() == '\t')) c.pop_back();
            out.push_back(c);
        }
    return out;
}

std::optional<std::string> module_text(const std::string& text) {
    SourceMap sources;
    std::vector<Diagnostic> diags;
    const ast::Module m = parse_module(sources, sources.add("x.rec", text), diags);
    if (!diags.empty()) return std::nullopt;
    return format::module_source(m);
}

std::string fmt(const std::string& text) {
    const format::Formatted f = format::format_source(text, "x.rec");
    REQUIRE(f.ok());
    return *f.text;
}


TEST_CASE("fmt is idempotent, keeps meaning and comments, over every .rec", "[fmt]") {
    int formatted = 0, refused = 0;
    for (const fs::path& file : rec_files()) {
        INFO(file.string());
        const std::string text = read(file);
        const format::Formatted once = format::format_source(text, file.string());
        if (!once.ok()) {  // does not parse: refused with where and why, as the parser says
            CHECK_FALSE(module_text(text));
            REQUIRE_FALSE(once.diagnostics.empty());
            CHECK(once.diagnostics.front().span.line > 0);
            ++refused;
            continue;
        }
        ++formatted;
        CHECK(fmt(*once.text) == *once.text);
        CHECK(module_text(*once.text) == module_text(text));
        CHECK(comments(*once.text) == comments(text));
    }
    CHECK(formatted >= 10);
}

// Every .rec the project ships: the records and the standard library.
std::vector<fs::path> shipped_files() {
    std::vector<fs::path> files;
    for (const char* dir : {"/records", "/stdlib"})
        for (const auto& e : fs::directory_iterator(std::string(OPREC_SOURCE_DIR) + dir))
            if (e.path().extension() == ".rec") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The text with its spacing scrambled: each run of blanks between tokens
// (outside strings and comments), the indentation and the blanks before a
// trailing comment, widened or narrowed at random; never joined.
std::string scrambled(const std::string& text, unsigned seed) {
    unsigned state = seed * 2654435761u + 1;
    auto blanks = [&](std::size_t least) {
        state = state * 1103515245u + 12345u;
        return std::string(least + (state >> 16) % 5, ' ');
    };
    std::string out;
    bool in_string = false, in_comment = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') in_string = in_comment = false;
        if (in_comment || in_string || (c != ' ' && c != '\t')) {
            if (!in_comment && c == '"') in_string = !in_string;
            if (!in_string && c == '#') in_comment = true;
            out += c;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
        const bool leading = out.empty() || out.back() == '\n';
        const bool before_end = j == text.size() || text[j] == '\n';
        if (!before_end) out += blanks(leading ? 0 : 1);
        i = j - 1;
    }
    return out;
}

}  // namespace

TEST_CASE("fmt keeps a file's line ending: CRLF stays CRLF", "[fmt]") {
    // It wrote LF, so a Windows file formatted in an editor showed every line changed.
    const std::string lf = fmt("# the query\nslot  qkv in attention {\n  attMM =  2*h  # kept\n}\n");
    REQUIRE(lf.find('\r') == std::string::npos);
    std::string crlf;
    for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    CHECK(fmt("# the query\r\nslot  qkv in attention {\r\n  attMM =  2*h  # kept\r\n}\r\n") == crlf);
    CHECK(fmt(crlf) == crlf);  // and formatted, it is left as it is
    CHECK(fmt(lf) == lf);
}

TEST_CASE("the shipped records and stdlib are formatted", "[fmt]") {
    const auto files = shipped_files();
    CHECK(files.size() >= 8);
    for (const fs::path& path : files) {
        INFO(path.string() << " (run `oprec fmt " << path.filename().string() << "`)");
        const std::string text = read(path);
        CHECK(fmt(text) == text);
    }
}

TEST_CASE("fmt is canonical: a shipped file spaced at random formats back to itself", "[fmt]") {
    for (const fs::path& path : shipped_files()) {
        const std::string text = read(path);
        for (unsigned seed = 1; seed <= 3; ++seed) {
            INFO(path.string() << ", seed " << seed);
            const std::string messy = scrambled(text, seed);
            REQUIRE(messy != text);
            CHECK(fmt(messy) == text);
        }
    }
}

TEST_CASE("fmt's layout", "[fmt]") {
    SECTION("spacing, indentation, one entry a line, blank lines") {
        CHECK(fmt("\n\nimport   \"v.rec\"\n\n\n\ndefault x=-1\n") == "import \"v.rec\"\n\ndefault x = -1\n");
        CHECK(fmt("slot a in b when n_exp!=1 {\n\n  bytes=total*max(1,2)**-x  # why\n    c = (a+b)\n\n}\n") ==
              "slot a in b when n_exp != 1 {\n    bytes = total * max(1, 2) ** -x  # why\n    c = (a + b)\n}\n");
        CHECK(fmt("slot a in b { bytes = total\n c = - x if not y else +z }\n") ==
              "slot a in b {\n    bytes = total\n    c = -x if not y else +z\n}\n");
        CHECK(fmt("fn f(a, b) = a - -b\n   # c\nop x\n") == "fn f(a, b) = a - -b\n# c\nop x\n");
    }
    SECTION("the author's breaks inside brackets, hanging and visual") {
        const std::string text =
            "fn f(w) = (\n"
            "  1 * w\n"
            "          + (2 * w\n"
            "  + 3)\n"
            "     )\n";
        CHECK(fmt(text) == "fn f(w) = (\n    1 * w\n    + (2 * w\n       + 3)\n)\n");
    }
    SECTION("canonical: one space around `=` and `:`, two before a trailing comment, no alignment") {
        CHECK(fmt("field h      : int\nfield abc    : int\n") == "field h : int\nfield abc : int\n");
        CHECK(fmt("op a   # one\nop bb  # two\n") == "op a  # one\nop bb  # two\n");
        CHECK(fmt("op a # one\n") == "op a  # one\n");
        CHECK(fmt("default  x   =    1\n") == "default x = 1\n");
    }
    SECTION("a formula too long is broken at its loosest operators") {
        const std::string longest =
            "slot a in b {\n    bytes = aaaaaaaaaa * bbbbbbbbbb + cccccccccc * dddddddddd + eeeeeeeeee * ffffffffff "
            "+ gggggggggg * total if hhhhhhhhhh else 0\n}\n";
        const std::string out = fmt(longest);
        CHECK(out ==
              "slot a in b {\n"
              "    bytes = (\n"
              "        aaaaaaaaaa * bbbbbbbbbb\n"
              "        + cccccccccc * dddddddddd\n"
              "        + eeeeeeeeee * ffffffffff\n"
              "        + gggggggggg * total\n"
              "        if hhhhhhhhhh else\n"
              "        0\n"
              "    )\n"
              "}\n");
        CHECK(fmt(out) == out);
    }
    SECTION("a setting too long breaks its formula, never its `matches` list (a newline ends it)") {
        const std::string text =
            "profile p {\n    model qkv_bias = aaaaaaaaaa + bbbbbbbbbb if cccccccccc else dddddddddd "
            "matches \"qwen2\", \"qwen2_moe\", \"qwen2_vl\", \"qwen3\"\n}\n";
        const std::string out = fmt(text);
        CHECK(out ==
              "profile p {\n"
              "    model qkv_bias = (\n"
              "        aaaaaaaaaa + bbbbbbbbbb if cccccccccc else dddddddddd\n"
              "    ) matches \"qwen2\", \"qwen2_moe\", \"qwen2_vl\", \"qwen3\"\n"
              "}\n");
        CHECK(fmt(out) == out);
        // `matches` after an operator is a name in the formula, broken with it.
        const std::string named = "default x = aaaaaaaaaa * bbbbbbbbbb + cccccccccc * dddddddddd + eeeeeeeeee * "
                                  "ffffffffff + gggggggggg * matches\n";
        CHECK(fmt(named) ==
              "default x = (\n"
              "    aaaaaaaaaa * bbbbbbbbbb\n"
              "    + cccccccccc * dddddddddd\n"
              "    + eeeeeeeeee * ffffffffff\n"
              "    + gggggggggg * matches\n"
              ")\n");
    }
    SECTION("a file that does not parse is refused with its place") {
        const format::Formatted f = format::format_source("op a\nslot x in y {\n  bytes = (total\n", "bad.rec");
        REQUIRE_FALSE(f.ok());
        REQUIRE_FALSE(f.diagnostics.empty());
        CHECK(f.diagnostics.front().code == "E0001");
        CHECK(f.sources.where(f.diagnostics.front().span).starts_with("bad.rec:"));
    }
}

namespace {

struct Run {
    int status;
    std::string out;
};

Run run(const std::string& command) {
    Run r{-1, ""};
    FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
    const int status = ::pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

}  // namespace

TEST_CASE("oprec fmt: in place, --check, --diff, stdin, a file that does not parse", "[fmt][cli]") {
    const fs::path dir = fs::temp_directory_path() / ("oprec_fmt_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string bin = OPREC_BINARY;
    const fs::path messy = dir / "messy.rec", clean = dir / "clean.rec", bad = dir / "bad.rec";
    std::ofstream(messy) << "op  a\ndefault x=1  # one\n";
    std::ofstream(clean) << "op a\n";
    std::ofstream(bad) << "op a\nslot {\n";

    Run check = run(bin + " fmt --check " + messy.string() + " " + clean.string());
    CHECK(check.status == 1);
    CHECK(check.out == messy.string() + "\n");  // only the file that would change
    CHECK(read(messy) == "op  a\ndefault x=1  # one\n");

    Run diff = run(bin + " fmt --diff " + messy.string());
    CHECK(diff.status == 0);
    CHECK(diff.out.starts_with("--- " + messy.string() + "\n"));
    CHECK(diff.out.find("\n-default x=1  # one\n") != std::string::npos);
    CHECK(diff.out.find("\n+default x = 1  # one\n") != std::string::npos);

    Run in_place = run(bin + " fmt " + messy.string());
    CHECK(in_place.status == 0);
    CHECK(read(messy) == "op a\ndefault x = 1  # one\n");
    CHECK(run(bin + " fmt --check " + messy.string()).status == 0);

    Run stdin_run = run("printf 'op   b\\n' | " + bin + " fmt");
    CHECK(stdin_run.status == 0);
    CHECK(stdin_run.out == "op b\n");

    Run refused = run(bin + " fmt " + bad.string());
    CHECK(refused.status == 1);
    CHECK(read(bad) == "op a\nslot {\n");  // untouched
    Run where = run(bin + " fmt " + bad.string() + " 2>&1 >/dev/null | head -1; true");
    CHECK(where.out.starts_with(bad.string() + ":2:6: error:"));

    // What the project ships passes the check CI would run.
    const std::string src = OPREC_SOURCE_DIR;
    Run shipped = run("cd " + src + " && " + bin + " fmt --check records/*.rec stdlib/*.rec");
    CHECK(shipped.out == "");
    CHECK(shipped.status == 0);

    // Nothing but the files themselves is left behind (no temporaries).
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 3);
    fs::remove_all(dir);
}

TEST_CASE("fmt is linear in its input", "[fmt][limits]") {
    // A million newlines inside one bracket: each once took a walk back over
    // all before it, minutes in all (issue 25). The bracket's lines collapse.
    const std::string newlines = "default x = (" + std::string(1'000'000, '\n') + "1)\n";
    CHECK(fmt(newlines) == "default x = (\n    1)\n");
    // A chain of comparisons up to its limit of operands (docs/limits.md);
    // past the parser's limit of tokens a declaration, refused at once.
    std::string chain = "default x = 1";
    for (int k = 0; k < 65'534; ++k) chain += " < 1";
    CHECK(format::format_source(chain + "\n", "chain.rec").ok());
    for (int k = 0; k < 70'000; ++k) chain += " < 1";
    const format::Formatted refused = format::format_source(chain + "\n", "chain.rec");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.diagnostics.front().code == "E0003");
}

TEST_CASE("fmt --diff marks a missing final newline, as diff -u does", "[fmt][diff]") {
    // Once: no hunk at all, though --check said the file would change.
    CHECK(format::unified_diff("op a", "op a\n", "x.rec") ==
          "--- x.rec\n+++ x.rec (formatted)\n@@ -1,1 +1,1 @@\n-op a\n\\ No newline at end of file\n+op a\n");
    CHECK(format::unified_diff("op   a\nop b", "op a\nop b\n", "x.rec") ==
          "--- x.rec\n+++ x.rec (formatted)\n@@ -1,2 +1,2 @@\n-op   a\n-op b\n\\ No newline at end of file\n+op a\n+op b\n");
}

TEST_CASE("fmt --diff of a long file takes memory by its length, not its square", "[fmt][diff]") {
    // 50,000 lines, every one changed: the table alone once took 10 GB.
    std::string before, after;
    for (int k = 0; k < 50000; ++k) {
        const std::string n = std::to_string(k);
        before += "default  x" + n + " = " + n + "\n";
        after += "default x" + n + " = " + n + "\n";
    }
    const std::string diff = format::unified_diff(before, after, "big.rec");
    CHECK(diff.find("@@ -1,50000 +1,50000 @@\n-default  x0 = 0\n") != std::string::npos);
    CHECK(std::count(diff.begin(), diff.end(), '\n') == 2 + 1 + 100000);
    // A change amid common lines is still the least diff.
    const std::string one = format::unified_diff("a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nX\ne\nf\ng\n", "s.rec");
    CHECK(one == "--- s.rec\n+++ s.rec (formatted)\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+X\n e\n f\n g\n");
}

TEST_CASE("fmt: a conditional in brackets past the width ends, not a stack overflow", "[fmt]") {
    // Its break after `else` split nothing, and the same range came back for ever.
    const std::string text = "default q = max(" + std::string(85, 'a') + ", (x if c else d))\n";
    const std::string once = fmt(text);
    CHECK(fmt(once) == once);
    CHECK(once.find("if c else") != std::string::npos);
}
