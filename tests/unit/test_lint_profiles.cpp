// `oprec lint` over op profiles: the shipped profiles file lints clean on its
// own, and each profile error (E0140-E0146) is reported with its code, its
// place and its fix, each code in the table docs/diagnostics.md documents.
#include "diag/codes.h"
#include "test_lint_support.h"

using namespace oprec;
using namespace oprec::lint_test;

namespace {

// The clean records and the standard profiles, then `added`.
const std::string kWithProfiles = kClean + "import \"profiles.rec\"\n";

std::uint32_t added_line() {
    return static_cast<std::uint32_t>(std::count(kWithProfiles.begin(), kWithProfiles.end(), '\n') + 1);
}

}  // namespace

TEST_CASE("lint: stdlib/profiles.rec on its own has no diagnostic", "[lint][profiles]") {
    // It imports the vocabulary for its counts and states no records: no op
    // is missing from it and no switch unused.
    const auto r = lint::lint_file(std::string(OPREC_SOURCE_DIR) + "/stdlib/profiles.rec", options());
    INFO(render_all(r.diagnostics, r.sources));
    CHECK(r.diagnostics.empty());
    CHECK(r.warnings_checked);
}

TEST_CASE("lint: records with the profiles imported have no diagnostic", "[lint][profiles]") {
    const auto r = linted(kWithProfiles);
    INFO(render_all(r.diagnostics, r.sources));
    CHECK(r.diagnostics.empty());
}

TEST_CASE("lint: a file of vocabulary alone still misses its ops", "[lint][profiles]") {
    // Only a file that declares profiles, or a library module in the
    // standard library, is exempt from stating the ops.
    const auto r = linted("import \"vocabulary.rec\"\nimport \"fields.rec\"\n");
    CHECK(with_code(r, "E0104").size() == 10);
}

TEST_CASE("lint E0140: profiles without an op vector", "[lint][errors][profiles]") {
    const std::string text = "profile x {\n    kind decoder = 4 2\n}\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "E0140");
    CHECK(d.message == "op profiles need the op vector their counts follow (import \"vocabulary.rec\")");
    check_at(r, d, {1, 1}, "profile");
}

TEST_CASE("lint E0141-E0146: each profile error, at its place", "[lint][errors][profiles]") {
    struct Case {
        std::string added, code, message, under, fix;
    };
    for (const Case& c : std::vector<Case>{
             {"profile x {\n    kind decoder = 4 2 3 1 0 2 4 1 1\n}", "E0141",
              "kind `decoder` of profile `x` states 9 op counts, the op vector has 10: no count for `linrec`", "kind",
              ""},
             {"profile x {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0 7\n}", "E0141",
              "kind `decoder` of profile `x` states 11 op counts, the op vector has only 10", "7", ""},
             {"profile x {\n}", "E0141", "profile `x` has no kind: state at least one (`kind decoder = ...`)", "x", ""},
             {"profile x {\n    kind d = attMM 4, attBMM 2, ffMM 3, softmax 1, dropout 0, normOps 2, gather 4, "
              "headCast 1, ffAct 1, linrec 0\n}",
              "E0142", "unknown op `normOps`: it is not in the op vector", "normOps", "normOp"},
             {"profile x {\n    kind d attention sparse = 4 2 3 1 0 2 4 1 1 0\n}", "E0143",
              "unknown attention flavour `sparse`: full or linear", "sparse", ""},
             {"profile x {\n    kind d fnn dense = 4 2 3 1 0 2 4 1 1 0\n}", "E0143",
              "unknown flavour `fnn` of kind `d`: a kind states `attention full|linear` or `ffn dense|moe`", "fnn",
              "ffn"},
             {"profile x {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0\n    default kind decodr\n}", "E0144",
              "default kind `decodr` is not a kind of profile `x`", "decodr", "decoder"},
             {"profile x {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0\n    run norm_byte = 2\n}", "E0145",
              "unknown run setting `norm_byte`: the run defaults do not state it", "norm_byte", "norm_bytes"},
             {"profile x {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0\n    run norm_bytes = s * 2\n}", "E0145",
              "`norm_bytes` must be a number or True/False, not an expression", "s * 2", ""},
             {"profile x matches \"Acme\" {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0\n}", "E0146",
              "prefix \"Acme\" has capitals: it is matched against the lower-cased model name", "\"Acme\"", "\"acme\""},
             {"profile x matches \"mixtral\" {\n    kind decoder = 4 2 3 1 0 2 4 1 1 0\n}", "E0146",
              "prefix \"mixtral\" already chooses profile `mixtral`", "\"mixtral\"", ""},
         }) {
        INFO(c.added);
        const std::string text = kWithProfiles + c.added + "\n";
        const auto r = linted(text);
        const Diagnostic d = only(r, c.code);
        CHECK(d.message == c.message);
        const std::string first_line = c.added.substr(0, c.added.find('\n'));
        const std::string from = c.under == "x" ? first_line : c.added.substr(c.added.find('\n') + 1, 12);
        check_at(r, d, pos_of(text, c.under, c.under == "x" || c.code == "E0146" ? first_line : from), c.under);
        CHECK(d.span.line >= added_line());
        if (c.fix.empty()) {
            CHECK_FALSE(d.fix.has_value());
        } else {
            REQUIRE(d.fix.has_value());
            CHECK(d.fix->replacement == c.fix);
        }
    }
}

TEST_CASE("lint: every profile error's code is in the code table", "[lint][profiles]") {
    for (const char* code : {"E0140", "E0141", "E0142", "E0143", "E0144", "E0145", "E0146"}) {
        INFO(code);
        const CodeInfo* info = find_code(code);
        REQUIRE(info != nullptr);
        CHECK(info->severity == Severity::Error);
    }
}
