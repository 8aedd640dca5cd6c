// `oprec fit`: the whole rank per pipeline stage, from a Hugging Face config
// (text and JSON), its errors, and the numbers a reader can check by hand on
// Llama-2-7B (6,738,415,616 parameters).
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/temp_dir.h"

namespace {

const std::string kLlama = OPREC_TEST_DATA "/../examples/hf/llama-2-7b.json";

struct Run {
    int status = -1;
    std::string out;
};

// `oprec ARGS` (words split at spaces) through the tests' runner; `err`
// appends standard error to the output, as a terminal shows both.
Run run_fit_cli(const std::string& args, bool err = false) {
    std::vector<std::string> words;
    std::istringstream in(args);
    for (std::string w; in >> w;) words.push_back(w);
    const oprec::testing::RunResult r = oprec::testing::run_oprec(words);
    return {r.exit_code, err ? r.out + r.err : r.out};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

nlohmann::json fit_json(const std::string& args) {
    const Run r = run_fit_cli("fit " + args + " --format json");
    INFO(r.out);
    REQUIRE((r.status == 0 || r.status == 1));
    return nlohmann::json::parse(r.out);
}

constexpr double kH = 4096, kV = 32000, kFf = 11008, kLayers = 32, kS = 4096;
// Llama-2-7B's parameters: per layer q, k, v, o (4h^2), a gated feed-forward
// (3 h ff) and two RMSNorms (2h); the embedding and the output layer (v h
// each, untied) and the final norm.
constexpr double kLayerParams = 4 * kH * kH + 3 * kH * kFf + 2 * kH;
constexpr double kParams = kLayers * kLayerParams + 2 * kV * kH + kH;

}  // namespace

TEST_CASE("fit: Llama-2-7B's model states on one GPU are its parameters times their bytes", "[fit][cli]") {
    REQUIRE(kParams == 6738415616.0);
    const auto j = fit_json(kLlama + " --gpus 1 --zero 0 --dtype bf16 --seq 4096");
    REQUIRE(j["stages"].size() == 1);
    const auto& terms = j["stages"][0]["terms"];
    CHECK(terms["weights"].get<double>() == 2 * kParams);
    CHECK(terms["gradients"].get<double>() == 4 * kParams);         // fp32 main grads
    CHECK(terms["optimizer_states"].get<double>() == 12 * kParams);  // fp32 main copy + Adam's two moments
    CHECK(j["fits"].get<bool>() == false);                           // 121 GB of model states alone
    CHECK(j["device_bytes"].get<double>() == 80.0 * (1 << 30));
}

TEST_CASE("fit: the distributed optimizer shards the optimizer states over dp", "[fit][cli]") {
    const auto j = fit_json(kLlama + " --gpus 8 --tp 2 --zero 1 --dtype bf16");
    CHECK(j["dp"].get<int>() == 4);
    const auto& terms = j["stages"][0]["terms"];
    const double per_rank = (kParams - kH) / 2 + kH;  // everything split by t but the final norm, whole
    CHECK(terms["optimizer_states"].get<double>() == Approx(12 * per_rank / 4).epsilon(1e-6));
    CHECK(terms["gradients"].get<double>() == Approx(4 * per_rank).epsilon(1e-6));
}

TEST_CASE("fit: a fully recomputed layer keeps its input split by t under sequence parallelism", "[fit][cli]") {
    // The defect issue 24 names: the reference keeps s*b*h*bytes whatever t is.
    const auto j = fit_json(kLlama + " --gpus 8 --tp 8 --seq 4096 --recompute full --dtype bf16");
    const double per_layer = 2 * kS * 1 * kH / 8;  // 4 MiB
    CHECK(j["stages"][0]["terms"]["activations_layers"].get<double>() == kLayers * per_layer);
    const auto ref = fit_json(kLlama + " --gpus 8 --tp 8 --seq 4096 --recompute full --dtype bf16 --records reference");
    CHECK(ref["stages"][0]["terms"]["activations_layers"].get<double>() == kLayers * 2 * kS * kH);  // the reference's figure
}

TEST_CASE("fit: 1F1B's first stage holds pp micro-batches, the last one, and the loss", "[fit][cli]") {
    const auto j = fit_json(kLlama + " --gpus 8 --pp 4 --tp 2 --gbs 64 --dtype bf16");
    REQUIRE(j["stages"].size() == 4);
    CHECK(j["micro_batches"].get<int>() == 64);
    const auto& first = j["stages"][0]["terms"];
    const auto& last = j["stages"][3]["terms"];
    CHECK(j["stages"][0]["layers"].get<int>() == 8);
    CHECK(first["activations_layers"].get<double>() == 4 * last["activations_layers"].get<double>());
    CHECK(first["activations_loss"].get<double>() == 0);
    CHECK(last["activations_loss"].get<double>() > 0);
    CHECK(j["peak_stage"].get<int>() == 0);
    double peak = 0;
    for (const auto& s : j["stages"]) {
        double sum = 0;
        for (const auto& [name, bytes] : s["terms"].items()) sum += bytes.get<double>();
        CHECK(s["total_bytes"].get<double>() == Approx(sum).epsilon(1e-12));
        peak = std::max(peak, s["total_bytes"].get<double>());
    }
    CHECK(j["peak_bytes"].get<double>() == peak);
}

TEST_CASE("fit: the text report answers whether it fits, with the margin", "[fit][cli]") {
    Run r = run_fit_cli("fit " + kLlama + " --gpus 8 --tp 8", true);
    INFO(r.out);
    CHECK(r.status == 0);
    CHECK(has(r.out, "peak: stage 0"));
    CHECK(has(r.out, "fits,"));
    CHECK(has(r.out, "to spare"));
    r = run_fit_cli("fit " + kLlama + " --gpus 1 --device-memory 40GiB", true);
    CHECK(r.status == 1);
    CHECK(has(r.out, "does not fit"));
}

TEST_CASE("fit: strategies the job cannot take are refused, naming the option", "[fit][cli]") {
    Run r = run_fit_cli("fit " + kLlama + " --gpus 6 --tp 4", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--gpus 6 is not a multiple of tp * pp * cp"));
    r = run_fit_cli("fit " + kLlama + " --gpus 6 --pp 3", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "32 layers do not split evenly over pp * vpp"));
    r = run_fit_cli("fit " + kLlama + " --device-memory lots", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--device-memory lots"));
    r = run_fit_cli("fit", true);
    CHECK(r.status == 2);
    r = run_fit_cli("fit " + kLlama + " --records " OPREC_TEST_DATA "/../records/op_records.rec", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "no `term`"));
}

TEST_CASE("fit: sizes past 64 bits or the model, and options that do not go together, are refused first", "[fit][cli][errors]") {
    // Each exits 2 with the command's words: no signal (tp * pp * cp wrapped to 0
    // divided by zero), no clamped value, no library wording.
    const std::vector<std::pair<std::string, std::string>> cases{
        {"--pp 4294967296 --cp 4294967296", "--gpus 8 is not a multiple of tp * pp * cp = 1 * 4294967296 * 4294967296"},
        {"--gpus 0", "--gpus: expected a whole number, at least 1, not `0`"},
        {"--gpus 99999999999999999999", "--gpus: 99999999999999999999 is beyond 64 bits"},
        {"--mbs 9223372036854775807", "mbs * dp = 9223372036854775807 * 8 passes 64 bits"},
        {"--pp 2 --vpp 9223372036854775807", "32 layers cannot fill pp * vpp = 2 * 9223372036854775807 model chunks"},
        {"--cp 3 --gpus 3", "--seq 4096 does not split evenly over cp 3"},
        {"--seq 9223372036854775807", "integer overflow"},
        // The place is the records' formula; a note says the cause is the job's.
        {"--seq 9223372036854775807", "note: the job's sizes (its sequence, widths, batch or vocabulary) pass the "
                                      "64-bit integers the records compute in"},
        {"--pp 2 --first-stage-layers 0", "--first-stage-layers: expected a whole number, at least 1"},
        {"--vpp 2", "--vpp 2 interleaves model chunks over pipeline stages: it needs --pp 2 or more"},
        {"--recompute-layers 3", "--recompute-method and --recompute-layers go with --recompute full"},
        {"--tie-embeddings --untie-embeddings", "--tie-embeddings and --untie-embeddings: give one"},
    };
    for (const auto& [options, words] : cases) {
        INFO(options);
        const Run r = run_fit_cli("fit " + kLlama + " " + options, true);
        CHECK(r.status == 2);
        CHECK(has(r.out, words));
        CHECK_FALSE(has(r.out, "std::"));
    }
}

TEST_CASE("fit: a launch command states the job, strategy options beside it are refused", "[fit][cli][megatron][errors]") {
    const std::string launch = " --megatron-args " OPREC_TEST_DATA "/../examples/megatron/gpt-tp2-pp2.sh";
    Run r = run_fit_cli("fit" + launch + " --tp 2 --zero 3", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--tp, --zero with --megatron-args: the launch command states the job"));
    r = run_fit_cli("fit" + launch + " --gpus 4294967296", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--gpus 4294967296: expected a whole number from 1 to 2147483647"));
    // What goes with it still does.
    r = run_fit_cli("fit" + launch + " --gpus 8 --device-memory 40GiB --format json", true);
    CHECK(r.status == 0);
    // A file that cannot be read is named (it was "oprec fit: it is a directory").
    r = run_fit_cli("fit --megatron-args " OPREC_TEST_DATA, true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "oprec fit: " OPREC_TEST_DATA ": it is a directory"));
}

TEST_CASE("fit, eval --hf, sweep: a model's folder stands for its config.json", "[fit][cli][hf]") {
    std::ifstream in(kLlama);
    const std::string config((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    oprec::testing::TempDir dir;
    dir.write("config.json", config);
    const std::string folder = dir.path().string();
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"fit"}, {"eval", "--hf"}, {"sweep", "--gpus", "16", "--budget", "80GiB"}}) {
        std::vector<std::string> a = command, b = command;
        a.insert(a.end(), {kLlama, "--format", "json"});
        b.insert(b.end(), {folder, "--format", "json"});
        const auto from_file = oprec::testing::run_oprec(a), from_folder = oprec::testing::run_oprec(b);
        INFO(command[0] << "\n" << from_folder.err);
        CHECK(from_folder.exit_code == from_file.exit_code);
        REQUIRE(from_folder.out.size() > 0);
        nlohmann::json x = nlohmann::json::parse(from_file.out), y = nlohmann::json::parse(from_folder.out);
        if (command[0] == "sweep") {  // each names the config as given
            x.erase("config");
            y.erase("config");
        } else if (command[0] == "eval") {
            x["model"].erase("config");
            y["model"].erase("config");
        }
        CHECK(x == y);
    }
    oprec::testing::TempDir empty;
    const auto none = oprec::testing::run_oprec({"fit", empty.path().string()});
    CHECK(none.exit_code == 2);
    CHECK(none.err == "oprec fit: " + empty.path().string() +
                          ": a folder with no config.json (a Hugging Face model's folder holds one)\n");
}

TEST_CASE("fit: an unstated tie_word_embeddings is its transformers class's default", "[fit][cli][hf]") {
    // PretrainedConfig's default is True, and save_pretrained leaves it out:
    // GPT-2's, OPT's, BLOOM's and Gemma's configs do not state it.
    const std::string gpt2 = OPREC_TEST_DATA "/../examples/hf/gpt2.json";
    const nlohmann::json unstated = fit_json(gpt2);
    CHECK(unstated == fit_json(gpt2 + " --tie-embeddings"));
    CHECK(unstated != fit_json(gpt2 + " --untie-embeddings"));
    // A config that states it is read as stated.
    std::ifstream in(kLlama);
    nlohmann::json config = nlohmann::json::parse(in);
    REQUIRE(config["tie_word_embeddings"] == false);
    CHECK(fit_json(kLlama) == fit_json(kLlama + " --untie-embeddings"));
    // LlamaConfig defaults to False: a Llama config without the key (written
    // by hand: save_pretrained writes it) is untied, as transformers reads it.
    config.erase("tie_word_embeddings");
    oprec::testing::TempDir dir;
    const std::string unstated_llama = dir.write("config.json", config.dump()).string();
    CHECK(fit_json(unstated_llama)["stages"] == fit_json(kLlama + " --untie-embeddings")["stages"]);
    config["model_type"] = "gemma";  // a class that defaults to True
    const std::string unstated_gemma = dir.write("gemma.json", config.dump()).string();
    CHECK(fit_json(unstated_gemma)["stages"] == fit_json(kLlama + " --tie-embeddings")["stages"]);
}

TEST_CASE("fit: the model's parameter count, whatever the strategy", "[fit][cli]") {
    // Llama-2-7B's published count, to the parameter.
    for (const char* strategy : {"", " --gpus 8 --tp 2 --pp 4 --zero 3", " --gpus 16 --tp 4 --pp 2 --vpp 2 --dtype fp32"}) {
        INFO(strategy);
        CHECK(fit_json(kLlama + strategy)["parameters"] == 6738415616);
    }
    // The output layer's own table is counted where it is untied.
    CHECK(fit_json(kLlama + " --tie-embeddings")["parameters"] == 6738415616 - 32000 * 4096);
    const Run text = run_fit_cli("fit " + kLlama);
    CHECK(text.out.rfind(kLlama + ": llama (profile default), 32 layers, 6.74B parameters\n", 0) == 0);
    // Gemma-2-9B's: an unstated tie_word_embeddings (tied) and four norms a layer (profile gemma).
    const nlohmann::json gemma = fit_json(OPREC_TEST_DATA "/../examples/hf/gemma-2-9b.json");
    CHECK(gemma["parameters"] == 9241705984);
    CHECK(gemma["model"] == "gemma2 (profile gemma), 42 layers");
    // Mixtral-8x7B's and Llama-2-70B's published counts: experts, and grouped key/value heads.
    CHECK(fit_json(OPREC_TEST_DATA "/../examples/hf/mixtral-8x7b.json")["parameters"] == 46702792704);
    CHECK(fit_json(OPREC_TEST_DATA "/../examples/hf/llama-2-70b.json")["parameters"] == 68976648192);
}

TEST_CASE("fit: --megatron-args takes the command's text itself, as pasted", "[fit][cli][megatron]") {
    const std::string file = OPREC_TEST_DATA "/../examples/megatron/gpt-tp2-pp2.sh";
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto from_file = oprec::testing::run_oprec({"fit", "--megatron-args", file, "--format", "json"});
    const auto pasted = oprec::testing::run_oprec({"fit", "--megatron-args", text, "--format", "json"});
    CHECK(pasted.exit_code == from_file.exit_code);
    CHECK(pasted.err == from_file.err);
    CHECK(nlohmann::json::parse(pasted.out) == nlohmann::json::parse(from_file.out));
    const auto table = oprec::testing::run_oprec({"fit", "--megatron-args", text});
    CHECK(table.out.rfind("--megatron-args: megatron_gpt", 0) == 0);  // the text is named by the option
    // What the command states that is priced otherwise is in the report, as a config's notes are.
    const std::string fp8_text = text.substr(0, text.find_last_not_of('\n') + 1) + " --fp8-format hybrid";
    const auto fp8 = oprec::testing::run_oprec({"fit", "--megatron-args", fp8_text});
    CHECK(has(fp8.out, "note: fp8 weights and activations are priced in bf16: fp8 is not modelled\n"));
    const auto fp8_json =
        oprec::testing::run_oprec({"fit", "--megatron-args", fp8_text, "--format", "json"});
    CHECK(nlohmann::json::parse(fp8_json.out)["notes"][0] == "fp8 weights and activations are priced in bf16: fp8 is not modelled");
    // Only the flags, and a mistake placed in the text (it was "...: it cannot be opened").
    const auto flags = oprec::testing::run_oprec({"fit", "--megatron-args", "--num-layers twelve --hidden-size 512"});
    CHECK(flags.exit_code == 2);
    CHECK(flags.err == "oprec fit: --megatron-args:1:14: --num-layers expects a whole number, got `twelve`\n");
    // A name with no flag in it is still a file, and one that is not there is said so.
    const auto missing = oprec::testing::run_oprec({"fit", "--megatron-args", "no-such-launch.sh"});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "oprec fit: no-such-launch.sh: it cannot be opened\n");
}

