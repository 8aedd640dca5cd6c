// The limits of docs/limits.md, one test each: what used to crash, hang or
// exhaust memory is now refused with an error saying what and where.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <sys/stat.h>
#include <pthread.h>
#include <unistd.h>

#include "check/loader.h"
#include "code/code.h"
#include "diag/read_file.h"
#include "hf/hf_config.h"
#include "hf/load.h"
#include "hf/model.h"
#include "syntax/parse.h"
#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec;
using testing::run_oprec;

namespace {

LoadOptions stdlib_only() { return {{OPREC_TEST_DATA "/../stdlib"}}; }

const std::string kShipped = OPREC_SOURCE_DIR "/records/op_records.rec";
const std::string kLayer = OPREC_SOURCE_DIR "/examples/llama2-7b.json";

std::string shipped_records() { return testing::read_text(kShipped); }

// The shipped records with `fns` added and the norm slot's formula calling `call`.
std::string records_calling(const std::string& fns, const std::string& call) {
    std::string text = shipped_records();
    const std::string at = "normOp = h * n_normOp";
    const auto pos = text.find(at);
    REQUIRE(pos != std::string::npos);
    text.replace(pos, at.size(), "normOp = 0 * " + call + " + h * n_normOp");
    return text + "\n" + fns;
}

const Diagnostic* find_code(const LoadResult& r, const std::string& code) {
    for (const Diagnostic& d : r.diagnostics)
        if (d.code == code) return &d;
    return nullptr;
}

}  // namespace

TEST_CASE("limits: a chain of 4,000 fns is refused, not a stack overflow", "[limits]") {
    std::string fns = "fn f0(x) = x\n";
    for (int k = 1; k <= 4000; ++k) fns += fmt::format("fn f{}(x) = f{}(x) + 1\n", k, k - 1);
    const std::string text = records_calling(fns, "f4000(h)");
    const LoadResult r = load_text(text, "chain.rec", LoadOptions{{OPREC_SOURCE_DIR "/stdlib"}});
    CHECK(!r.ok());
    const Diagnostic* d = find_code(r, "E0117");
    REQUIRE(d != nullptr);
    // The first fn past the limit, at its name, and no other (those calling it
    // are not reported again): f_k nests 2k + 1 levels (a call, its `+`).
    CHECK(d->message == "fn `f500` nests 1001 levels deep with the fns it calls: at most 1000");
    CHECK(std::count_if(r.diagnostics.begin(), r.diagnostics.end(), [](const Diagnostic& x) { return x.code == "E0117"; }) == 1);
    // The same through the command, which used to die of the overflow.
    testing::TempDir dir;
    const auto records = dir.write("chain.rec", text);
    for (const std::string cmd : {"eval", "lint"}) {
        const auto res = cmd == "eval" ? run_oprec({"eval", "--records", records.string(), kLayer})
                                       : run_oprec({"lint", records.string()});
        CHECK((res.exit_code == 1 || res.exit_code == 2));
        CHECK((res.out + res.err).find("E0117") != std::string::npos);  // lint reports on standard output
    }
}

TEST_CASE("limits: fns each calling the one before twice are refused, not run for ever", "[limits]") {
    std::string fns = "fn g0(x) = x\n";
    for (int k = 1; k <= 60; ++k) fns += fmt::format("fn g{}(x) = g{}(x) + g{}(x)\n", k, k - 1, k - 1);
    const std::string text = records_calling(fns, "g60(h)");
    const LoadResult r = load_text(text, "twice.rec", LoadOptions{{OPREC_SOURCE_DIR "/stdlib"}});
    CHECK(!r.ok());
    const Diagnostic* d = find_code(r, "E0117");
    REQUIRE(d != nullptr);
    // g_k costs 6 * 2^k - 5 operations: g18 is the first past 2^20.
    CHECK(d->message.starts_with("fn `g18` evaluates more than 1048576 operations per call"));
    const auto lines = std::count(text.begin(), text.end(), '\n');
    CHECK(r.sources.where(d->span) == fmt::format("twice.rec:{}:4", lines - 60 + 18));
    // Below the bound a fn calling another twice still prices, to the same bytes.
    std::string small = "fn g0(x) = x\n";
    for (int k = 1; k <= 10; ++k) small += fmt::format("fn g{}(x) = g{}(x) + g{}(x)\n", k, k - 1, k - 1);
    testing::TempDir dir;
    const auto records = dir.write("small.rec", records_calling(small, "g10(h)"));
    const auto priced = run_oprec({"eval", "--records", records.string(), kLayer, "--format", "json"});
    const auto shipped = run_oprec({"eval", kLayer, "--format", "json"});
    CHECK(priced.exit_code == 0);
    CHECK(priced.out == shipped.out);  // 0 * g10(h) adds nothing
}

