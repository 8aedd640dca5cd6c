// The REPL's `fit`: the per-stage table `oprec fit` prints for the same
// options (the table is one function, the numbers the public API's), and
// options it cannot take named as typed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "cli/repl_support.h"
#include "repl/fit_report.h"

using namespace oprec;
using namespace oprec::testing;

namespace {

const std::string kLlama = (source_dir() / "examples" / "hf" / "llama-2-7b.json").string();

// `oprec fit ARGS`'s standard output.
std::string cli(const std::string& args) {
    const std::string cmd = std::string(OPREC_BINARY) + " fit " + args + " 2>/dev/null";
    FILE* pipe = popen(cmd.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buf[4096];
    for (std::size_t n = 0; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    pclose(pipe);
    return out;
}

std::string ok(repl::Session& s, Captured& c, const std::string& line) {
    INFO(line << "\n" << c.err.str());
    REQUIRE(s.handle(line, c.output));
    return c.take_out();
}

std::string fails(repl::Session& s, Captured& c, const std::string& line) {
    INFO(line);
    REQUIRE_FALSE(s.handle(line, c.output));
    c.take_out();
    return c.take_err();
}

}  // namespace

TEST_CASE("repl: fit prints the table oprec fit prints", "[repl][fit]") {
    Captured c;
    repl::Session s(shipped_session());
    const std::pair<std::string, std::string> cases[] = {
        {"tp=2 pp=2 gbs=64", "--tp 2 --pp 2 --gbs 64"},
        {"gpus=8 tp=8 seq=4096 recompute=full dtype=bf16 records=reference",
         "--gpus 8 --tp 8 --seq 4096 --recompute full --dtype bf16 --records reference"},
        {"gpus=16 tp=2 pp=2 vpp=2 gbs=128 zero=2 sp=false flash_attention=false device_memory=40GiB",
         "--gpus 16 --tp 2 --pp 2 --vpp 2 --gbs 128 --zero 2 --no-sp --no-flash-attention --device-memory 40GiB"},
        {"gpus=8 pp=4 first-stage-layers=7 last-stage-layers=7 gbs=32 untied=true optimizer=sgd",
         "--gpus 8 --pp 4 --first-stage-layers 7 --last-stage-layers 7 --gbs 32 --untie-embeddings --optimizer sgd"},
    };
    for (const auto& [options, flags] : cases) {
        INFO(options);
        const std::string shown = ok(s, c, "fit " + kLlama + " " + options);
        CHECK(shown == cli(kLlama + " " + flags));
        CHECK(shown.find("\npeak: stage ") != std::string::npos);
    }
    // The second fit under a record set reuses its records: the same table.
    CHECK(ok(s, c, "fit " + kLlama + " tp=2 pp=2 gbs=64") == cli(kLlama + " --tp 2 --pp 2 --gbs 64"));
    // More than eight stages: the first two, the peak and the last two, and where the rest are.
    const std::string many = ok(s, c, "fit " + kLlama + " gpus=16 pp=16");
    CHECK(many.find("(16 stages; `oprec fit --format json` lists every one)") != std::string::npos);
    CHECK(ok(s, c, "fit " + kLlama + " tp=8 device_memory=1GiB").find("does not fit") != std::string::npos);
}

TEST_CASE("repl: fit names the option it cannot take", "[repl][fit]") {
    Captured c;
    repl::Session s(shipped_session());
    CHECK(fails(s, c, "fit").find("`fit` needs a Hugging Face config.json") != std::string::npos);
    CHECK(fails(s, c, "fit tp=2").find("`fit` needs a Hugging Face config.json") != std::string::npos);
    const std::string typo = fails(s, c, "fit " + kLlama + " tpp=2");
    CHECK(typo.find("`fit` has no option `tpp`") != std::string::npos);
    CHECK(typo.find("`tp`") != std::string::npos);
    CHECK(fails(s, c, "fit " + kLlama + " tp=0").find("tp=0: expected a positive integer") != std::string::npos);
    CHECK(fails(s, c, "fit " + kLlama + " sp=maybe").find("sp=maybe: expected true or false") != std::string::npos);
    CHECK(fails(s, c, "fit " + kLlama + " device_memory=lots").find("device_memory=lots") != std::string::npos);
    CHECK(fails(s, c, "fit " + kLlama + " tp=3").find("is not a multiple of tp * pp * cp") != std::string::npos);
    CHECK(fails(s, c, "fit " + kLlama + " schedule=fast").find("schedule `fast`") != std::string::npos);
    CHECK(fails(s, c, "fit " + kLlama + " records=no_such").find("do not load") != std::string::npos);
    CHECK(fails(s, c, "fit no/such/config.json").find("no/such/config.json") != std::string::npos);
    // A failed fit changes nothing: the next one prices.
    CHECK(ok(s, c, "fit " + kLlama + " tp=2").find("peak: stage 0") != std::string::npos);
    CHECK(ok(s, c, "help fit").find("fit CONFIG [NAME=VALUE ...]") == 0);
}

TEST_CASE("repl: fit completes its options", "[repl][fit]") {
    Captured c;
    repl::Session s(shipped_session());
    const repl::Completion k = s.complete("fit config.json tp=2 recompute_m");
    REQUIRE(k.candidates == std::vector<std::string>{"recompute_method"});
    CHECK(k.suffix == "=");
    CHECK(s.complete("fit config.json fi").candidates == std::vector<std::string>{"first_stage_layers"});
    CHECK(s.complete("fit config.json tp=").candidates.empty());
}

TEST_CASE("a parameter count in three figures, the unit chosen after rounding", "[fit][repl]") {
    using oprec::repl::parameter_count;
    CHECK(parameter_count(6738415616) == "6.74B");
    CHECK(parameter_count(671026279424) == "671B");
    CHECK(parameter_count(124439808) == "124M");
    CHECK(parameter_count(999700480) == "1B");  // not "1e+03M"
    CHECK(parameter_count(999.4e6) == "999M");
    CHECK(parameter_count(999.6e9) == "1T");
    CHECK(parameter_count(13600) == "13.6K");
    CHECK(parameter_count(999) == "999");
}