TEST_CASE("fit: a launch command's FSDP and context-parallel type are priced as they run", "[fit][cli][megatron]") {
    const std::string job = "--num-layers 12 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                            "--max-position-embeddings 4096 --micro-batch-size 4 --global-batch-size 32 "
                            "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --vocab-size 50304 --bf16";
    auto fit = [&](const std::string& flags, const std::string& gpus) {
        const auto r = oprec::testing::run_oprec({"fit", "--megatron-args", job + flags, "--gpus", gpus, "--format", "json"});
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out);
    };
    // torch FSDP2 shards weights, gradients and optimizer states (it was priced unsharded);
    // Megatron-LM runs it on one pipeline stage, untied.
    const std::string fsdp = " --pipeline-model-parallel-size 1 --untie-embeddings-and-output-weights";
    CHECK(has(fit(fsdp + " --use-torch-fsdp2", "8")["strategy"], " zero=3 "));
    CHECK(has(fit(fsdp, "8")["strategy"], " zero=0 "));
    // a2a is Ulysses, a2a+p2p the hybrid, p2p and allgather the ring (a2a was priced as the ring).
    CHECK(has(fit(" --context-parallel-size 2 --cp-comm-type a2a", "16")["strategy"], " cp=2 ulysses "));
    CHECK(has(fit(" --context-parallel-size 2 --cp-comm-type a2a+p2p --hierarchical-context-parallel-sizes 2 1", "16")
                  ["strategy"], " cp=2 hybrid "));
    CHECK(has(fit(" --context-parallel-size 2 --cp-comm-type all_gather", "16")["strategy"], " cp=2 ring "));
    CHECK(has(fit(" --context-parallel-size 2", "16")["strategy"], " cp=2 ring "));
    // Block recompute of no layers is no recompute.
    const std::string block0 = " --recompute-granularity full --recompute-method block --recompute-num-layers 0";
    CHECK(fit(block0, "8")["peak_bytes"] == fit("", "8")["peak_bytes"]);
}

