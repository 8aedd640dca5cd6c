// Each error the loader reports, as `oprec lint` shows it: text and place.
#include <filesystem>
#include <fstream>

#include "test_lint_support.h"

using namespace oprec;
using namespace oprec::lint_test;
namespace fs = std::filesystem;

namespace {

struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() / ("oprec-lint-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    fs::path write(const std::string& name, const std::string& text) const {
        std::ofstream(path / name, std::ios::binary) << text;
        return path / name;
    }
};

}  // namespace

TEST_CASE("lint E0001: a syntax error, at the token", "[lint][errors]") {
    const std::string text = edit(kClean, "op ffMM\n", "op ffMM switch\n");
    const auto r = linted(text);
    const auto ds = with_code(r, "E0001");  // the parser's recovery may find more after it
    REQUIRE_FALSE(ds.empty());
    const Diagnostic d = ds.front();
    CHECK(d.message == "syntax error: unexpected end of line");
    CHECK(d.span.line == pos_of(text, "op ffMM switch").line);
    CHECK(d.span.col == 15);
    const auto r2 = linted(edit(kClean, "attMM = h\n", "attMM = (h\n"));
    const Diagnostic open = only(r2, "E0001");
    CHECK(open.message == "syntax error: `(` was never closed");
    check_at(r2, open, pos_of(edit(kClean, "attMM = h\n", "attMM = (h\n"), "(h"), "(");
}

TEST_CASE("lint E0001: every declaration's first syntax error, none invented", "[lint][errors]") {
    // ANTLR's recovery over the whole file skipped from the first error to
    // its end (the `$` and `switchs` went unreported), or read the next
    // line's keyword as a name (`unexpected y` after a dangling `+`).
    const std::string text = kClean + "opp foo\n\nslot q in ffn {\n    bytes = total $ 1\n}\nswitchs a\n"
                                      "default x = 1 +\ndefault y = 2\n";
    const auto ds = with_code(linted(text), "E0001");
    const std::uint32_t first = first_added_line();
    REQUIRE(ds.size() == 4);
    CHECK(ds[0].message == "syntax error: unexpected `opp`");
    CHECK(ds[0].span.line == first);
    CHECK(ds[1].message == "syntax error: unexpected `$`");
    CHECK(ds[1].span.line == first + 3);
    CHECK(ds[2].message == "syntax error: unexpected `switchs`");
    CHECK(ds[2].span.line == first + 5);
    CHECK(ds[3].message == "syntax error: unexpected end of line");
    CHECK(ds[3].span.line == first + 6);
}

TEST_CASE("lint E0001: a block's `{` never closed is reported at the `{`, alone", "[lint][errors]") {
    // Without the `}` the next declarations read as the block's entries: the
    // parser's errors would stand at them, far from the mistake.
    const std::string text = edit(kClean, "    linrec = n_linrec * h\n}\n", "    linrec = n_linrec * h\n");
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0001");
    CHECK(d.message == "syntax error: `{` was never closed");
    check_at(r, d, pos_of(text, "{\n    bytes = micro_factor * (s * b * total)"), "{");
    CHECK(r.diagnostics.size() == 1);
    // A `}` of a later block does not close it: the first open `{` is the one reported.
    const std::string two = edit(kClean, "    headCast = n_softmax * bytes_compute\n}\n", "    headCast = n_softmax * bytes_compute\n");
    const Diagnostic first = only(linted(two), "E0001");
    CHECK(first.span.line == pos_of(two, "slot score in attention {").line);
}

TEST_CASE("lint E0002: a file that is not UTF-8", "[lint][errors]") {
    const std::string text = kClean + "# caf\xe9 \xff\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0002");
    CHECK(d.message == "the file is not valid UTF-8 text (byte 0xe9)");
    CHECK(d.span.line == first_added_line());
    CHECK(d.span.col == 6);
    // In a comment the rest still parses: the warnings still run.
    CHECK(r.warnings_checked);
}

TEST_CASE("lint E0003: nesting too deep", "[lint][errors]") {
    const std::string brackets = kClean + "default deep = " + std::string(201, '(') + "1" + std::string(201, ')') + "\n";
    const auto r = linted(brackets);
    const Diagnostic d = only(r, "E0003");
    CHECK(d.message == "brackets nested deeper than 200 levels");
    CHECK(d.span.line == first_added_line());
    CHECK(d.span.col == 16 + 200);
    // 200 brackets or signs are fine, as "deeper than 200" says (the
    // formula's own top once counted a level: 200 were refused).
    CHECK(with_code(linted(kClean + "default deep = " + std::string(200, '(') + "1" + std::string(200, ')') + "\n"), "E0003")
              .empty());
    CHECK(with_code(linted(kClean + "default deep = " + std::string(200, '-') + "1\n"), "E0003").empty());
    const auto signs = linted(kClean + "default deep = " + std::string(201, '-') + "1\n");
    CHECK(only(signs, "E0003").message == "expression nested deeper than 200 levels");
}

