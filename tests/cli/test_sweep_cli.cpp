// The `oprec` command on Hugging Face configs: `oprec eval --hf` on the
// bundled examples (the worked numbers of docs/domain.md §2.4), its errors
// (exit 2, naming the key), and `oprec sweep`: CSV, JSON, the Pareto table,
// the budget, and Ctrl-C writing out what was priced.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

const std::string kExamples = OPREC_TEST_DATA "/../examples/hf/";

struct Run {
    int status = -1;
    std::string out;
};

// Runs `oprec ARGS` through the shell; `err` picks up standard error too.
Run oprec(const std::string& args, bool err = false) {
    const std::string cmd = std::string(OPREC_BINARY) + " " + args + (err ? " 2>&1" : " 2>/dev/null");
    FILE* pipe = popen(cmd.c_str(), "r");
    REQUIRE(pipe != nullptr);
    Run r;
    char buf[4096];
    std::size_t n = 0;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A file in a fresh temporary folder, removed with it.
struct TempDir {
    fs::path dir;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "oprec-sweep-XXXXXX").string();
        REQUIRE(mkdtemp(tmpl.data()) != nullptr);
        dir = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
};

const std::string kStrategy = "--tp 4 --cp 2 --mbs 1 --seq 4096 --dtype bf16";
const std::string kWorked = kStrategy + " --recompute none";  // the worked layers are plain

}  // namespace

TEST_CASE("oprec eval --hf prices the bundled models' worked layers", "[cli][hf]") {
    auto total = [](const std::string& args) {
        const Run r = oprec("eval --hf " + args);
        INFO(r.out);
        CHECK(r.status == 0);
        return r.out;
    };
    const std::string llama = total(kExamples + "llama-2-7b.json " + kWorked);
    CHECK(has(llama, "(profile default)"));
    CHECK(has(llama, "qkv                      21,233,664"));
    CHECK(has(llama, "layer                               96,993,280    92.50 MiB"));
    CHECK(has(total(kExamples + "mixtral-8x7b.json " + kWorked), "layer                              147,081,216"));
    CHECK(has(total(kExamples + "deepseek-v3.json --kind dense " + kWorked), "layer                              291,373,056"));
    const std::string moe = total(kExamples + "deepseek-v3.json " + kWorked);  // the default kind: moe
    CHECK(has(moe, "layer 3 (moe)"));
    CHECK(has(moe, "routed         109,051,903.99999999"));
    CHECK(has(moe, "layer                              357,965,824"));
    CHECK(has(total(kExamples + "deepseek-v3.json --layer 2 " + kWorked), "layer 2 (dense)"));

    CHECK(has(total(kExamples + "llama-2-7b.json --recompute selective " + kStrategy), "96,993,280") == false);
    // Selective is the default, as the HyperParallel parser's.
    CHECK(has(total(kExamples + "llama-2-7b.json " + kStrategy), "layer                               56,360,960"));
    CHECK(has(total(kExamples + "llama-2-7b.json --recompute selective " + kStrategy), "layer                               56,360,960"));
    CHECK(has(total(kExamples + "mixtral-8x7b.json --recompute selective " + kStrategy), "88,360,960"));
    CHECK(has(total(kExamples + "deepseek-v3.json --kind dense --recompute selective " + kStrategy), "230,555,648"));
    CHECK(has(total(kExamples + "deepseek-v3.json --recompute selective " + kStrategy), "297,148,416"));
    CHECK(has(total(kExamples + "deepseek-v3.json --recompute selective --switch attUp=0 " + kStrategy),
              "qkv                      36,569,088"));
    CHECK(has(total(kExamples + "llama-2-7b.json --cp-algo ulysses " + kWorked), "qkv                      12,845,056"));
    CHECK(has(total(kExamples + "mixtral-8x7b.json --cp-algo ulysses " + kWorked), "qkv                       6,553,600"));
    CHECK(has(total(kExamples + "deepseek-v3.json --cp-algo ulysses " + kWorked), "qkv                     111,476,736"));
    CHECK(has(total(kExamples + "llama-2-7b.json --no-sp " + kWorked), "proj                     16,777,216"));
    CHECK(has(total(kExamples + "llama-2-7b.json --param-casts " + kWorked), "160,169,984"));
    CHECK(has(total(kExamples + "mixtral-8x7b.json --param-casts " + kWorked), "251,938,816"));
    CHECK(has(total(kExamples + "deepseek-v3.json --param-casts " + kWorked), "599,793,664"));
    const std::string full = total(kExamples + "llama-2-7b.json --recompute full " + kStrategy);
    CHECK(has(full, "FULL_REC_LAYER"));
    CHECK(has(full, "layer (its input)                   33,554,432"));
    CHECK(has(total(kExamples + "deepseek-v3.json --recompute full " + kStrategy), "58,720,256"));
    const std::string qwen = total(kExamples + "qwen3-8b.json " + kWorked);
    CHECK(has(qwen, "(profile qwen)"));
    CHECK(has(qwen, "norm                     27,262,976"));
    CHECK(has(qwen, "layer                               98,828,288"));
}