TEST_CASE("fit: a launch command's optimizer and residual flags not modelled are said, not dropped", "[fit][cli][megatron]") {
    std::string launch = oprec::testing::read_text(OPREC_TEST_DATA "/../examples/megatron/gpt-tp2-pp2.sh");
    launch.erase(launch.find_last_not_of('\n') + 1);
    const auto plain = oprec::testing::run_oprec({"fit", "--megatron-args", launch, "--format", "json"});
    for (const auto& [flags, said] : std::vector<std::pair<std::string, std::string>>{
             {" --use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16",
              "the precision-aware optimizer's dtypes (exp_avg bf16, exp_avg_sq bf16, main params fp32) are not "
              "modelled: its states are priced in fp32"},
             {" --optimizer-cpu-offload --optimizer-offload-fraction 0.5",
              "--optimizer-cpu-offload is not modelled: the optimizer states are priced on the GPU (Megatron keeps "
              "50% of them on the host)"},
             {" --num-distributed-optimizer-instances 2",
              "--num-distributed-optimizer-instances 2 is not modelled: the states are priced sharded over all of dp, "
              "not dp / 2"},
             {" --fp32-residual-connection",
              "--fp32-residual-connection is not modelled: the residual stream is priced in the compute dtype"}}) {
        const auto r = oprec::testing::run_oprec({"fit", "--megatron-args", launch + flags, "--format", "json"});
        INFO(flags << "\n" << r.err);
        REQUIRE(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out);
        REQUIRE(j.contains("notes"));
        CHECK(j["notes"] == nlohmann::json::array({said}));
        CHECK(j["stages"] == nlohmann::json::parse(plain.out)["stages"]);  // priced as without them, and said
    }
    // The precision-aware optimizer at its fp32 defaults is what is priced: nothing to say.
    CHECK_FALSE(nlohmann::json::parse(oprec::testing::run_oprec({"fit", "--megatron-args", launch +
        " --use-precision-aware-optimizer", "--format", "json"}).out).contains("notes"));
}