TEST_CASE("lint E0101: a duplicate, with a note at the first", "[lint][errors]") {
    const std::string text = kClean + "op ffMM\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0101");
    CHECK(d.message == "op `ffMM` is declared twice");
    check_at(r, d, {first_added_line(), 4}, "ffMM");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "first declared here");
    CHECK(d.notes[0].span.line == pos_of(text, "op ffMM").line);
}

TEST_CASE("lint E0102: no vocabulary", "[lint][errors]") {
    const auto r = linted("import \"fields.rec\"\n");
    const auto ds = with_code(r, "E0102");
    REQUIRE(ds.size() == 3);
    CHECK(ds[0].message == "no `switches` declaration: the records must state their vocabulary (import "
                           "\"vocabulary.rec\" from the standard library)");
    CHECK(ds[0].span.line == 1);
}

TEST_CASE("lint E0103: an unknown op, and needs of one", "[lint][errors]") {
    const std::string text = kClean + "op ffMMM\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0103");
    CHECK(d.message == "unknown op `ffMMM`: it is not in the op vector");
    check_at(r, d, {first_added_line(), 4}, "ffMMM");
    REQUIRE(d.fix);
    CHECK(d.fix->replacement == "ffMM");
    const std::string needs = edit(kClean, "op linrec needs attMM", "op linrec needs atMM");
    const auto r2 = linted(needs);
    const Diagnostic n = only(r2, "E0103");
    CHECK(n.message == "`linrec` needs `atMM`, which is neither an op nor a part");
    check_at(r2, n, pos_of(needs, "atMM", "op linrec"), "atMM");
}

TEST_CASE("lint E0104: an op of the op vector with no record", "[lint][errors]") {
    const auto r = linted(edit(kClean, "op linrec needs attMM\n", ""));
    const Diagnostic d = only(r, "E0104");
    CHECK(d.message == "op `linrec` of the op vector is missing: every records file states each op of the op vector "
                       "(declare `op linrec`)");
    CHECK(r.sources.file(d.span.file).path().find("vocabulary.rec") != std::string::npos);
}

TEST_CASE("lint E0105: an unknown switch, with did-you-mean", "[lint][errors]") {
    const std::string text = edit(kClean, "op ffAct switch ffAct", "op ffAct switch ffact");
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0105");
    CHECK(d.message == "unknown switch `ffact`");
    check_at(r, d, pos_of(text, "ffact"), "ffact");
    REQUIRE(d.fix);
    CHECK(d.fix->replacement == "ffAct");
}

TEST_CASE("lint E0106: an unknown layer part", "[lint][errors]") {
    const std::string text = edit(kClean, "slot ffn in ffn {", "slot ffn in fn {");
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0106");
    CHECK(d.message == "unknown layer part `fn`");
    check_at(r, d, pos_of(text, "fn {"), "fn");
}

TEST_CASE("lint E0107: a bad part", "[lint][errors]") {
    const std::string text = edit(kClean, "part attUp of attMM switch attUp", "part attUp of atMM");
    const auto r = linted(text);
    const auto ds = with_code(r, "E0107");
    REQUIRE(ds.size() == 2);  // by place: the part's name, then its `of`
    CHECK(ds[0].message == "part `attUp` has no switch: a part is what a switch of its own drops");
    check_at(r, ds[0], pos_of(text, "attUp"), "attUp");
    CHECK(ds[1].message == "part `attUp` is part of `atMM`, which is not an op");
    check_at(r, ds[1], pos_of(text, "atMM"), "atMM");
}

TEST_CASE("lint E0108: a slot entry naming no record", "[lint][errors]") {
    const std::string text = edit(kClean, "ffAct = bytes_compute * hff", "ffAtc = bytes_compute * hff");
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0108");
    CHECK(d.message == "slot `ffn` names `ffAtc`, which is neither an op nor a part");
    check_at(r, d, pos_of(text, "ffAtc"), "ffAtc");
    REQUIRE(d.fix);
    CHECK(d.fix->replacement == "ffAct");
}

TEST_CASE("lint E0109: a formula without total", "[lint][errors]") {
    const std::string text = edit(kClean, "bytes = micro_factor * (s * b) * total / (t * cp)", "bytes = micro_factor * s");
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0109");
    CHECK(d.message == "the formula of slot `ffn` does not read `total`, the elements its ops keep");
    check_at(r, d, pos_of(text, "micro_factor * s\n"), "micro_factor * s");
}

TEST_CASE("lint E0110-E0113: what a formula may not hold or call", "[lint][errors]") {
    struct Case {
        std::string entry, code, message, under;
    };
    for (const Case& c : std::vector<Case>{
             {"attMM = 'h'", "E0110", "a string is not allowed in a formula: a formula is arithmetic on numbers", "'h'"},
             {"attMM = sqrt(h)", "E0111",
              "`sqrt` is not a function: a formula may call max, min and the fns the records declare", "sqrt(h)"},
             {"attMM = max(h)", "E0112", "`max` takes two or more numbers, got 1", "max(h)"},
             {"attMM = total", "E0113", "`total` has a value only in a slot's `bytes` formula", "total"},
         }) {
        INFO(c.entry);
        const std::string text = edit(kClean, "attMM = h", c.entry);
        const auto r = linted(text);
        const Diagnostic d = only(r, c.code);
        CHECK(d.message == c.message);
        check_at(r, d, pos_of(text, c.under, "attMM = " + c.under), c.under);
    }
}

