// Each warning of `oprec lint`: its text, its place and its fix.
#include "test_lint_support.h"

using namespace oprec;
using namespace oprec::lint_test;

TEST_CASE("lint: the clean records have no diagnostic", "[lint]") {
    const auto r = linted(kClean);
    INFO(render_all(r.diagnostics, r.sources));
    CHECK(r.diagnostics.empty());
    CHECK(r.warnings_checked);
}

TEST_CASE("lint W0101: an unknown name, with did-you-mean", "[lint]") {
    const std::string text = edit(kClean, "ffMM = hff\n", "ffMM = hff_ex\n");
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0101");
    CHECK(d.severity == Severity::Warning);
    CHECK(d.message == "unknown name `hff_ex`: no field, context value or default provides it");
    check_at(r, d, pos_of(text, "hff_ex"), "hff_ex");
    REQUIRE(d.fix);
    CHECK(d.fix->replacement == "hff_exp");
    const std::string shown = render(d, r.sources);
    CHECK(shown.find("test.rec:" + std::to_string(d.span.line) + ":12: warning: unknown name `hff_ex`") == 0);
    CHECK(shown.find("help: did you mean `hff_exp`?") != std::string::npos);
    CHECK(shown.find("ffMM = hff_exp\n") != std::string::npos);  // the line as the fix leaves it
}

TEST_CASE("lint W0101: a parameter and a default provide names, total only in the formula", "[lint]") {
    const std::string text = kClean + "default extra = 1\nfn f(width) = width * extra\n";
    const auto r = linted(edit(text, "ffMM = hff\n", "ffMM = f(hff)\n"));
    CHECK(with_code(r, "W0101").empty());
    // A fn's unknown name offers its parameters too.
    const auto r2 = linted(edit(kClean + "fn g(width) = widht * 2\n", "ffMM = hff\n", "ffMM = g(hff)\n"));
    const Diagnostic d = only(r2, "W0101");
    CHECK(d.message == "unknown name `widht`: no field, context value, default or parameter provides it");
    REQUIRE(d.fix);
    CHECK(d.fix->replacement == "width");
}

TEST_CASE("lint W0102: a switch no op or part uses", "[lint]") {
    SECTION("in the records' own vocabulary") {
        const std::string text = edit(kClean, "import \"vocabulary.rec\"\n",
                                      "switches attBMM, headCast, dropout, softmax, normOp, gather, ffAct, attUp, spare\n"
                                      "layerparts attention, ffn, norm\n"
                                      "opvector attMM, attBMM, ffMM, softmax, dropout, normOp, gather, headCast, ffAct, linrec\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0102");
        CHECK(d.message == "switch `spare` is used by no op or part: setting it changes nothing");
        check_at(r, d, pos_of(text, "spare"), "spare");
    }
    SECTION("in the standard library's vocabulary: at the import that brings it") {
        const std::string text = edit(kClean, "op ffAct switch ffAct needs ffMM", "op ffAct needs ffMM");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0102");
        CHECK(d.message == "switch `ffAct` of the vocabulary this import brings is used by no op or part");
        check_at(r, d, {1, 1}, "import \"vocabulary.rec\"");
        REQUIRE(d.notes.size() == 1);
        CHECK(d.notes[0].message == "the switch is declared here");
        CHECK(r.sources.file(d.notes[0].span.file).path().find("stdlib/vocabulary.rec") != std::string::npos);
    }
}

TEST_CASE("lint W0103: an op or part no slot keeps, a comm op is exempt", "[lint]") {
    const std::string text = edit(kClean, "    linrec = n_linrec * h\n", "");
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0103");
    CHECK(d.message == "op `linrec` is kept in no slot: it prices at 0 bytes whatever its switch");
    check_at(r, d, pos_of(text, "linrec", "op linrec"), "linrec");
    // `gather` is comm and kept nowhere: no warning for it.
    CHECK(with_code(linted(kClean), "W0103").empty());

    const std::string part = edit(kClean, "    attUp = dh\n", "");
    const auto r2 = linted(part);
    const Diagnostic p = only(r2, "W0103");
    CHECK(p.message == "part `attUp` is kept in no slot: it prices at 0 bytes whatever its switch");
    check_at(r2, p, pos_of(part, "attUp", "part attUp"), "attUp");
}