TEST_CASE("fit: a launch command's GPUs are its launcher's unless --gpus says otherwise", "[fit][cli][megatron]") {
    std::string launch = oprec::testing::read_text(OPREC_TEST_DATA "/../examples/megatron/gpt-tp2-pp2.sh");
    launch.replace(launch.find("--nproc_per_node 8"), 18, "--nnodes 2 --nproc_per_node 8");
    const auto two_nodes = oprec::testing::run_oprec({"fit", "--megatron-args", launch});
    REQUIRE(two_nodes.exit_code == 0);
    CHECK(has(two_nodes.out, "strategy: gpus=16 "));
    CHECK(has(two_nodes.out, "dp=4"));
    CHECK_FALSE(has(two_nodes.out, "note:"));
    const auto asked = oprec::testing::run_oprec({"fit", "--megatron-args", launch, "--gpus", "8"});
    CHECK(has(asked.out, "strategy: gpus=8 "));
    CHECK(has(asked.out, "note: the launcher runs 16 GPUs; priced on --gpus 8, as asked"));
    // A flags-only command states no launcher: 8, as before.
    const auto flags = oprec::testing::run_oprec({"fit", "--megatron-args", launch.substr(launch.find("pretrain_gpt.py") + 15)});
    CHECK(has(flags.out, "strategy: gpus=8 "));
    // A count it cannot read (a variable, an elastic range, a product past an int, which once wrapped to a
    // negative dp or a division by zero): 8, said.
    std::string unread = launch;
    unread.replace(unread.find("--nnodes 2 --nproc_per_node 8"), 29, "--nnodes $NODES --nproc_per_node 8");
    std::string huge = launch;
    huge.replace(huge.find("--nnodes 2 --nproc_per_node 8"), 29, "--nnodes 65536 --nproc_per_node 65536");
    for (const std::string& text : {unread, huge}) {
        const auto r = oprec::testing::run_oprec({"fit", "--megatron-args", text});
        CHECK(r.exit_code == 0);
        CHECK(has(r.out, "strategy: gpus=8 "));
        CHECK(has(r.out, "note: the launcher's GPU count is not one oprec can read (a variable, a range, or past "
                         "2^31): priced on 8 GPUs (--gpus gives the count)"));
    }
}