TEST_CASE("lint E0114-E0117: fns and defaults", "[lint][errors]") {
    struct Case {
        std::string added, code, message, under;
    };
    for (const Case& c : std::vector<Case>{
             {"fn loop(x) = loop(x)", "E0114", "fn `loop` calls itself: a fn may not recurse", "loop"},
             {"default width = h * 2", "E0115", "the default of `width` is not a constant number", "h * 2"},
             // A constant that raises says why (it read as "not constant").
             {"default big = 2 ** 63", "E0115", "the default of `big` cannot be computed: integer overflow: 2 ** 63", "2 ** 63"},
             {"default nothing = 1 / 0", "E0115", "the default of `nothing` cannot be computed: division by zero", "1 / 0"},
             {"slot empty in ffn {\n    ffMM = h\n}", "E0116", "slot `empty` has no `bytes = ...` formula", "empty"},
             {"fn max(x) = x", "E0117", "`max` is built in and cannot be declared", "max"},
         }) {
        INFO(c.added);
        const std::string text = kClean + c.added + "\n";
        const auto r = linted(text);
        const Diagnostic d = only(r, c.code);
        CHECK(d.message == c.message);
        check_at(r, d, pos_of(text, c.under, c.added.substr(0, 6)), c.under);
    }
}

TEST_CASE("lint E0118: an unknown field type", "[lint][errors]") {
    const std::string text = kClean + "field width : integer\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0118");
    CHECK(d.message == "unknown type `integer`: a field is int, float, bool or str");
    check_at(r, d, {first_added_line(), 15}, "integer");
}

TEST_CASE("lint E0120-E0122: imports", "[lint][errors]") {
    TempDir dir;
    SECTION("missing") {
        const auto r = linted(kClean + "import \"nowhere.rec\"\n");
        const Diagnostic d = only(r, "E0120");
        CHECK(d.message == "no file `nowhere.rec` to import");
        check_at(r, d, {first_added_line(), 1}, "import \"nowhere.rec\"");
        REQUIRE(d.notes.size() == 1);
        CHECK(d.notes[0].message.find("searched in: ") == 0);
        CHECK_FALSE(r.warnings_checked);
    }
    SECTION("a cycle") {
        dir.write("a.rec", "import \"b.rec\"\n");
        dir.write("b.rec", "import \"a.rec\"\n");
        const auto r = lint::lint_file(dir.path / "a.rec", options());
        const Diagnostic d = only(r, "E0121");
        CHECK(d.message == "import cycle: `a.rec` imports itself through this import");
        CHECK(r.sources.file(d.span.file).path() == (dir.path / "b.rec").string());
        CHECK(d.span.line == 1);
        // The note says which import brought b.rec in.
        REQUIRE_FALSE(d.notes.empty());
        CHECK(d.notes.back().message == "`" + (dir.path / "b.rec").string() + "` was imported here");
    }
    SECTION("unreadable: a directory, a device") {
        fs::create_directories(dir.path / "sub.rec");
        const auto r = linted(kClean + "import \"" + (dir.path / "sub.rec").string() + "\"\nimport \"/dev/zero\"\n");
        const auto ds = with_code(r, "E0122");
        REQUIRE(ds.size() == 2);
        CHECK(ds[0].message == "cannot read `" + (dir.path / "sub.rec").string() + "`: it is a directory");
        CHECK(ds[1].message == "cannot read `/dev/zero`: it is not a regular file");
        // The file named itself cannot be read: the lint could not run.
        const auto missing = lint::lint_file(dir.path / "missing.rec", options());
        CHECK(missing.could_not_run);
        CHECK(only(missing, "E0122").message.find("cannot read") == 0);
    }
    SECTION("a symbolic link to itself, an empty path, an absolute path") {
        fs::create_symlink("loop.rec", dir.path / "loop.rec");
        const auto loop = linted(kClean + "import \"" + (dir.path / "loop.rec").string() + "\"\n");
        const Diagnostic l = only(loop, "E0122");  // was "no file ... to import"
        CHECK(l.message.find("cannot read `" + (dir.path / "loop.rec").string() + "`: ") == 0);
        CHECK(l.message.find("symbolic links") != std::string::npos);
        // `import ""` named the folder: "cannot read `.../stdlib/`: it is a directory".
        CHECK(only(linted(kClean + "import \"\"\n"), "E0120").message == "`import \"\"` names no file");
        // An absolute path is looked for where it says only: no "searched in" note.
        const Diagnostic a = only(linted(kClean + "import \"/nonexistent/x.rec\"\n"), "E0120");
        CHECK(a.message == "no file `/nonexistent/x.rec` to import");
        CHECK(a.notes.empty());
    }
}
