// The REPL's session, driven as a person at the prompt drives it: every number
// it prints is the evaluators' own, edits change what is priced, mistakes
// change nothing, and edited records reload (a broken edit keeps the last
// records that loaded).
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "cli/repl_support.h"
#include "value/arith.h"
#include "value/bytes_text.h"
#include "value/format.h"
#include "value/numbers.h"

using namespace oprec;
using namespace oprec::testing;

namespace {

std::string bytes_line(const std::string& label, Number n) {
    const Value v = value_of(n);
    return fmt::format("{}  {} bytes  {}\n", label, exact_bytes(v), human_bytes(v.as_double()));
}

// Runs one line; its standard output, requiring that it succeeded.
std::string ok(repl::Session& s, Captured& c, const std::string& line) {
    INFO(line << "\n" << c.err.str());
    REQUIRE(s.handle(line, c.output));
    return c.take_out();
}

// Runs one line that must fail; its message (standard error).
std::string fails(repl::Session& s, Captured& c, const std::string& line) {
    INFO(line);
    REQUIRE_FALSE(s.handle(line, c.output));
    c.take_out();
    return c.take_err();
}

}  // namespace

TEST_CASE("repl: a slot's bytes are the evaluator's, to the bit", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    for (const char* name : {"llama2-7b.json", "mixtral-8x7b.json", "deepseek-v3-moe.json", "gqa-dense.json"}) {
        INFO(name);
        const Layer layer = example_layer(s, name);
        s.set_layer(layer);
        for (const std::string& slot : s.records().slots()) {
            const std::string shown = ok(s, c, slot);
            CHECK(shown.rfind(bytes_line(slot, layer.slot(slot)), 0) == 0);
            CHECK(ok(s, c, slot + " only attMM").rfind(bytes_line(slot + " only attMM", layer.slot(slot, "attMM")), 0) == 0);
        }
        // The layer's total: its parts' sum.
        const Value total = value_of(layer.total());
        CHECK(table_row(ok(s, c, "layer"), {"layer"}) ==
              std::vector<std::string>{"layer", exact_bytes(total), human_bytes(total.as_double())});
    }
}

TEST_CASE("repl: set, unset, switch, node and context change what is priced", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    Layer expected = example_layer(s, "llama2-7b.json");
    s.set_layer(expected);

    ok(s, c, "set t=8 cp = 2 cp_algo=ulysses_cp");
    expected.set("t", std::int64_t{8});
    expected.set("cp", std::int64_t{2});
    expected.set("cp_algo", Field(std::string("ulysses_cp")));
    CHECK(ok(s, c, "qkv") == bytes_line("qkv", expected.slot("qkv")));
    CHECK(ok(s, c, "t") == "8\n");

    ok(s, c, "node selective");
    ok(s, c, "switch softmax off dropout=0");
    expected.set_recompute(Recompute::Selective);
    expected.set_switch("softmax", false);
    expected.set_switch("dropout", false);
    CHECK(ok(s, c, "score") == bytes_line("score", expected.slot("score")));
    CHECK(expected.slot("score").to_double() < example_layer(s, "llama2-7b.json").slot("score").to_double());

    ok(s, c, "switch all on");
    for (const std::string& sw : s.records().switches()) CHECK(s.layer().switch_state(sw) == std::optional<bool>(true));

    ok(s, c, "context micro_factor=2 dropless_tok_factor=1.5");
    CHECK(field_repr(*s.layer().field("micro_factor")) == "2");
    CHECK(field_repr(*s.layer().field("dropless_tok_factor")) == "1.5");
    ok(s, c, "node full");
    CHECK(s.layer().recompute() == Recompute::Full);

    ok(s, c, "unset n_qknorm");
    CHECK_FALSE(s.layer().field("n_qknorm"));
    CHECK(ok(s, c, "n_qknorm") == "0\n");  // the records' default
}