TEST_CASE("fit: a launch command's selective recompute recomputes the modules it names", "[fit][cli][megatron]") {
    const std::string job = "--num-layers 12 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                            "--max-position-embeddings 1024 --micro-batch-size 4 --global-batch-size 32 "
                            "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --vocab-size 50304 --bf16";
    auto fit = [&](const std::string& flags) {
        const auto r = oprec::testing::run_oprec({"fit", "--megatron-args", job + flags, "--gpus", "8", "--format", "json"});
        INFO(flags << "\n" << r.err);
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out);
    };
    const auto activations = [](const nlohmann::json& j) { return j["stages"][0]["terms"]["activations_layers"].get<double>(); };
    const auto none = fit("");
    CHECK(has(none["strategy"], " recompute=none"));
    // core_attn unless the modules say otherwise, as --recompute-activations means: the softmax and the
    // probabilities AV reads; the queries and the hidden-size dropout masks stay.
    const auto core = fit(" --recompute-granularity selective");
    CHECK(has(core["strategy"], " recompute=selective:headCast+softmax"));
    CHECK(fit(" --recompute-activations")["stages"] == core["stages"]);
    CHECK(fit(" --recompute-granularity selective --recompute-modules core_attn")["stages"] == core["stages"]);
    // Under flash attention (Transformer Engine's, the default) the core attention keeps next to nothing:
    // Megatron-LM warns that recomputing it is of no use, and it frees nothing here.
    CHECK(activations(core) == activations(none));
    const std::string unfused = " --attention-backend unfused";
    CHECK(activations(fit(unfused + " --recompute-granularity selective")) < activations(fit(unfused)));
    // HyperParallel's rule (attBMM kept, the rest recomputed) frees far more: it is not Megatron's.
    CHECK(activations(core) > activations(fit(" --recompute-granularity full --recompute-method uniform "
                                              "--recompute-num-layers 1")));
    // layernorm frees the norms' outputs, which the records have no switch for: nothing, said.
    const auto norm = fit(" --recompute-granularity selective --recompute-modules layernorm");
    CHECK(has(norm["strategy"], " recompute=selective:nothing"));
    CHECK(activations(norm) == activations(none));
    CHECK(has(norm["notes"][0], "--recompute-modules layernorm frees the norms' outputs"));
    // mlp is its activation function here, said in a note.
    const auto mlp = fit(" --recompute-granularity selective --recompute-modules mlp");
    CHECK(has(mlp["strategy"], " recompute=selective:ffAct"));
    CHECK(activations(mlp) < activations(none));
    REQUIRE(mlp["notes"].size() == 1);
    CHECK(has(mlp["notes"][0], "--recompute-modules mlp is priced as recomputing its activation function (ffAct) alone"));
    // A module the model does not have recomputes nothing, and says so.
    const auto moe = fit(" --recompute-granularity selective --recompute-modules moe");
    CHECK(activations(moe) == activations(none));
    CHECK(has(moe["notes"][0], "--recompute-modules moe: the model has no MoE layer: it recomputes nothing"));
    // --moe-layer-recompute is Megatron's old spelling of the moe module, beside core_attn.
    const auto old_spelling = fit(" --num-experts 4 --moe-layer-recompute");
    CHECK(old_spelling["stages"] == fit(" --num-experts 4 --recompute-granularity selective --recompute-modules core_attn moe")["stages"]);
    CHECK(has(old_spelling["strategy"], " recompute=selective:ffAct+headCast+softmax"));
    // What TransformerConfig raises for, refused at the flag.
    for (const auto& [flags, said] : std::vector<std::pair<std::string, std::string>>{
             {" --moe-layer-recompute --recompute-granularity full --recompute-method uniform --recompute-num-layers 1",
              "--moe-layer-recompute cannot go with --recompute-granularity full"},
             {" --num-experts 4 --recompute-granularity selective --recompute-modules moe_act",
              "moe_act in --recompute-modules needs --moe-grouped-gemm"},
             {" --recompute-granularity selective --recompute-modules mla_up_proj",
              "mla_up_proj in --recompute-modules needs --multi-latent-attention"}}) {
        const auto r = oprec::testing::run_oprec({"fit", "--megatron-args", job + flags, "--gpus", "8"});
        INFO(flags);
        CHECK(r.exit_code == 2);
        CHECK(has(r.err, said));
    }
}