TEST_CASE("limits: an import chain deeper than 1024 files is refused at the import", "[limits]") {
    testing::TempDir dir;
    const int depth = 10'000;
    for (int k = 0; k < depth; ++k)
        dir.write(fmt::format("m{}.rec", k), k + 1 < depth ? fmt::format("import \"m{}.rec\"\n", k + 1) : "");
    const LoadResult r = load_file(dir / "m0.rec", stdlib_only());
    CHECK(!r.ok());
    const Diagnostic* d = find_code(r, "E0003");
    REQUIRE(d != nullptr);
    CHECK(d->message == "imports nested deeper than 1024 files: `m1024.rec` is not loaded");
    CHECK(r.sources.where(d->span) == (dir / "m1023.rec").string() + ":1:1");
}

TEST_CASE("limits: a declaration or expression of too many tokens is refused, in bounded memory", "[limits]") {
    // 10 MB on one line: about 5 million tokens, which once took 3.6 GB.
    std::string expr = "1";
    expr.reserve(10'000'001);
    while (expr.size() < 10'000'000) expr += "+1";
    SourceMap sources;
    std::vector<Diagnostic> diags;
    const FileId id = sources.add("<expr>", expr);
    CHECK(!parse_expression(sources, id, diags));
    REQUIRE(!diags.empty());
    CHECK(diags[0].code == "E0003");
    CHECK(diags[0].message == "a declaration or expression longer than 262144 tokens: split it");
    CHECK(sources.where(diags[0].span) == "<expr>:1:262145");
    // As a default in a records file, through the command.
    testing::TempDir dir;
    const auto file = dir.write("long.rec", "default x = " + expr + "\n");
    const auto res = run_oprec({"lint", file.string()});
    CHECK(res.exit_code != 0);
    CHECK(res.out.find("longer than 262144 tokens") != std::string::npos);
    // A slot's entries count together: its tree is held until the slot is built.
    std::string slot = "slot big in attention {\n    bytes = total\n";
    for (int k = 0; k < 70'000; ++k) slot += "    attMM = 1 + 1\n";
    SourceMap s2;
    std::vector<Diagnostic> d2;
    const ast::Module m = parse_module(s2, s2.add("slot.rec", slot + "}\n"), d2);
    REQUIRE(!d2.empty());
    CHECK(d2[0].code == "E0003");
}

TEST_CASE("limits: inputs of every kind are capped, /dev/zero refused", "[limits]") {
    std::string why;
    CHECK(!read_file_capped("/dev/zero", kMaxDocumentBytes, why));
    CHECK(why == "it is larger than 16 MiB");
    // A layer document, a config and the REPL's `load`, through the commands.
    const auto eval = run_oprec({"eval", "/dev/zero"});
    CHECK(eval.exit_code == 2);
    CHECK(eval.err == "oprec eval: cannot read `/dev/zero`: it is larger than 16 MiB\n");
    const auto hf = run_oprec({"eval", "--hf", "/dev/zero"});
    CHECK(hf.exit_code == 2);
    CHECK(hf.err.find("/dev/zero: cannot be read: it is larger than 16 MiB") != std::string::npos);
    const auto repl = run_oprec({"repl", "--layer", "/dev/zero"});
    CHECK(repl.exit_code == 2);
    CHECK(repl.err.find("it is larger than 16 MiB") != std::string::npos);
    const auto load = run_oprec({"repl"}, "load /dev/zero\n");
    CHECK(load.err.find("cannot read `/dev/zero`: it is larger than 16 MiB") != std::string::npos);
    const auto records = run_oprec({"lint", "/dev/zero"});
    CHECK(records.exit_code == 2);
    CHECK(records.out.find("cannot read `/dev/zero`: it is larger than 64 MiB [E0122]") != std::string::npos);
}

TEST_CASE("limits: a FIFO no one writes to reads as empty, not a wait for ever", "[limits]") {
    testing::TempDir dir;
    const std::string fifo = (dir / "fifo").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string why;
    const auto text = read_file_capped(fifo, kMaxDocumentBytes, why);
    REQUIRE(text);
    CHECK(text->empty());
    // Through the commands: a layer document, records, a config; each answers.
    const auto layer = run_oprec({"eval", fifo});
    CHECK(layer.exit_code != 0);
    CHECK(layer.err.find(fifo) != std::string::npos);
    const auto records = run_oprec({"eval", "--records", fifo, kLayer});
    CHECK(records.exit_code != 0);
    const auto hf = run_oprec({"eval", "--hf", fifo});
    CHECK(hf.exit_code != 0);
    CHECK(hf.err.find(fifo) != std::string::npos);
}

TEST_CASE("limits: a config of a billion layers, or more experts per token than experts, is refused", "[limits]") {
    LoadResult loaded = hf::load_with_profiles(kShipped, "profiles.rec", stdlib_only());
    REQUIRE(loaded.program);
    const Program& program = *loaded.program;
    auto model = [&](const std::string& json) { return hf::HfModel(program, hf::HfConfig::parse(json, "c.json")); };
    const std::string base = R"("model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, )"
                             R"("intermediate_size": 11008, )";
    CHECK_NOTHROW(model("{" + base + R"("num_hidden_layers": 32})"));
    CHECK_THROWS_WITH(model("{" + base + R"("num_hidden_layers": 1000000000})"),
                      "c.json: `num_hidden_layers` is 1000000000: more than 100000 layers, more than any model has");
    CHECK_THROWS_WITH(
        model("{" + base + R"("num_hidden_layers": 32, "num_local_experts": 8, "num_experts_per_tok": 9})"),
        "c.json: `num_experts_per_tok` (9) is more than the experts, `num_local_experts` = 8: a token cannot choose "
        "more experts than there are");
    // Once priced as one expert of one (17 GiB for a Mixtral that needs 320) and as top-1.
    CHECK_THROWS_WITH(
        model("{" + base + R"("num_hidden_layers": 32, "num_local_experts": 0, "num_experts_per_tok": 2})"),
        "c.json: `num_experts_per_tok` (2) is more than the experts, `num_local_experts` = 0: a token cannot choose "
        "more experts than there are");
    CHECK_THROWS_WITH(
        model("{" + base + R"("num_hidden_layers": 32, "num_local_experts": 8, "num_experts_per_tok": 0})"),
        "c.json: `num_experts_per_tok` is 0: a token chooses at least one of the 8 experts (`num_local_experts`)");
    CHECK_NOTHROW(model("{" + base + R"("num_hidden_layers": 32, "num_experts": 0})"));  // a dense model says so
}