TEST_CASE("repl: an edit with a mistake changes nothing", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    s.set_layer(example_layer(s, "llama2-7b.json"));
    const std::string before = ok(s, c, "show");
    CHECK(fails(s, c, "set t=8 tt=3").find("unknown field `tt`") != std::string::npos);
    CHECK(fails(s, c, "switch softmax off softmx off").find("did you mean `softmax`?") != std::string::npos);
    CHECK(fails(s, c, "context micro_factor=2 micro=1").find("no context value `micro`") != std::string::npos);
    CHECK(fails(s, c, "unset t nothing").find("no field `nothing`") != std::string::npos);
    CHECK(fails(s, c, "node partial").find("unknown node kind") != std::string::npos);
    CHECK(ok(s, c, "show") == before);
}

TEST_CASE("repl: load warns of a field nothing reads, and the layer prices without it", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    std::string doc = read_text(source_dir() / "examples" / "llama2-7b.json");
    doc.insert(doc.find('{', doc.find("\"fields\"")) + 1, "\"tt\": 8, ");
    TempDir dir;
    const auto typo = dir.path / "typo.json";
    write_text(typo, doc);
    ok(s, c, "load " + typo.string());
    CHECK(c.take_err() == "warning: " + typo.string() +
                              ": no field `tt` in the records' schema (did you mean `t`?): the layer is priced without it\n");
    const std::string priced = ok(s, c, "qkv");
    ok(s, c, "load " + (source_dir() / "examples" / "llama2-7b.json").string());
    CHECK(c.take_err() == "");
    CHECK(ok(s, c, "qkv") == priced);
    // And at the start (`oprec repl --layer`).
    repl::Session started(shipped_session());
    CHECK(started.start(typo.string(), {}, {}).size() == 1);
}

TEST_CASE("repl: every mistake gets a message and the session goes on", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    s.set_layer(example_layer(s, "llama2-7b.json"));
    CHECK(fails(s, c, "explian qkv").find("unknown command `explian`") != std::string::npos);
    CHECK(fails(s, c, "qvk").find("did you mean `qkv`?") != std::string::npos);
    CHECK(fails(s, c, "explain qvk").find("no slot `qvk`") != std::string::npos);
    CHECK(fails(s, c, "qkv only attMX").find("did you mean `attMM`?") != std::string::npos);
    CHECK(fails(s, c, "s * (").find("never closed") != std::string::npos);
    CHECK(fails(s, c, "h / (t - 4)").find("[division-by-zero]") != std::string::npos);
    ok(s, c, "unset dh");
    const std::string missing = fails(s, c, "qkv");
    CHECK(missing.find("slot `qkv`") != std::string::npos);
    CHECK(missing.find("'dh'") != std::string::npos);
    CHECK(missing.find("[missing-field]") != std::string::npos);
    CHECK(ok(s, c, "score").rfind("score  12,582,912 bytes", 0) == 0);  // what does not read dh still prices
    CHECK_FALSE(s.done());
    ok(s, c, ":quit");
    CHECK(s.done());
}

TEST_CASE("repl: expressions read fields, defaults, context values and slots", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    const Layer layer = example_layer(s, "llama2-7b.json");
    s.set_layer(layer);
    CHECK(ok(s, c, "s * b * h / t") == "4194304.0\n");
    CHECK(ok(s, c, "-7 // 2") == "-4\n");
    CHECK(ok(s, c, "micro_factor + dropless_tok_factor") == "2\n");
    CHECK(ok(s, c, "kv_shards") == "1\n");
    CHECK(ok(s, c, "etp") == "1\n");  // a field no record reads
    const Value qkv = value_of(layer.slot("qkv")), score = value_of(layer.slot("score"));
    CHECK(ok(s, c, "qkv + score") == repr(py::add(qkv, score)) + "\n");
    CHECK(fails(s, c, "hx * 2").find("no field, slot or value `hx` (did you mean `h`?)") != std::string::npos);
    CHECK(fails(s, c, "v_head_dim * 2").find("the layer has no field `v_head_dim`") != std::string::npos);
    // Starting with a literal or `not`: expressions, not unknown commands.
    CHECK(ok(s, c, "1") == "1\n");
    CHECK(ok(s, c, "True") == "True\n");
    CHECK(ok(s, c, "not 0") == "True\n");
    CHECK(ok(s, c, "1 if h else 2") == "1\n");
    CHECK(ok(s, c, "1 and h") == "4096\n");
}