TEST_CASE("lint W0104: a default never read", "[lint]") {
    const std::string text = kClean + "default n_extra = 1\n";
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0104");
    CHECK(d.message == "default `n_extra` is never read: no formula reads `n_extra`");
    check_at(r, d, {first_added_line(), 9}, "n_extra");
}

TEST_CASE("lint W0105: a fn no slot reaches", "[lint]") {
    const std::string text = kClean + "fn helper(x) = x * 2\nfn caller(x) = helper(x)\n";
    const auto r = linted(text);
    const auto ds = with_code(r, "W0105");
    REQUIRE(ds.size() == 2);  // helper is called only by caller, which nothing calls
    CHECK(ds[0].message == "fn `helper` is never called by a slot, default or term, directly or through other fns");
    check_at(r, ds[0], {first_added_line(), 4}, "helper");
    CHECK(ds[1].message == "fn `caller` is never called by a slot, default or term, directly or through other fns");
    // Once a slot calls `caller`, both are used.
    CHECK(with_code(linted(edit(text, "ffMM = hff\n", "ffMM = caller(hff)\n")), "W0105").empty());
}

TEST_CASE("lint W0106: an unused or repeated import", "[lint]") {
    const std::string text = kClean + "import \"ffn.rec\"\nimport \"fields.rec\"\n";
    const auto r = linted(text);
    const auto ds = with_code(r, "W0106");
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].message == "nothing `ffn.rec` declares is used by these records");
    check_at(r, ds[0], {first_added_line(), 1}, "import \"ffn.rec\"");
    REQUIRE(ds[0].fix);
    CHECK(ds[0].fix->replacement.empty());
    CHECK(ds[0].fix->message == "remove the import");
    CHECK(ds[1].message == "`fields.rec` is already imported");
    REQUIRE(ds[1].notes.size() == 1);
    CHECK(ds[1].notes[0].message == "first imported here");
    CHECK(ds[1].notes[0].span.line == 2);
    // ffn.rec's fn, once called, makes the import used; the fn itself is the library's: no W0105.
    const auto used = linted(edit(kClean + "import \"ffn.rec\"\n", "ffMM = hff\n", "ffMM = ffn_elements(hff)\n"));
    CHECK(codes(used).empty());
}

TEST_CASE("lint W0107: a fn parameter that shadows a field", "[lint]") {
    const std::string text = edit(kClean + "fn twice(h) = 2 * h\n", "ffMM = hff\n", "ffMM = twice(hff)\n");
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0107");
    CHECK(d.message == "parameter `h` of fn `twice` shadows the field `h`: in the body, `h` is the argument, never the field");
    check_at(r, d, pos_of(text, "h)", "fn twice"), "h");
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == "the field is declared here");
}

TEST_CASE("lint W0108: a cycle in needs", "[lint]") {
    const std::string text = edit(kClean, "op attBMM switch attBMM needs attMM", "op attBMM switch attBMM needs softmax");
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0108");
    CHECK(d.message == "a cycle in `needs`: attBMM -> softmax -> attBMM");
    check_at(r, d, pos_of(text, "attBMM", "op softmax"), "attBMM");
    REQUIRE(d.notes.size() == 2);
    CHECK(d.notes[0].message == "`attBMM` needs `softmax` here");
    check_at(r, Diagnostic{Severity::Note, "", d.notes[0].span, "", {}, {}}, pos_of(text, "softmax", "op attBMM"),
             "softmax");

    const std::string self = edit(kClean, "op linrec needs attMM", "op linrec needs linrec");
    const auto r2 = linted(self);
    CHECK(only(r2, "W0108").message == "`linrec` needs itself");
}