TEST_CASE("oprec eval --hf --format json and --show-layer", "[cli][hf]") {
    const Run r = oprec("eval --hf " + kExamples + "mixtral-8x7b.json --format json " + kWorked);
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["model"]["family"] == "mixtral");
    CHECK(doc["model"]["kind"] == "decoder");
    CHECK(doc["strategy"]["tp"] == 4);
    CHECK(doc["report"]["slots"]["routed"]["bytes"].get<double>() == 96468992.0);
    CHECK(doc["layer_doc"]["fields"]["n_exp"] == 8);

    TempDir tmp;
    const Run shown = oprec("eval --hf " + kExamples + "deepseek-v3.json --show-layer --recompute selective " + kStrategy);
    REQUIRE(shown.status == 0);
    const std::string path = tmp.write("layer.json", shown.out);
    const Run again = oprec("eval " + path);
    CHECK(again.status == 0);
    CHECK(has(again.out, "SEL_REC_LAYER"));
    CHECK(has(again.out, "layer                              297,148,416"));

    // A fully recomputed layer's document prices its input, as --hf does (it once
    // priced every slot kept: 675,282,944 for Llama-2-7B's 33,554,432).
    const Run full = oprec("eval --hf " + kExamples + "llama-2-7b.json --show-layer --recompute full " + kStrategy);
    REQUIRE(full.status == 0);
    const Run priced = oprec("eval " + tmp.write("full.json", full.out));
    CHECK(priced.status == 0);
    CHECK(has(priced.out, "FULL_REC_LAYER"));
    CHECK(has(priced.out, "layer (its input)                   33,554,432"));
    const Run unpriced = oprec("eval " + tmp.write("full.json", full.out) + " --set h=none", true);
    CHECK(unpriced.status == 1);
    CHECK(has(unpriced.out, "full.json: the layer's input (micro_factor * bytes_compute * s * b * h): "));
    const Run huge = oprec("eval " + tmp.write("full.json", full.out) + " --set h=1e300 --set s=1e300", true);
    CHECK(huge.status == 1);
    CHECK(has(huge.out, "bytes past a float's range (the layer's input inf, "));
    // Its input finite, its parts (which the JSON reports) not: said too.
    const Run parts = oprec("eval " + tmp.write("full.json", full.out) + " --set s_fa=1e300 --set s=1e100 --format json",
                            true);
    CHECK(parts.status == 1);
    CHECK(has(parts.out, "bytes past a float's range (attention inf"));
    // A report that cannot be priced fails the command, as with eval --hf.
    CHECK(oprec("eval " + tmp.write("full.json", full.out) + " --set t=0").status == 1);
}