TEST_CASE("repl: explain shows the slot's text, its entries, total and bytes", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    s.set_layer(example_layer(s, "llama2-7b.json"));
    ok(s, c, "node selective");
    ok(s, c, "switch softmax off");
    const std::string text = ok(s, c, "explain score");
    CHECK(text.find("slot score in attention {") != std::string::npos);
    CHECK(text.find("bytes = micro_factor * (s_fa * b * a * s * total)") != std::string::npos);
    CHECK(table_row(text, {"headCast"}) == std::vector<std::string>{"headCast", "kept (headCast unstated)", "2"});
    // n_softmax * bytes_dropout + n_softmax * bytes_compute = 0 + 2: the softmax's 4 is left out.
    CHECK(table_row(text, {"softmax"}) == std::vector<std::string>{"softmax", "recomputed (softmax off)", "4"});
    CHECK(table_row(text, {"total"}) == std::vector<std::string>{"total", "the kept entries' sum", "2"});
    CHECK(table_row(text, {"bytes"}) == std::vector<std::string>{"bytes", "the formula on total", "4,194,304", "4.00 MiB"});
    CHECK(ok(s, c, "score").rfind("score  4,194,304 bytes", 0) == 0);
}

TEST_CASE("repl: diff prices the layer under each setting", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    const Layer base = example_layer(s, "llama2-7b.json");
    s.set_layer(base);
    Layer t8 = base;
    t8.set("t", std::int64_t{8});
    const std::string text = ok(s, c, "diff t=4 t=8");
    const Value a = value_of(base.slot("qkv")), b = value_of(t8.slot("qkv"));
    CHECK(table_row(text, {"attention", "qkv"}) ==
          std::vector<std::string>{"attention", "qkv", exact_bytes(a), exact_bytes(b), exact_bytes(py::sub(b, a)),
                                   human_bytes(py::sub(b, a).as_double())});
    // Switches count only on a selective layer, and the REPL says so.
    ok(s, c, "diff softmax=0 softmax=1");
    CHECK(c.take_err().find("selective") != std::string::npos);
    CHECK(s.layer().field("t"));
    CHECK(ok(s, c, "t") == "4\n");  // diff leaves the layer as it was
}

TEST_CASE("repl: edited records reload and a broken edit keeps the last good records", "[repl]") {
    TempDir dir;
    const auto records = dir.path / "op_records.rec";
    const std::string original = read_text(source_dir() / "records" / "op_records.rec");
    write_text(records, original);
    Captured c;
    repl::Session s(shipped_session(records));
    s.set_layer(example_layer(s, "llama2-7b.json"));
    CHECK(ok(s, c, "qkv") == "qkv  21,233,664 bytes  20.25 MiB\n");

    // attBMM keeps twice its elements: total 20736 -> 20992.
    std::string doubled = original;
    const std::string entry = "    attBMM = n_attBMM * dh\n";
    REQUIRE(doubled.find(entry) != std::string::npos);
    doubled.replace(doubled.find(entry), entry.size(), "    attBMM = 2 * n_attBMM * dh\n");
    write_text(records, doubled);
    CHECK(ok(s, c, "qkv") == "qkv  21,495,808 bytes  20.50 MiB\n");
    CHECK(c.take_err().find("reloaded the records (`" + records.string() + "` changed)") != std::string::npos);

    // A broken edit: the diagnostics, then the last records that loaded.
    std::string broken = doubled;
    broken.replace(broken.find("2 * n_attBMM * dh"), 17, "2 * n_attBMM *");
    write_text(records, broken);
    CHECK_FALSE(s.handle("qkv", c.output));
    const std::string why = c.take_err();
    CHECK(why.find(records.string() + ":") != std::string::npos);
    CHECK(why.find("error: syntax error") != std::string::npos);
    CHECK(why.find("keeping the records that last loaded") != std::string::npos);
    CHECK(c.take_out() == "qkv  21,495,808 bytes  20.50 MiB\n");
    // Not tried again until the file changes again.
    CHECK(ok(s, c, "qkv") == "qkv  21,495,808 bytes  20.50 MiB\n");
    CHECK(c.take_err().empty());

    write_text(records, original);
    CHECK(ok(s, c, "qkv") == "qkv  21,233,664 bytes  20.25 MiB\n");
    CHECK(ok(s, c, ":reload").empty());
    CHECK(c.take_err().find("reloaded the records (on request)") != std::string::npos);
}