TEST_CASE("lint W0109: division by what may be zero, unguarded", "[lint]") {
    SECTION("a field that may be zero") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = h / a\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0109");
        CHECK(d.message == "division by `a`, which may be 0: no enclosing condition rules 0 out");
        check_at(r, d, pos_of(text, "a\n", "attMM = h /"), "a");
        REQUIRE(d.notes.size() == 2);
        CHECK(d.notes[0].message ==
              "`a` is counted in heads: only ranks, tokens, sequences and micro-batches are known to be at least 1");
    }
    SECTION("modulo, and a product with a factor that may be zero") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = h % (t * n_exp)\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0109");
        CHECK(d.message == "modulo by `t * n_exp`, which may be 0: no enclosing condition rules 0 out");
        check_at(r, d, pos_of(text, "t * n_exp"), "t * n_exp");
    }
    SECTION("always zero") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = h / 0\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0109");
        CHECK(d.message == "division by zero: the divisor is always 0");
        check_at(r, d, pos_of(text, "0\n", "attMM = h /"), "0");
    }
    SECTION("guarded, or by a positive field: no warning") {
        for (const char* guarded : {"attMM = h / a if a else 0\n", "attMM = a and h / a\n", "attMM = not a or h / a\n",
                                    "attMM = h / a if a != 0 else 0\n", "attMM = 0 if a == 0 else h / a\n",
                                    "attMM = h / (t * cp)\n", "attMM = h / max(a, 1)\n", "attMM = h / (a + 1)\n",
                                    "attMM = h / a if a > 0 and h else 0\n"}) {
            INFO(guarded);
            CHECK(with_code(linted(edit(kClean, "attMM = h\n", guarded)), "W0109").empty());
        }
        // A slot's `when` guards everything in it.
        CHECK(with_code(linted(edit(edit(kClean, "slot ffn in ffn {\n", "slot ffn in ffn when n_exp > 0 {\n"),
                                  "ffAct = bytes_compute * hff\n", "ffAct = bytes_compute * hff / n_exp\n")),
                        "W0109")
                  .empty());
    }
}

TEST_CASE("lint W0110: a constant when or condition", "[lint]") {
    SECTION("when") {
        const std::string text = edit(kClean, "slot ffn in ffn {", "slot ffn in ffn when 1 == 2 {");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0110");
        CHECK(d.message == "this `when` is always false: slot `ffn` is never held");
        check_at(r, d, pos_of(text, "1 == 2"), "1 == 2");
    }
    SECTION("an if") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = h if True else dh\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0110");
        CHECK(d.message == "this condition is always true");
        check_at(r, d, pos_of(text, "True"), "True");
        REQUIRE(d.notes.size() == 1);
        CHECK(d.notes[0].message == "so this branch is never taken");
        CHECK(d.notes[0].span.col == pos_of(text, "dh\n", "True").col);
    }
    SECTION("an operand of and/or") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = 0 and h\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0110");
        CHECK(d.message == "this operand of `and` is always false: `and` stops here");
        check_at(r, d, pos_of(text, "0 and"), "0");
    }
}

TEST_CASE("lint W0111: a branch an enclosing condition rules out", "[lint]") {
    SECTION("a repeated test") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = h if dc_kv == 0 else (dh if dc_kv == 0 else dhr)\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0111");
        CHECK(d.message == "this branch is never taken: `dc_kv == 0` is always false here");
        check_at(r, d, pos_of(text, "dh if"), "dh");
        REQUIRE(d.notes.size() == 1);
        check_at(r, Diagnostic{Severity::Note, "", d.notes[0].span, "", {}, {}}, pos_of(text, "dc_kv == 0"), "dc_kv == 0");
    }
    SECTION("the slot's when decides a test inside it") {
        const std::string text = edit(edit(kClean, "slot ffn in ffn {", "slot ffn in ffn when n_exp == 1 {"),
                                      "ffMM = hff\n", "ffMM = hff if n_exp == 1 else hff_exp\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0111");
        CHECK(d.message == "this branch is never taken: `n_exp == 1` is always true here");
        check_at(r, d, pos_of(text, "hff_exp"), "hff_exp");
    }
    SECTION("the complement: != after ==, and `not`") {
        const std::string text = edit(kClean, "attMM = h\n", "attMM = (dh if not dc_kv else dhr) if dc_kv != 0 else h\n");
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0111");
        CHECK(d.message == "this branch is never taken: `not dc_kv` is always false here");
        check_at(r, d, pos_of(text, "dh if"), "dh");
    }
}