TEST_CASE("oprec eval --hf: a missing or impossible key exits 2 naming it", "[cli][hf][errors]") {
    TempDir tmp;
    auto fails = [&](const std::string& json, const std::string& args, const std::string& named) {
        const std::string path = tmp.write("config.json", json);
        const Run r = oprec("eval --hf " + path + " " + args, true);
        INFO(r.out);
        CHECK(r.status == 2);
        CHECK(has(r.out, named));
    };
    const std::string llama = R"("model_type": "llama", "num_hidden_layers": 2, "intermediate_size": 128)";
    fails("{" + llama + R"(, "num_attention_heads": 32})", "", "missing key `hidden_size`");
    // A number was read as no model_type: priced by the default profile without a word.
    fails(R"({"model_type": 5, "num_hidden_layers": 2, "intermediate_size": 128, "hidden_size": 4096,
             "num_attention_heads": 32})", "", "`model_type` is 5: expected a string");
    fails("{" + llama + R"(, "hidden_size": 4096, "num_attention_heads": 30})", "",
          "`num_attention_heads` (30) does not divide `hidden_size` (4096)");
    fails("{" + llama + R"(, "hidden_size": 4096, "num_attention_heads": 32})", "--tp 3",
          "--tp 3: does not divide the heads, `num_attention_heads` = 32");
    fails("{" + llama + R"(, "hidden_size": 4096, "num_attention_heads": -32})", "", "`num_attention_heads` is -32");
    fails("{" + llama + R"(, "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": "long"})", "",
          "`max_position_embeddings` is \"long\": expected a whole number");
    fails("{\"hidden_size\": 4096,", "", "invalid JSON");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--tp 1,2", "use `oprec sweep` for a grid");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--kind moe", "has no moe layer");
    // A sequence that does not split over cp would price a fraction of a token (fit refused it; eval did not).
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--cp 3 --seq 4096",
          "--seq 4096 does not split evenly over cp 3\n");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4, "max_position_embeddings": 100})", "--cp 3",
          "--seq 100 does not split evenly over cp 3 (`max_position_embeddings` in ");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--cp 3",
          "--seq 4096 does not split evenly over cp 3 (the default sequence)");
    // So does sequence parallelism over tp, of each CP rank's share.
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--tp 4 --cp 2 --seq 4100",
          "sequence parallelism splits the sequence over tp: --seq 4100 over cp 2 does not split evenly over tp 4 "
          "(--no-sp keeps it whole)");
    CHECK(oprec("eval --hf " + tmp.write("config.json", "{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})") +
                " --tp 4 --cp 2 --seq 4100 --no-sp").status == 0);
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--layer 0 --kind decoder", "give one");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--cp-algo spiral", "--cp-algo spiral");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--family llama3", "no such profile");
    // The edits go through the public API, as plain `oprec eval`'s do.
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--set tt=3",
          "--set tt=3: no field `tt` in the records' schema (did you mean `t`?)");
    fails("{" + llama + R"(, "hidden_size": 64, "num_attention_heads": 4})", "--switch softmx=0", "--switch softmx=0");
    CHECK(oprec("eval --hf " + tmp.dir.string() + "/absent.json").status == 2);
}

TEST_CASE("oprec sweep --format csv: a row per strategy and setting", "[cli][sweep]") {
    const Run r = oprec("sweep " + kExamples + "deepseek-v3.json --tp 2,4 --cp 2 --seq 4096 --format csv");
    REQUIRE(r.status == 0);
    std::istringstream lines(r.out);
    std::string header, line;
    std::getline(lines, header);
    CHECK(header ==
          "tp,cp,cp_algo,sp,ep,etp,mbs,seq,dtype,flash_attention,param_casts,micro_factor,setting,recomputed,"
          "n_recomputed,dense_bytes,moe_bytes,model_bytes,skipped");
    std::size_t rows = 0;
    bool plain_found = false, rule_found = false;
    while (std::getline(lines, line)) {
        ++rows;
        CHECK(std::count(line.begin(), line.end(), ',') == std::count(header.begin(), header.end(), ','));
        if (line.rfind("4,2,ring,on,1,1,1,4096,bf16,on,off,1,plain,,0,", 0) == 0) {
            plain_found = true;
            CHECK(has(line, ",291373056.0,357965824.0,"));
        }
        if (has(line, "4,2,ring,on,1,1,1,4096,bf16,on,off,1,selective,headCast+dropout+softmax+normOp+gather+ffAct,6,")) {
            rule_found = true;
            CHECK(has(line, ",230555648.0,297148416.0,"));
        }
    }
    CHECK(rows == 2 * 258);
    CHECK(plain_found);
    CHECK(rule_found);
}

TEST_CASE("oprec sweep: an empty item of a list is refused, not dropped", "[cli][sweep][errors]") {
    const std::string llama = "sweep " + kExamples + "llama-2-7b.json --seq 4096 ";
    // CLI11's split dropped it: `--tp 1,,2` swept 1 and 2 as if the slip were not there.
    for (const auto& [args, said] : std::vector<std::pair<std::string, std::string>>{
             {"--tp 1,,2", "oprec sweep: --tp 1,,2: an empty value\n"},
             {"--cp 2,", "oprec sweep: --cp 2,: an empty value\n"},
             {"--cp-algo ,ring", "oprec sweep: --cp-algo ,ring: an empty value\n"},
             {"--pp 1,,2 --budget 80GiB", "oprec sweep: --pp 1,,2: an empty value\n"},
             {"--schedule 1f1b,,gpipe --budget 80GiB", "oprec sweep: --schedule 1f1b,,gpipe: an empty value\n"}}) {
        const Run r = oprec(llama + args, true);
        INFO(args);
        CHECK(r.status == 2);
        CHECK(r.out == said);
    }
    // Commas and repeated options alike still make a list.
    CHECK(oprec(llama + "--tp 1,2 --format json").out == oprec(llama + "--tp 1 --tp 2 --format json").out);
}