TEST_CASE("limits: a config number beyond a float's range is an HfError, not a crash", "[limits]") {
    // Found by fuzz/run (hf_config): nlohmann's out_of_range escaped HfConfig::parse.
    CHECK_THROWS_MATCHES(hf::HfConfig::parse(R"({"num_hidden_layers": 1e505})", "c.json"), hf::HfError,
                         Catch::Matchers::Message("c.json: number 1e505 is beyond a float's range"));
    CHECK_THROWS_MATCHES(hf::HfConfig::parse(R"({"rope_theta": -2E+999})", "c.json"), hf::HfError,
                         Catch::Matchers::Message("c.json: number -2E+999 is beyond a float's range"));
}

// A parse runs on the caller's stack only where the text cannot nest deeper
// than that stack holds (syntax/parse.cpp, on_large_stack); else on a thread
// of its own with a large one. Here the caller's stack is 64 KiB, which a
// parse of 150 brackets or signs overflowed (measured: 150 levels need more
// than 64 KiB).
TEST_CASE("limits: a parse on a thread with a small stack does not overflow it", "[limits]") {
    struct Job {
        std::vector<std::string> texts;
        std::vector<bool> parsed;
    } job;
    for (const std::string& one : {std::string("("), std::string("-"), std::string("not "), std::string("2 ** ")}) {
        std::string text;
        for (int i = 0; i < 150; ++i) text += one;
        text += "1";
        if (one == "(") text += std::string(150, ')');
        job.texts.push_back(text);
    }
    job.texts.push_back("h * s / t");  // shallow: parsed where it is
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 << 10);
    pthread_t thread;
    auto run = [](void* arg) -> void* {
        auto* j = static_cast<Job*>(arg);
        for (const std::string& text : j->texts) {
            SourceMap sources;
            std::vector<Diagnostic> diags;
            const FileId id = sources.add("<expr>", text);
            j->parsed.push_back(parse_expression(sources, id, diags).has_value());
        }
        return nullptr;
    };
    REQUIRE(pthread_create(&thread, &attr, run, &job) == 0);
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    CHECK(job.parsed == std::vector<bool>{true, true, true, true, true});
}

TEST_CASE("limits: a comparison or and/or chain holds at most 65,535 operands", "[limits]") {
    // 65,536 operands once passed the node's 16-bit count: `0 or ... or x`
    // gave 0, `0 == ... == 1` True. The chains come as --jsonl lines (an
    // argument that long is past the kernel's limit).
    for (const auto& chained : {std::pair{" or ", "a or b or c"}, {" and ", "a and b and c"}, {" == ", "a < b < c"}}) {
        const std::string op = chained.first, example = chained.second;  // (clang 14 captures no structured binding)
        INFO(op);
        auto chain = [&](int operators) {
            std::string text = "0";
            for (int i = 0; i < operators; ++i) text += op + std::string("x");
            return text;
        };
        auto line = [&](int operators) { return "{\"expr\": \"" + chain(operators) + "\", \"bindings\": {\"x\": 7}}\n"; };
        const auto r = run_oprec({"calc", "--jsonl"}, line(65535) + line(65534));
        CHECK(r.exit_code == 1);  // a line refused, the others answered
        const auto newline = r.out.find('\n');
        REQUIRE(newline != std::string::npos);
        CHECK(r.out.substr(0, newline).find(fmt::format("a chain like {} of 65536 operands: at most 65535", example)) !=
              std::string::npos);
        const std::string value = op == " or "    ? "\"type\":\"int\",\"value\":7"
                                  : op == " and " ? "\"type\":\"int\",\"value\":0"
                                                  : "\"type\":\"bool\",\"value\":false";
        CHECK(r.out.substr(newline + 1).find(value) != std::string::npos);
    }
}