TEST_CASE("lint W0112: a constant subexpression worth folding", "[lint]") {
    const std::string text = edit(kClean, "attMM = h\n", "attMM = h * (2 * 3)\n");
    const auto r = linted(text);
    const Diagnostic d = only(r, "W0112");
    CHECK(d.message == "`2 * 3` is the constant 6: write the value");
    check_at(r, d, pos_of(text, "2 * 3"), "2 * 3");
    REQUIRE(d.fix);
    CHECK(d.fix->replacement == "6");
    // Not where the value reads worse, nor for a negative literal.
    for (const char* fine : {"attMM = 1 / 3 * h\n", "attMM = 2 ** 30 * h\n", "attMM = -1 * h\n"}) {
        INFO(fine);
        CHECK(with_code(linted(edit(kClean, "attMM = h\n", fine)), "W0112").empty());
    }
    // inf and nan are no literals: inf is written 1e400 (the fix once wrote `inf`, a name), nan not at all.
    const auto inf = linted(edit(kClean, "attMM = h\n", "attMM = h * (1e308 * 10)\n"));
    const Diagnostic i = only(inf, "W0112");
    CHECK(i.message == "`1e+308 * 10` is the constant inf: write `1e400`");
    REQUIRE(i.fix);
    CHECK(i.fix->replacement == "1e400");
    CHECK(with_code(linted(edit(kClean, "attMM = h\n", "attMM = h * (1e308 * 10 - 1e308 * 10)\n")), "W0112").empty());
}

TEST_CASE("lint W0113: a formula not linear in total", "[lint]") {
    auto formula = [](const std::string& f) {
        return edit(kClean, "bytes = micro_factor * (s * b) * total / (t * cp)\n", "bytes = " + f + "\n");
    };
    struct Case {
        std::string formula, culprit, why;
    };
    for (const Case& c : std::vector<Case>{
             {"total * s + 16", "16", "`16` is added whatever `total` is"},
             {"total * total / t", "total * total", "`total` is multiplied by itself"},
             {"s / total", "s / total", "it divides by `total`"},
             {"max(total, s)", "max(total, s)", "`max` of `total` is not linear"},
             {"total // 2", "total // 2", "`//` of `total` is not linear"},
             {"total if s else 1", "total if s else 1", "one branch scales with `total` and the other does not"},
             {"s if total > 0 else 0", "total > 0", "the condition reads `total`"},
             {"sq(total)", "sq(total)", "in `sq`: `total` is multiplied by itself"},
         }) {
        INFO(c.formula);
        const std::string text = formula(c.formula) + "fn sq(x) = x * x\n";
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0113");
        CHECK(d.message == "the formula of slot `ffn` is not linear in `total`: " + c.why);
        check_at(r, d, pos_of(text, c.culprit, "slot ffn"), c.culprit);
    }
    for (const char* fine : {"total * s / t", "0 if s else total * s", "-total", "(total + total) * 2", "s * lin(total)"}) {
        INFO(fine);
        CHECK(with_code(linted(formula(fine) + "fn lin(x) = 2 * x\n"), "W0113").empty());
    }
}

TEST_CASE("lint W0114: a suppression that suppresses nothing, suppressions work", "[lint]") {
    const std::string guarded = edit(kClean, "attMM = h\n", "attMM = h / a  # rec: allow W0109: a layer has heads\n");
    CHECK(codes(linted(guarded)).empty());
    const std::string above = edit(kClean, "attMM = h\n", "# rec: allow W0109\n    attMM = h / a\n");
    CHECK(codes(linted(above)).empty());
    const std::string two_above = edit(kClean, "attMM = h\n", "# rec: allow W0109\n\n    attMM = h / a\n");
    CHECK(codes(linted(two_above)) == "W0114 W0109");

    const std::string text = edit(kClean, "attMM = h\n", "attMM = h  # rec: allow W0109, W0101\n");
    const auto r = linted(text);
    const auto ds = with_code(r, "W0114");
    REQUIRE(ds.size() == 2);
    CHECK(ds[0].message == "this `# rec: allow W0109` suppresses nothing: no W0109 is reported on the line it covers");
    check_at(r, ds[0], pos_of(text, "W0109"), "W0109");
    REQUIRE(ds[0].fix);
    CHECK(ds[0].fix->message == "remove `W0109` from the comment");
    // A sole code: the fix removes the comment.
    const auto r2 = linted(edit(kClean, "attMM = h\n", "attMM = h  # rec: allow W0109\n"));
    REQUIRE(only(r2, "W0114").fix);
    CHECK(only(r2, "W0114").fix->message == "remove the comment");
}