TEST_CASE("oprec sweep: strategies the model cannot take are counted apart from those priced", "[cli][sweep]") {
    const std::string llama = "sweep " + kExamples + "llama-2-7b.json --seq 4096 --tp 1,3,5";
    const Run json_run = oprec(llama + " --format json");
    REQUIRE(json_run.status == 0);
    const auto doc = nlohmann::json::parse(json_run.out);
    CHECK(doc["planned"] == 3);
    CHECK(doc["written"] == 3);
    CHECK(doc["priced"] == 1);  // tp 3 and 5 do not divide 32 heads
    CHECK(doc["skipped"] == 2);
    CHECK(doc["strategies"].size() == 3);
    const Run table = oprec(llama);
    CHECK(has(table.out, "3 strategies x 258 recompute settings (plain, full and the 2^8 switch settings) priced in "));
    CHECK(has(table.out, " s; 2 the model cannot take, skipped\n"));
    CHECK_FALSE(has(oprec(llama.substr(0, llama.size() - 4)).out, "skipped"));
}

TEST_CASE("oprec sweep: a value a list gives twice is swept once", "[cli][sweep]") {
    const std::string llama = kExamples + "llama-2-7b.json --seq 4096 --format csv";
    const Run once = oprec("sweep " + llama + " --tp 1,2 --cp-algo ring");
    REQUIRE(once.status == 0);
    // The same names twice, and twice by two spellings (ring is colossalai_cp's short name).
    CHECK(oprec("sweep " + llama + " --tp 1,1,2 --tp 2 --cp-algo ring,ring").out == once.out);
    // So with --budget: the whole-rank fits' own lists too (the first line says how long it took).
    const std::string budget = kExamples + "llama-2-7b.json --seq 4096 --budget 80GiB --gpus 8";
    const auto rows = [](const std::string& out) { return out.substr(out.find('\n')); };
    const Run fit_once = oprec("sweep " + budget + " --tp 1,2 --pp 1,2 --zero 1 --schedule 1f1b");
    REQUIRE(fit_once.status == 0);
    CHECK(has(fit_once.out, "4 strategies on 8 GPUs"));
    const Run fit_twice = oprec("sweep " + budget + " --tp 1,2,1 --pp 1,2,2 --zero 1,1 --schedule 1f1b,1f1b");
    CHECK(has(fit_twice.out, "4 strategies on 8 GPUs"));
    CHECK(rows(fit_twice.out) == rows(fit_once.out));
    // 1 and 1.0 are two micro-factors (an int and a float), as before.
    CHECK(oprec("sweep " + llama + " --tp 1 --micro-factor 1,1.0").out.size() > oprec("sweep " + llama + " --tp 1").out.size());
}

TEST_CASE("oprec sweep --format json: 64 strategies of DeepSeek-V3, every setting", "[cli][sweep]") {
    const Run r = oprec("sweep " + kExamples +
                        "deepseek-v3.json --tp 1,2,4,8 --cp 1,2 --cp-algo ring,ulysses --seq 4096,32768 --mbs 1,2 "
                        "--format json");
    REQUIRE(r.status == 0);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["planned"] == 64);
    CHECK(doc["written"] == 64);
    CHECK(doc["priced"] == 64);
    CHECK(doc["skipped"] == 0);
    CHECK(doc["interrupted"] == false);
    CHECK(doc["settings"].size() == 258);
    REQUIRE(doc["strategies"].size() == 64);
    for (const auto& s : doc["strategies"]) {
        CHECK(s["bytes"]["moe"].size() == 258);
        CHECK(s["model_bytes"].size() == 258);
    }
}