TEST_CASE("fit: DualPipeV's V brings the last layers and the loss back to the first stage", "[fit][cli]") {
    const auto j = fit_json(kLlama + " --seq 4096 --pp 4 --gpus 4 --gbs 64 --vpp 2 --schedule dualpipev");
    const auto& stages = j["stages"];
    REQUIRE(stages.size() == 4);
    // Stage 0 holds the first slice of layers and the last, with the output layer and the loss.
    CHECK(stages[0]["terms"]["activations_loss"].get<double>() > 0);
    for (std::size_t st = 1; st < 4; ++st) CHECK(stages[st]["terms"]["activations_loss"] == 0);
    // The embedding and the output layer (Llama's are untied) both weigh on stage 0; the last stage holds neither.
    CHECK(stages[0]["terms"]["weights"].get<double>() > stages[1]["terms"]["weights"].get<double>());
    CHECK(stages[3]["terms"]["weights"] == stages[1]["terms"]["weights"]);
    // 2pp - 1 - stage micro-batches on the way down and stage + 1 on the way back: 2pp on every stage.
    for (std::size_t st = 1; st < 4; ++st)
        CHECK(stages[st]["terms"]["activations_layers"] == stages[0]["terms"]["activations_layers"]);
    CHECK(j["peak_stage"] == 0);
    CHECK(has(j["strategy"], " vpp=2 "));
    // Stated layers are in model order: the V's first arm, then the way back; the settled line says them so,
    // and gives the same fit again (it once listed them round the stages, and moved a layer).
    const auto stated = fit_json(kLlama + " --seq 4096 --pp 2 --gpus 2 --gbs 64 --vpp 2 --schedule dualpipev "
                                          "--stage-layers 7,8,8,9");
    CHECK(has(stated["strategy"], " stage-layers=7,8,8,9 "));
    CHECK(stated["stages"][0]["layers"] == 16);  // 7 down and 9 back
    CHECK(stated["stages"][1]["layers"] == 16);
    // Tied embeddings: the V brings the output layer to the embedding's stage, one table for both.
    nlohmann::json config = nlohmann::json::parse(oprec::testing::read_text(kLlama));
    config["tie_word_embeddings"] = true;
    oprec::testing::TempDir dir;
    const std::string tied = dir.write("tied.json", config.dump()).string();
    const auto weights = [](const nlohmann::json& r) {
        double sum = 0;
        for (const auto& st : r["stages"]) sum += st["terms"]["weights"].get<double>();
        return sum;
    };
    const double one_stage = weights(fit_json(tied + " --seq 4096 --gpus 1 --zero 0"));
    CHECK(weights(fit_json(tied + " --seq 4096 --pp 2 --gpus 2 --gbs 64 --zero 0 --vpp 2 --schedule dualpipev")) ==
          one_stage);
    CHECK(weights(fit_json(tied + " --seq 4096 --pp 2 --gpus 2 --gbs 64 --zero 0")) > one_stage);  // 1F1B: a copy
}