TEST_CASE("repl: a change to an imported file reloads too", "[repl]") {
    TempDir dir;
    // The records and their imports in one folder: an import is searched
    // beside the importing file before the standard library.
    for (const char* f : {"vocabulary.rec", "ffn.rec", "fields.rec"})
        write_text(dir.path / f, read_text(source_dir() / "stdlib" / f));
    write_text(dir.path / "op_records.rec", read_text(source_dir() / "records" / "op_records.rec"));
    Captured c;
    repl::Session s(shipped_session(dir.path / "op_records.rec"));
    s.set_layer(example_layer(s, "llama2-7b.json"));
    const std::string before = ok(s, c, "ffn");
    CHECK(before == "ffn  38,010,880 bytes  36.25 MiB\n");

    std::string ffn = read_text(dir.path / "ffn.rec");
    const std::string term = "+ bytes_compute * width * n_ffParamCast";
    REQUIRE(ffn.find(term) != std::string::npos);
    ffn.replace(ffn.find(term), term.size(), "+ bytes_compute * width * (n_ffParamCast + 1)");
    write_text(dir.path / "ffn.rec", ffn);
    const std::string after = ok(s, c, "ffn");
    CHECK(after != before);
    CHECK(c.take_err().find("ffn.rec` changed") != std::string::npos);
    // The cast copy adds bytes_compute * hff elements a token: 2 * 11008 * 4096 / 8.
    CHECK(after == "ffn  49,283,072 bytes  47.00 MiB\n");
}

TEST_CASE("repl: records that do not load at the start are an error", "[repl]") {
    TempDir dir;
    write_text(dir.path / "bad.rec", "slot qkv in attention {\n");
    Captured c;
    CHECK_THROWS_AS(repl::Session(shipped_session(dir.path / "bad.rec")), RecordsError);
}

TEST_CASE("repl: a `when` that raises fails ops as it fails layer", "[repl]") {
    Captured c;
    repl::Session s(shipped_session());
    s.set_layer(example_layer(s, "llama2-7b.json"));
    ok(s, c, "unset n_exp");
    const std::string layer = fails(s, c, "layer");
    CHECK(layer.find("n_exp") != std::string::npos);
    CHECK_FALSE(s.handle("ops", c.output));
    const std::string ops = c.take_out();
    // Every op's row is an error, not priced past the `when` that raised.
    CHECK(table_row(ops, {"attMM"}) == std::vector<std::string>{"attMM", "-", "error"});
    CHECK(ops.find("error: attMM: ") != std::string::npos);  // the errors under the table
    CHECK(ops.find("n_exp") != std::string::npos);
}

TEST_CASE("repl: a layer with a non-finite field survives a reload", "[repl]") {
    TempDir dir;
    const auto records = dir.path / "op_records.rec";
    write_text(records, read_text(source_dir() / "records" / "op_records.rec"));
    Captured c;
    repl::Session s(shipped_session(records));
    s.set_layer(example_layer(s, "llama2-7b.json"));
    ok(s, c, "set h=inf");
    CHECK(ok(s, c, ":reload").empty());
    CHECK(c.take_err().find("reloaded the records (on request)") != std::string::npos);
    CHECK(ok(s, c, "h") == "inf\n");
}