TEST_CASE("oprec sweep: the Pareto table and the budget", "[cli][sweep]") {
    const Run plain = oprec("sweep " + kExamples + "llama-2-7b.json --tp 4,8 --cp 2 --seq 4096");
    REQUIRE(plain.status == 0);
    CHECK(has(plain.out, "Pareto front"));
    CHECK(has(plain.out, "2 strategies x 258 recompute settings"));
    CHECK(has(plain.out, "decoder/layer"));
    CHECK(has(plain.out, "| none"));
    CHECK(has(plain.out, "| full"));

    const Run budget = oprec("sweep " + kExamples + "deepseek-v3.json --tp 4,8 --cp 1,2 --seq 4096,32768 --activation-budget 40GiB");
    REQUIRE(budget.status == 0);
    CHECK(has(budget.out, "against the budget of 40.00 GiB"));
    CHECK(has(budget.out, "8 of 8 strategies fit"));
    const Run tight = oprec("sweep " + kExamples + "deepseek-v3.json --tp 1 --seq 32768 --activation-budget 1GiB");
    CHECK(has(tight.out, "no strategy fits"));
    CHECK(has(tight.out, "nothing fits: the least is"));
    CHECK(oprec("sweep " + kExamples + "llama-2-7b.json --activation-budget lots").status == 2);
    const Run skipped = oprec("sweep " + kExamples + "llama-2-7b.json --tp 3,4");
    CHECK(skipped.status == 0);
    CHECK(has(skipped.out, "skipped: --tp 3"));
}

TEST_CASE("oprec sweep --budget: 1F1B and interleaved rows of a pp take one default batch", "[cli][sweep][fit]") {
    // The interleaved rows need pp micro-batches a rank; the 1F1B rows beside
    // them once took one, and interleaving looked 6.4 GiB worse for nothing.
    const Run r = oprec("sweep " + kExamples + "llama-2-7b.json --gpus 8 --tp 2 --pp 4 --vpp 1,2 --budget 80GiB "
                        "--no-progress --format json");
    REQUIRE(r.status == 0);
    const auto fits = nlohmann::json::parse(r.out)["fits"];
    REQUIRE(fits.size() == 2);
    CHECK(fits[0]["schedule"] != fits[1]["schedule"]);
    CHECK(fits[0]["peak_bytes"] == fits[1]["peak_bytes"]);
    const Run stated = oprec("sweep " + kExamples + "llama-2-7b.json --gpus 8 --tp 2 --pp 4 --vpp 1,2 --gbs 4 "
                             "--budget 80GiB --no-progress --format json");
    REQUIRE(stated.status == 0);
    CHECK(nlohmann::json::parse(stated.out)["fits"][0]["peak_bytes"] == fits[0]["peak_bytes"]);
    // Each row states the batch it was priced at, and fit prices that strategy alike.
    CHECK(fits[0]["strategy"].get<std::string>().find(" gbs=4 ") != std::string::npos);
    const Run table = oprec("sweep " + kExamples + "llama-2-7b.json --gpus 8 --tp 2 --pp 4 --vpp 1,2 --budget 80GiB "
                            "--no-progress");
    CHECK(has(table.out, "mbs   gbs   seq"));
    CHECK(has(table.out, "note: no --gbs: each row takes the least batch its schedule runs"));
    const Run fit = oprec("fit " + kExamples + "llama-2-7b.json --gpus 8 --tp 2 --pp 4 --gbs 4 --format json");
    CHECK(nlohmann::json::parse(fit.out)["peak_bytes"] == fits[0]["peak_bytes"]);
}

TEST_CASE("oprec sweep --budget: layer options the grid varies get a column", "[cli][sweep][fit]") {
    // Two rows once looked alike: cp-algo and dtype have no column of their own.
    const Run r = oprec("sweep " + kExamples + "llama-2-7b.json --budget 80GiB --tp 4 --cp 2 --cp-algo ring,ulysses "
                        "--no-progress");
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "stage    layer options\n"));
    CHECK(has(r.out, "      0    ulysses\n"));
    CHECK(has(r.out, "      0    ring\n"));
    const Run plain = oprec("sweep " + kExamples + "llama-2-7b.json --budget 80GiB --tp 4 --no-progress");
    CHECK_FALSE(has(plain.out, "layer options"));
}