TEST_CASE("fit: schedules and chunks that do not go together, and too few micro-batches, are refused", "[fit][cli][errors]") {
    Run r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --gbs 64 --schedule interleaved", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "the interleaved schedule needs model chunks: --vpp 2 or more"));
    r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --gbs 64 --vpp 2 --schedule 1f1b", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--vpp 2 model chunks run only under the interleaved schedule and DualPipeV, not 1f1b"));
    // Zero-bubble's chunks are not modelled (--vpp changed nothing there); DualPipeV runs two, the V's arms.
    r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --gbs 64 --vpp 4 --schedule zero-bubble", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--vpp 4 model chunks run only under the interleaved schedule and DualPipeV, not zero-bubble"));
    for (const char* vpp : {"1", "3"}) {
        r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --gbs 64 --schedule dualpipev --vpp " + vpp, true);
        CHECK(r.status == 2);
        CHECK(has(r.out, std::string("DualPipeV runs two model chunks on each rank, down the stages and back: --vpp 2, "
                                     "not ") + vpp));
    }
    // Megatron-LM runs pp micro-batches in a row on each chunk.
    r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --vpp 2 --gbs 2", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "the interleaved schedule takes 4 micro-batches in a row on each model chunk; the batch gives 2"));
    r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --vpp 2 --gbs 4", true);
    CHECK(r.status == 0);
    // A last group of fewer than pp micro-batches would stall the pipeline.
    r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --vpp 2 --gbs 6", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "the batch's 6 leave a last group of 2, fewer than pp = 4"));
    r = run_fit_cli("fit " + kLlama + " --seq 4096 --pp 4 --gpus 4 --vpp 2 --gbs 8", true);
    CHECK(r.status == 0);
    // And a group of fewer than pp, stated in a launch command.
    std::string launch = oprec::testing::read_text(OPREC_TEST_DATA "/../examples/megatron/gpt-tp2-pp2.sh");
    launch.erase(launch.find_last_not_of('\n') + 1);  // the flags below continue its last line
    const std::string chunked = launch + " --num-layers-per-virtual-pipeline-stage 3";
    CHECK(oprec::testing::run_oprec({"fit", "--megatron-args", chunked}).exit_code == 0);
    const auto group1 = oprec::testing::run_oprec(
        {"fit", "--megatron-args", chunked + " --microbatch-group-size-per-virtual-pipeline-stage 1"});
    CHECK(group1.exit_code == 2);
    CHECK(has(group1.err, "takes at least pp = 2 micro-batches in a row on each model chunk, not 1"));
    const auto odd = oprec::testing::run_oprec({"fit", "--megatron-args", chunked + " --global-batch-size 24"});
    CHECK(odd.exit_code == 2);
    CHECK(has(odd.err, "the batch's 3 leave a last group of 1, fewer than pp = 2"));
    // Ulysses hands each rank whole key/value heads: 8 of them do not split over cp 16.
    r = run_fit_cli("fit " OPREC_TEST_DATA "/../examples/hf/llama-2-70b.json --seq 32768 --cp 16 --gpus 16 --cp-algo ulysses", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "tp*cp = 16 does not divide the key/value heads (8)"));
    // Sizes in exponent form, as the message offers them.
    r = run_fit_cli("fit " + kLlama + " --gpus 8 --tp 8 --device-memory 1e11", true);
    CHECK(r.status == 0);
    // A bare 80 is 80 bytes: it once gave "does not fit", exit 1, and no reason.
    r = run_fit_cli("fit " + kLlama + " --gpus 8 --tp 8 --device-memory 80", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--device-memory 80: expected a size with its unit: a bare number counts bytes"));
    r = run_fit_cli("sweep " + kLlama + " --gpus 8 --tp 8 --budget 80", true);
    CHECK(r.status == 2);
    CHECK(has(r.out, "--budget 80: expected a size with its unit"));
    r = run_fit_cli("sweep " + kLlama + " --gpus 8 --tp 8 --budget 0GiB", true);
    CHECK(has(r.out, "--budget 0GiB: expected a size above 0"));
}