TEST_CASE("lint W0115: a suppression that names no warning", "[lint]") {
    struct Case {
        std::string comment, message, under;
    };
    for (const Case& c : std::vector<Case>{
             {"# rec: allow W9999", "`W9999` is no warning's code", "W9999"},
             {"# rec: allow E0101", "`E0101` is an error: errors cannot be allowed", "E0101"},
             {"# rec: allow", "this `# rec: allow` names no code: write `# rec: allow W0109`", "# rec: allow"},
             {"# rec: alow W0109", "a `# rec:` comment that is not `# rec: allow CODE` or `# rec: layer PATH`", "# rec: alow W0109"},
             {"# rec: layer", "`# rec: layer` names no layer document", "# rec: layer"},
         }) {
        INFO(c.comment);
        const std::string text = kClean + c.comment + "\n";
        const auto r = linted(text);
        const Diagnostic d = only(r, "W0115");
        CHECK(d.message == c.message);
        check_at(r, d, pos_of(text, c.under, "slot norm"), c.under);
    }
    // The layer oprec lsp prices live is no suppression, and no mistake.
    CHECK(codes(linted(kClean + "# rec: layer ../examples/llama2-7b.json\n")).empty());
    // A `#` inside a string is not a comment.
    CHECK(codes(linted(kClean + "field odd : int, \"# rec: allow nothing\"\nslot extra in norm {\n    bytes = total * odd\n}\n"))
              .empty());
}

TEST_CASE("lint W0116: records with no field schema", "[lint]") {
    const auto r = linted(edit(kClean, "import \"fields.rec\"\n", ""));
    const Diagnostic d = only(r, "W0116");
    CHECK(d.message == "the records declare no field schema, so the names their formulas read go unchecked");
    CHECK_FALSE(d.span.known());
    CHECK(with_code(r, "W0101").empty());
}

TEST_CASE("lint: warnings in the library are not reported, a second file's carry the import", "[lint]") {
    // ffn.rec is the library's: none of its contents is reported even when unused.
    CHECK(codes(linted(edit(kClean + "import \"ffn.rec\"\n", "ffMM = hff\n", "ffMM = ffn_elements(hff)\n"))).empty());
}

TEST_CASE("lint: --allow turns a warning off, but not a suppression check", "[lint]") {
    auto o = options();
    o.disabled.insert("W0101");
    const auto r = lint::lint_text(edit(kClean, "ffMM = hff\n", "ffMM = hff_ex\n"), "t.rec", o);
    CHECK(codes(r).empty());
}

TEST_CASE("lint: no warnings while a file does not parse, and every error at once", "[lint]") {
    const auto r = linted(kClean + "slot broken in ffn {\n    bytes = (total\n}\nop ffMM\nop nothing\n");
    CHECK_FALSE(r.warnings_checked);
    CHECK(with_code(r, "W0101").empty());
    CHECK_FALSE(with_code(r, "E0001").empty());
    // Check errors: all of them, and the warnings too.
    const auto r2 = linted(kClean + "op ffMM\nop nothing\nslot x in ffn {\n    bytes = total * hff_ex\n}\n");
    CHECK(r2.warnings_checked);
    CHECK(codes(r2) == "E0101 E0103 W0103 W0101");
}

TEST_CASE("lint: a library module is checked for what it states", "[lint]") {
    // A file of the standard library's folder with no op, part, slot or
    // profile: no vocabulary or op records to have, no unused-fn warning;
    // its own mistakes still count.
    const std::string in_library = std::string(OPREC_SOURCE_DIR) + "/stdlib/scratch-module.rec";
    const lint::Report clean = linted("fn half(x) = x / 2\ndefault n_extra = 1\n", in_library);
    CHECK(clean.diagnostics.empty());
    const lint::Report wrong = linted("fn half(x) = x / 2\nfn half(y) = y\n", in_library);
    CHECK(with_code(wrong, "E0102").empty());
    CHECK(!with_code(wrong, "E0101").empty());  // the fn declared twice
    // The same text anywhere else is an unfinished records file.
    const lint::Report elsewhere = linted("fn half(x) = x / 2\ndefault n_extra = 1\n", "module.rec");
    CHECK(with_code(elsewhere, "E0102").size() == 3);
    // And a records file in the library's folder is a records file.
    const lint::Report records = linted("slot qkv in attention {\n    bytes = total\n}\n", in_library);
    CHECK(!with_code(records, "E0102").empty());
}