TEST_CASE("oprec sweep --budget: a row whose layers were balanced says how, and fit takes it", "[cli][sweep][fit]") {
    // Gemma-2-9B's 42 layers do not split over 4 stages: the sweep balanced
    // them while fit refused, and the row could not be priced again.
    const Run r = oprec("sweep " + kExamples + "gemma-2-9b.json --gpus 8 --pp 4 --seq 2048 --budget 80GiB "
                        "--no-progress --format json");
    REQUIRE(r.status == 0);
    const auto row = nlohmann::json::parse(r.out)["fits"].at(0);
    CHECK(row["strategy"].get<std::string>().find(" stage-layers=10,11,11,10 ") != std::string::npos);
    const Run fit = oprec("fit " + kExamples + "gemma-2-9b.json --gpus 8 --pp 4 --seq 2048 --stage-layers 10,11,11,10 "
                          "--format json");
    REQUIRE(fit.status == 0);
    CHECK(nlohmann::json::parse(fit.out)["peak_bytes"] == row["peak_bytes"]);
    const Run table = oprec("sweep " + kExamples + "gemma-2-9b.json --gpus 8 --pp 4 --seq 2048 --budget 80GiB "
                            "--no-progress");
    CHECK(has(table.out, "3 *\n"));
    CHECK(has(table.out, "* the layers do not split evenly over pp * vpp"));
    CHECK(oprec("fit " + kExamples + "gemma-2-9b.json --gpus 8 --pp 4 --stage-layers 10,11,11").status == 2);
    CHECK(oprec("fit " + kExamples + "gemma-2-9b.json --gpus 8 --pp 4 --stage-layers 10,11,11,10 "
                "--first-stage-layers 10").status == 2);
}

TEST_CASE("oprec sweep --budget: an error of the records is said, not counted as a strategy that cannot run",
          "[cli][sweep][fit]") {
    TempDir tmp;
    std::ifstream in(OPREC_TEST_DATA "/../records/rank_calibrated.rec");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string import = "import \"calibrated.rec\"";
    REQUIRE(text.find(import) != std::string::npos);
    text.replace(text.find(import), import.size(), "import \"" OPREC_TEST_DATA "/../records/calibrated.rec\"");
    const std::string records = tmp.write("mine.rec", text + "\nterm extra = 1 / (t - 1)\n");
    const Run r = oprec("sweep " + kExamples + "llama-2-7b.json --tp 1,2,4 --budget 80GiB --no-progress --records " +
                        records, true);
    CHECK(r.status == 1);
    CHECK(has(r.out, "0 cannot run\n"));
    CHECK(has(r.out, "oprec sweep: 1 strategy could not be priced by the records; the first: "));
    CHECK(has(r.out, "mine.rec:"));
    CHECK(has(r.out, "in term `extra` (stage 0, chunk 0): division by zero"));
    // A term past a float's range names its place too.
    const std::string inf = tmp.write("inf.rec", text + "\nterm extra = 1e308 * 10\n");
    const Run f = oprec("fit " + kExamples + "llama-2-7b.json --records " + inf, true);
    CHECK(f.status == 2);
    CHECK(has(f.out, "inf.rec:" + std::to_string(std::count(text.begin(), text.end(), '\n') + 2) +
                         ":6: term `extra` gives inf bytes on stage 0"));
}

TEST_CASE("oprec sweep --budget: the whole rank, the least recompute that fits each strategy", "[cli][sweep][fit]") {
    // The issue's case: Llama-2-7B at tp=1 on one 80 GiB GPU does not fit,
    // whatever is recomputed: its model states alone need over 100 GB.
    const Run alone = oprec("sweep " + kExamples + "llama-2-7b.json --gpus 1 --zero 0 --budget 80GB --no-progress");
    CHECK(alone.status == 1);
    CHECK(has(alone.out, "no strategy fits"));
    CHECK(has(alone.out, "1 do not fit even fully recomputed"));
    const Run grid = oprec("sweep " + kExamples + "llama-2-7b.json --gpus 8 --tp 1,2,4,8 --pp 1,2,4 --zero 0,1 "
                           "--seq 4096 --gbs 64 --budget 40GiB --no-progress --format json");
    REQUIRE(grid.status == 0);
    const auto doc = nlohmann::json::parse(grid.out);
    CHECK(doc["strategies_tried"].get<int>() == 24);
    REQUIRE(!doc["fits"].empty());
    std::string last_recompute = "none";
    double last_peak = 0;
    for (const auto& f : doc["fits"]) {
        CHECK(f["peak_bytes"].get<double>() <= 40.0 * (1 << 30));
        // The least recompute first, then the smallest peak.
        if (f["recompute"] == last_recompute) CHECK(f["peak_bytes"].get<double>() >= last_peak);
        last_recompute = f["recompute"].get<std::string>();
        last_peak = f["peak_bytes"].get<double>();
        // Each is what `oprec fit` says of the same strategy.
        const Run one = oprec("fit " + kExamples + "llama-2-7b.json --gpus 8 --seq 4096 --gbs 64 --device-memory 40GiB" +
                              " --tp " + std::to_string(f["tp"].get<int>()) + " --pp " + std::to_string(f["pp"].get<int>()) +
                              " --zero " + std::to_string(f["zero"].get<int>()) + " --recompute " +
                              f["recompute"].get<std::string>() + " --format json");
        CHECK(nlohmann::json::parse(one.out)["peak_bytes"].get<double>() == f["peak_bytes"].get<double>());
    }
}