TEST_CASE("fit, sweep: an empty --plot or budget is refused, not taken as none", "[fit][cli][errors]") {
    // `--budget ""` ran the activations-only sweep, and `--plot ""` wrote no chart, without a word.
    const std::vector<std::vector<std::string>> commands{{"fit", kLlama, "--plot", ""},
                                                         {"sweep", kLlama, "--budget", ""},
                                                         {"sweep", kLlama, "--budget", "80GiB", "--plot", ""},
                                                         {"sweep", kLlama, "--activation-budget", ""}};
    for (const auto& args : commands) {
        const auto r = oprec::testing::run_oprec(args);
        CHECK(r.exit_code != 0);
        CHECK(has(r.err, ": needs a value, not \"\""));
    }
}

TEST_CASE("fit: a margin under 0.01 GiB is said in the unit that shows it", "[fit][cli]") {
    // It read "does not fit, 0.00 GiB over".
    const Run json = run_fit_cli("fit " + kLlama + " --tp 8 --format json");
    const auto peak = static_cast<std::int64_t>(nlohmann::json::parse(json.out)["peak_bytes"].get<double>());
    Run r = run_fit_cli("fit " + kLlama + " --tp 8 --device-memory " + std::to_string(peak - 1000));
    CHECK(r.status == 1);
    CHECK(has(r.out, ": does not fit, 1000 bytes over\n"));
    r = run_fit_cli("fit " + kLlama + " --tp 8 --device-memory " + std::to_string(peak + 3 * 1024 * 1024));
    CHECK(r.status == 0);
    CHECK(has(r.out, ": fits, 3.00 MiB to spare\n"));
}

TEST_CASE("fit, sweep: records that are not there are said as such, with what --records takes", "[fit][cli][errors]") {
    // Once "<records and profiles>:1:1: no file `nosuch` to import", a line the user never wrote.
    for (const std::string command : {"fit " + kLlama, "sweep " + kLlama + " --budget 80GiB", "sweep " + kLlama}) {
        INFO(command);
        const Run r = run_fit_cli(command + " --records nosuch", true);
        CHECK(r.status == 2);
        CHECK(has(r.out, "nosuch: error: cannot read `nosuch`: it cannot be opened [E0122]"));
        CHECK(has(r.out, "note: --records takes "));
        CHECK_FALSE(has(r.out, "<records and profiles>"));
    }
}

TEST_CASE("fit: a multimodal config is its text model, and says its other towers are not priced", "[fit][cli][hf]") {
    // LLaVA-1.5-7B's layout: a Llama text_config (LlamaConfig: untied) inside
    // a wrapper whose own class would tie; transformers ties by the text config.
    std::ifstream in(kLlama);
    nlohmann::json text = nlohmann::json::parse(in);
    text.erase("tie_word_embeddings");
    const nlohmann::json llava = {{"model_type", "llava"},
                                  {"text_config", text},
                                  {"vision_config", {{"model_type", "clip_vision_model"}, {"hidden_size", 1024},
                                                     {"num_hidden_layers", 24}, {"num_attention_heads", 16}}}};
    oprec::testing::TempDir dir;
    const std::string path = dir.write("config.json", llava.dump()).string();
    const nlohmann::json j = fit_json(path);
    CHECK(j["parameters"] == 6738415616);  // Llama-2-7B's, untied
    CHECK(j["stages"] == fit_json(kLlama)["stages"]);
    CHECK(j["model"].get<std::string>().rfind("llama (profile default)", 0) == 0);
    REQUIRE(j["notes"].size() == 1);
    CHECK(j["notes"][0] == "`vision_config`: the vision tower is not priced, only the text model");
    const Run table = run_fit_cli("fit " + path);
    CHECK(has(table.out, "note: `vision_config`: the vision tower is not priced, only the text model\n"));
    CHECK_FALSE(fit_json(kLlama).contains("notes"));
}