TEST_CASE("oprec sweep --budget: options of the activations-only sweep are refused, not ignored", "[cli][sweep][fit][errors]") {
    const std::string config = kExamples + "llama-2-7b.json --tp 2 --no-progress --budget 80GiB ";
    for (const auto& [option, words] : std::vector<std::pair<std::string, std::string>>{
             {"--micro-factor 2", "--micro-factor does not apply with --budget: the whole rank counts the micro-batches"},
             {"--param-casts", "--param-casts does not apply with --budget"},
             {"--activation-budget 10GiB", "--activation-budget does not apply with --budget"}}) {
        INFO(option);
        const Run r = oprec("sweep " + config + option, true);
        CHECK(r.status == 2);
        CHECK(has(r.out, words));
        CHECK_FALSE(has(r.out, "peak GiB"));  // nothing priced
    }
    // Their defaults stated are not a slip.
    CHECK(oprec("sweep " + config + "--no-param-casts").status == 0);
}

TEST_CASE("oprec sweep: the whole rank's options without --budget are refused, not ignored", "[cli][sweep][errors]") {
    for (const std::string option : {"--plot x.html", "--pp 2", "--vpp 2", "--zero 3", "--schedule gpipe", "--gpus 16",
                                     "--gbs 64"}) {
        INFO(option);
        const Run r = oprec("sweep " + kExamples + "llama-2-7b.json --no-progress " + option, true);
        CHECK(r.status == 2);
        CHECK(has(r.out, option.substr(0, option.find(' ')) + " goes with --budget"));
    }
    Run r = oprec("sweep " + kExamples + "llama-2-7b.json --no-progress --budget 80GiB --schedule 1f1b,nope", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--schedule nope: expected 1f1b, interleaved, gpipe, dualpipev or zero-bubble"));
    // A grid none of whose strategies can run has no answer: 2, not "nothing fits" (1).
    r = oprec("sweep " + kExamples + "llama-2-7b.json --no-progress --budget 80GiB --tp 3", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "no strategy of the grid can run on this model; the first: --gpus 8 is not a multiple of tp * pp * cp"));
    CHECK(oprec("sweep " + kExamples + "llama-2-7b.json --activation-budget 0", true).status == 2);
    // The same without --budget: every strategy skipped once exited 0.
    r = oprec("sweep " + kExamples + "llama-2-7b.json --no-progress --tp 3,5", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "no strategy of the grid can run on this model; the first: tp=3 "));
    CHECK(has(r.out, "--tp 3: does not divide the heads"));
    // A strategy whose products pass 64 bits is skipped by --budget, not an abort (134).
    r = oprec("sweep " + kExamples + "llama-2-7b.json --no-progress --budget 80GiB --seq 4611686018427387904", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "integer overflow"));
}

TEST_CASE("oprec eval --hf: a micro-factor that is not finite, an unknown --only, a negative --layer exit 2", "[cli][hf][errors]") {
    const std::string config = kExamples + "llama-2-7b.json";
    Run r = oprec("eval --hf " + config + " --micro-factor inf", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--micro-factor inf: expected a finite number above 0"));
    r = oprec("sweep " + config + " --micro-factor 1,nan", true);
    CHECK(r.status == 2);
    r = oprec("eval --hf " + config + " --only softmx", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--only softmx: the records state no op or part `softmx` (did you mean `softmax`?)"));
    r = oprec("eval --hf " + config + " --layer -1", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--layer: expected a whole number, at least 0"));
}

TEST_CASE("oprec sweep: a grid beyond ten million strategies is refused before pricing", "[cli][sweep][errors]") {
    std::string thousand;
    for (int i = 1; i <= 1000; ++i) thousand += (i == 1 ? "" : ",") + std::to_string(i);
    const Run r = oprec("sweep " + kExamples + "llama-2-7b.json --mbs " + thousand + " --seq " + thousand +
                            " --micro-factor 1,2,3,4,5,6,7,8,9,10,11",
                        true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "the grid has 11000000 strategies: at most 10000000 in one sweep"));
    CHECK_FALSE(has(r.out, "Pareto"));
    // The whole rank's sweep too (a billion once ran with no end in sight), at a million: each is a fit.
    const Run budget = oprec("sweep " + kExamples + "llama-2-7b.json --budget 80GiB --mbs " + thousand + " --seq " +
                                 thousand + " --zero 0,1",
                             true);
    CHECK(budget.status == 2);
    CHECK(has(budget.out, "the grid has 2000000 strategies: at most 1000000 in one --budget sweep"));
}

TEST_CASE("oprec sweep and eval --hf: a --profiles file with no op profiles is refused, naming the option", "[cli][sweep][hf][errors]") {
    for (const std::string command : {"sweep", "eval --hf"}) {
        INFO(command);
        const std::string config = kExamples + "llama-2-7b.json";
        const Run r = oprec(command == "sweep" ? "sweep " + config + " --profiles fields.rec"
                                               : "eval --hf " + config + " --profiles fields.rec",
                            true);
        CHECK(r.status == 2);
        CHECK(has(r.out, "`fields.rec` states no op profiles: --profiles names them"));
        CHECK_FALSE(has(r.out, "RecordsOptions"));  // the library's words, not the command's
    }
}

namespace {

// Starts `oprec ARGS...` with standard output to `out`; returns its pid.
pid_t spawn_oprec(const std::vector<std::string>& args, const std::string& out) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> all{OPREC_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, OPREC_BINARY, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
    return pid;
}

std::string seq_list() {
    std::string out;
    for (int s = 1024; s <= 65536; s += 1024) out += (out.empty() ? "" : ",") + std::to_string(s);
    return out;
}

// Interrupts a sweep of 16,384 strategies once it has written something;
// returns its exit code and output.
Run interrupted_sweep(const std::string& format, int signal = SIGINT) {
    TempDir tmp;
    const std::string out = (tmp.dir / ("out." + format)).string();
    const pid_t pid = spawn_oprec({"sweep", kExamples + "deepseek-v3.json", "--tp", "1,2,4,8", "--cp", "1,2,4,8", "--seq",
                                   seq_list(), "--mbs", "1,2,3,4", "--micro-factor", "1,2,3,4", "--format", format},
                                  out);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::error_code ec;
    while (std::chrono::steady_clock::now() < deadline && (!fs::exists(out, ec) || fs::file_size(out, ec) < 100000))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    kill(pid, signal);
    int status = 0;
    waitpid(pid, &status, 0);
    Run r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(out);
    std::ostringstream text;
    text << in.rdbuf();
    r.out = text.str();
    return r;
}

}  // namespace

TEST_CASE("Ctrl-C stops a sweep and writes out what was priced", "[cli][sweep][signal]") {
    SECTION("json: still a whole document, marked interrupted") {
        const Run r = interrupted_sweep("json");
        CHECK(r.status == 130);
        const auto doc = nlohmann::json::parse(r.out);
        CHECK(doc["interrupted"] == true);
        CHECK(doc["planned"] == 16384);
        CHECK(doc["written"].get<int>() > 0);
        CHECK(doc["written"].get<int>() < 16384);
        CHECK(doc["strategies"].size() == doc["written"].get<std::size_t>());
        CHECK(doc["priced"].get<int>() + doc["skipped"].get<int>() == doc["written"].get<int>());
    }
    SECTION("csv: whole rows only, every setting of each strategy priced") {
        const Run r = interrupted_sweep("csv");
        CHECK(r.status == 130);
        REQUIRE_FALSE(r.out.empty());
        CHECK(r.out.back() == '\n');
        const auto rows = static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n')) - 1;
        CHECK(rows > 0);
        CHECK(rows % 258 == 0);
        CHECK(rows < 16384u * 258u);
    }
    SECTION("SIGTERM (a job's time limit) too, with the shell's status for it") {
        // It once ended the sweep with nothing written.
        const Run r = interrupted_sweep("json", SIGTERM);
        CHECK(r.status == 143);
        CHECK(nlohmann::json::parse(r.out)["interrupted"] == true);
    }
}
