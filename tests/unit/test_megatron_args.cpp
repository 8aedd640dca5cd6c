// The Megatron-LM front end (src/rank/megatron_args.h): shell quoting,
// Megatron's defaults and derived defaults (arguments.py validate_args),
// the pipeline split, errors that name the flag and its line:col, and every
// measured case's flags (tests/fit/megatron_cases.json) read without error.
#include <algorithm>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "rank/megatron_args.h"
#include "rank/megatron_derive.h"
#include "rank/shell_words.h"

using namespace oprec::rank;

namespace {

const char* const gpt_small = "--num-layers 12 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                              "--max-position-embeddings 1024 --micro-batch-size 4 ";

ParsedArgs parse(const std::string& text, int gpus = 8) { return parse_megatron_args(text, "job.sh", gpus); }

std::string error_of(const std::string& text, int gpus = 8) {
    try {
        parse(text, gpus);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

bool listed(const std::vector<StatedFlag>& flags, const std::string& name) {
    for (const StatedFlag& f : flags)
        if (f.name == name) return true;
    return false;
}

// A case's model_args as a launch command's flags, one per line.
std::string flags_text(const nlohmann::json& model_args) {
    std::string out;
    for (const auto& [flag, value] : model_args.items()) {
        if (value.is_boolean()) {
            if (value.get<bool>()) out += flag + " \\\n";
            continue;
        }
        std::string v = value.is_string() ? value.get<std::string>() : value.dump();
        std::string quoted = "'";
        for (char c : v) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += flag + " " + quoted + "' \\\n";
    }
    return out;
}

}  // namespace

TEST_CASE("shell words: quotes, continuations, comments, arrays", "[megatron]") {
    const auto commands = split_commands(
        "# a comment\nexport CUDA_DEVICE_MAX_CONNECTIONS=1\n"
        "A=( --x 1\n  --y \"two words\" )\n"
        "torchrun --nproc_per_node 8 pretrain_gpt.py \\\n  --lr '1e-4' ${A[@]} --z $HOME/x # trailing\n",
        "t");
    REQUIRE(commands.size() == 2);
    std::vector<std::string> words;
    for (const Word& w : commands[1]) words.push_back(w.text);
    CHECK(words == std::vector<std::string>{"torchrun", "--nproc_per_node", "8", "pretrain_gpt.py", "--lr", "1e-4",
                                            "--x", "1", "--y", "two words", "--z", "$HOME/x"});
    CHECK(commands[1][4].line == 6);  // after the array's two lines and the continued one
    CHECK(commands[1][4].col == 3);
    CHECK_THROWS_WITH(split_commands("--a 'open", "f.sh"), Catch::Contains("f.sh:1:5") && Catch::Contains("quote"));
    // Saved with Windows line ends: `\` CR LF continues too (a lone `\r` word once ended the flags).
    const auto crlf = split_commands("torchrun pretrain_gpt.py \\\r\n  --lr 1e-4 \\\r\n  --z 2\r\n", "w.sh");
    REQUIRE(crlf.size() == 1);
    std::vector<std::string> crlf_words;
    for (const Word& w : crlf[0]) crlf_words.push_back(w.text);
    CHECK(crlf_words == std::vector<std::string>{"torchrun", "pretrain_gpt.py", "--lr", "1e-4", "--z", "2"});
}

TEST_CASE("Megatron's defaults and derived defaults", "[megatron]") {
    const ParsedArgs p = parse(gpt_small);
    const Args& a = p.args;
    CHECK(a.ffn_hidden_size == 4 * 512);
    CHECK(a.kv_channels == 64);
    CHECK(a.num_query_groups == 8);  // one per head without --group-query-attention
    CHECK(a.data_parallel_size == 8);
    CHECK(a.global_batch_size == 32);
    CHECK(a.num_microbatches == 1);
    CHECK(a.params_dtype == "fp32");
    CHECK_FALSE(a.accumulate_allreduce_grads_in_fp32);
    CHECK(a.position_embedding_type == "learned_absolute");
    CHECK(a.normalization == "LayerNorm");
    CHECK(a.layers_per_stage == std::vector<std::int64_t>{12});
    CHECK(a.padded_vocab_size == 0);
    CHECK(a.moe_layer_pattern == std::vector<int>(12, 0));
    CHECK(a.attention_backend == "auto");
    CHECK(a.transformer_impl == "transformer_engine");

    const Args s = parse(std::string(gpt_small) + "--swiglu --bf16 --group-query-attention --num-query-groups 2").args;
    CHECK(s.ffn_hidden_size == (4 * 512 * 2 / 3) / 64 * 64);  // 1344
    CHECK(s.ffn_hidden_size == 1344);
    CHECK(s.num_query_groups == 2);
    CHECK(s.params_dtype == "bf16");
    CHECK(s.accumulate_allreduce_grads_in_fp32);  // bf16 accumulates in fp32
    CHECK_FALSE(parse(std::string(gpt_small) + "--bf16 --grad-reduce-in-bf16").args.accumulate_allreduce_grads_in_fp32);
}

TEST_CASE("padded vocabulary per tokenizer", "[megatron]") {
    const std::string base = std::string(gpt_small) + "--tensor-model-parallel-size 2 ";
    const ParsedArgs gpt = parse(base + "--vocab-file v.json --merge-file m.txt");
    CHECK(gpt.args.original_vocab_size == 50257);
    CHECK(gpt.args.padded_vocab_size == 50432);  // a multiple of 128 * 2
    CHECK_FALSE(gpt.notes.empty());
    CHECK(parse(base + "--tokenizer-type GPT2BPETokenizer").args.padded_vocab_size == 50432);
    const Args null = parse(base + "--tokenizer-type NullTokenizer --vocab-size 50257").args;
    CHECK(null.original_vocab_size == 50258);
    CHECK(null.padded_vocab_size == 50432);
    CHECK(parse(std::string(gpt_small) + "--tokenizer-type NullTokenizer --vocab-size 1000 "
                                         "--make-vocab-size-divisible-by 64")
              .args.padded_vocab_size == 1024);
    CHECK(parse(base + "--tokenizer-type HuggingFaceTokenizer --vocab-size 128256").args.padded_vocab_size == 128256);
}

TEST_CASE("parallel sizes: data parallel from the GPU count", "[megatron]") {
    const Args a = parse(std::string(gpt_small) +
                             "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 "
                             "--context-parallel-size 2 --sequence-parallel --global-batch-size 32",
                         16)
                       .args;
    CHECK(a.data_parallel_size == 2);
    CHECK(a.num_microbatches == 4);
    CHECK(a.sequence_parallel);
    CHECK(a.expert_tensor_parallel_size == 2);
    CHECK(a.layers_per_stage == std::vector<std::int64_t>{6, 6});
    CHECK_FALSE(parse(std::string(gpt_small) + "--sequence-parallel").args.sequence_parallel);  // tp = 1
    CHECK_THAT(error_of(std::string(gpt_small) + "--tensor-model-parallel-size 3", 8),
               Catch::Contains("8 GPUs are not divisible") && Catch::Contains("job.sh:1:"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--global-batch-size 36"),
               Catch::Contains("--global-batch-size 36 is not divisible"));
    CHECK_THAT(error_of(gpt_small, 0), Catch::Contains("--gpus"));
}

TEST_CASE("pipeline splits: uneven, virtual, accounted, layout", "[megatron]") {
    const std::string base = "--num-layers 16 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                             "--max-position-embeddings 1024 --micro-batch-size 1 --pipeline-model-parallel-size 4 ";
    CHECK(parse(base + "--decoder-first-pipeline-num-layers 2 --decoder-last-pipeline-num-layers 6").args.layers_per_stage ==
          std::vector<std::int64_t>{2, 4, 4, 6});
    const Args v = parse(base + "--num-layers-per-virtual-pipeline-stage 2").args;
    CHECK(v.virtual_pipeline_model_parallel_size == 2);
    CHECK(v.layers_per_stage == std::vector<std::int64_t>{4, 4, 4, 4});
    CHECK_FALSE(parse(base + "--num-layers-per-virtual-pipeline-stage 4").args.virtual_pipeline_model_parallel_size);
    const Args u = parse(base + "--num-virtual-stages-per-pipeline-rank 2 --decoder-first-pipeline-num-layers 1 "
                                "--decoder-last-pipeline-num-layers 3")
                       .args;
    // 12 layers over the 6 middle virtual stages: 2 each; rank 0 holds 1 + 2, rank 3 holds 2 + 3.
    CHECK(u.layers_per_stage == std::vector<std::int64_t>{3, 4, 4, 5});
    const std::string base14 = "--num-layers 14 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                               "--max-position-embeddings 1024 --micro-batch-size 1 --pipeline-model-parallel-size 4 ";
    CHECK(parse(base14 + "--account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split")
              .args.layers_per_stage == std::vector<std::int64_t>{3, 4, 4, 3});
    const Args l = parse("--num-layers 16 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                         "--max-position-embeddings 1024 --micro-batch-size 1 --pipeline-model-parallel-size 4 "
                         "--mtp-num-layers 1 --position-embedding-type rope "
                         "--pipeline-model-parallel-layout 'Et*3|(tt|)*6tmL'",
                         8)
                         .args;
    CHECK(l.virtual_pipeline_model_parallel_size == 2);
    CHECK(l.layers_per_stage == std::vector<std::int64_t>{5, 4, 4, 3});
    CHECK(l.mtp_layers_per_stage == std::vector<std::int64_t>{0, 0, 0, 1});
    CHECK(l.overlap_p2p_comm);
    CHECK_FALSE(v.align_param_gather);
    CHECK_THAT(error_of("--num-layers 16 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                        "--max-position-embeddings 1024 --micro-batch-size 1 --pipeline-model-parallel-size 2 "
                        "--num-layers-per-virtual-pipeline-stage 2 --no-overlap-p2p-communication"),
               Catch::Contains("above 2"));
    CHECK_FALSE(parse(base + "--num-layers-per-virtual-pipeline-stage 4").args.overlap_p2p_comm);  // not interleaved
    CHECK(detail::expand_layout("Et*3|(tt|)*2,mL", "x") == std::vector<std::string>{"Ettt", "tt", "tt", "mL"});
    CHECK_THAT(error_of(base + "--num-layers 15"), Catch::Contains("does not split evenly"));
}

TEST_CASE("experts: layer pattern, sizes, expert parallel", "[megatron]") {
    const std::string base = std::string(gpt_small) + "--num-experts 8 --expert-model-parallel-size 4 ";
    const Args a = parse(base + "--moe-layer-freq 2").args;
    CHECK(a.moe_ffn_hidden_size == 2048);
    CHECK(a.moe_layer_pattern == std::vector<int>{1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
    CHECK(a.expert_data_parallel_size == 2);
    const Args p = parse(base + "--moe-layer-freq '([0]*3+[1]*9)' --moe-ffn-hidden-size 256").args;
    CHECK(p.moe_layer_pattern == std::vector<int>{0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1});
    CHECK(p.moe_ffn_hidden_size == 256);
    CHECK(detail::eval_pattern("[1,0]*2+3*[1]", "x") == std::vector<int>{1, 0, 1, 0, 1, 1, 1});
    CHECK_THAT(error_of(base + "--moe-layer-freq '[1]*3'"), Catch::Contains("gives 3 layers"));
    // An entry is 1 (MoE) or 0 (dense); Megatron-LM raises for a 2 (it was taken as MoE).
    CHECK_THAT(error_of(base + "--moe-layer-freq '[1]*11+[2]'"),
               Catch::Contains("--moe-layer-freq's entry 11 is 2: each is 1 (a MoE layer) or 0 (a dense one)"));
    CHECK_THAT(error_of(base + "--moe-layer-freq 'import os'"), Catch::Contains("--moe-layer-freq expects"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--num-experts 6 --expert-model-parallel-size 4"),
               Catch::Contains("not divisible by --expert-model-parallel-size"));
}

TEST_CASE("recompute, precision, backend flags", "[megatron]") {
    const Args s = parse(std::string(gpt_small) + "--recompute-activations").args;
    CHECK(s.recompute_granularity == "selective");
    CHECK(s.recompute_modules == std::vector<std::string>{"core_attn"});
    const Args f = parse(std::string(gpt_small) +
                         "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1")
                       .args;
    CHECK(f.recompute_granularity == "full");
    CHECK(f.recompute_num_layers == 1);
    CHECK(parse(std::string(gpt_small) + "--recompute-granularity selective --recompute-modules '[layernorm mlp]'")
              .args.recompute_modules == std::vector<std::string>{"layernorm", "mlp"});
    CHECK(parse(std::string(gpt_small) + "--recompute-modules core_attn moe_act --bf16").args.recompute_modules ==
          std::vector<std::string>{"core_attn", "moe_act"});
    const Args o = parse(std::string(gpt_small) +
                         "--fp8-format hybrid --fp8-recipe tensorwise --attention-backend=flash --transformer-impl local "
                         "--use-distributed-optimizer --overlap-grad-reduce --overlap-param-gather --disable-bias-linear "
                         "--untie-embeddings-and-output-weights --apply-query-key-layer-scaling")
                       .args;
    CHECK(o.fp8 == "hybrid");
    CHECK(o.fp8_recipe == "tensorwise");
    CHECK(o.attention_backend == "flash");
    CHECK(o.transformer_impl == "local");
    CHECK(o.use_distributed_optimizer);
    CHECK(o.overlap_param_gather);
    CHECK_FALSE(o.add_bias_linear);
    CHECK_FALSE(o.bias_gelu_fusion);
    CHECK(o.untie_embeddings_and_output_weights);
    CHECK(o.attention_softmax_in_fp32);
}

TEST_CASE("ignored and unknown flags are listed, never refused", "[megatron]") {
    const ParsedArgs p = parse(std::string(gpt_small) +
                               "--lr 1e-4 --log-interval 1 --save /ckpt --data-path 0.5 a 0.5 b "
                               "--my-own-flag 3 --another-switch --wandb-project x");
    CHECK(listed(p.ignored, "--lr"));
    CHECK(listed(p.ignored, "--data-path"));
    CHECK(listed(p.ignored, "--wandb-project"));
    CHECK(listed(p.unknown, "--my-own-flag"));
    CHECK(listed(p.unknown, "--another-switch"));
    CHECK(listed(p.used, "--num-layers"));
    CHECK_FALSE(listed(p.used, "--lr"));
    for (const StatedFlag& f : p.ignored)
        if (f.name == "--data-path") CHECK(f.values == std::vector<std::string>{"0.5", "a", "0.5", "b"});
}

TEST_CASE("a launch command: env, launcher, script, redirection", "[megatron]") {
    const ParsedArgs p = parse(
        "#!/bin/bash\nexport NCCL_DEBUG=WARN\nCUDA_DEVICE_MAX_CONNECTIONS=1 torchrun --nproc_per_node=4 --nnodes 2 \\\n"
        "  pretrain_gpt.py \\\n  --num-layers 4 \\\n  --hidden-size \"256\" --num-attention-heads 4 \\\n"
        "  --seq-length 128 --max-position-embeddings 128 --micro-batch-size 2 --bf16 2>&1 | tee log.txt\n");
    CHECK(p.env.at("NCCL_DEBUG") == "WARN");
    CHECK(p.env.at("CUDA_DEVICE_MAX_CONNECTIONS") == "1");
    CHECK(p.launcher_gpus == 8);
    CHECK(p.args.gpus == 8);  // the launcher's count, none given
    CHECK(p.args.num_layers == 4);
    CHECK(p.args.hidden_size == 256);
    CHECK(p.args.bf16);
    CHECK(p.unknown.empty());
    const auto script_note = [](const ParsedArgs& parsed) {
        const auto n = std::find_if(parsed.notes.begin(), parsed.notes.end(),
                                    [](const std::string& note) { return note.find("run a script") != std::string::npos; });
        return n == parsed.notes.end() ? std::string() : *n;
    };
    CHECK(script_note(p).empty());
    // A data step's script before the training's: the last is read, and said.
    const ParsedArgs two = parse_megatron_args(
        "python tools/preprocess_data.py --input a.json --workers 2\n"
        "torchrun --nproc_per_node=4 pretrain_gpt.py --num-layers 4 --hidden-size 256 --num-attention-heads 4 "
        "--seq-length 128 --max-position-embeddings 128 --micro-batch-size 2\n",
        "two.sh", 4);
    CHECK(two.args.num_layers == 4);
    CHECK(script_note(two) == "2 commands run a script (tools/preprocess_data.py at two.sh:1:8, pretrain_gpt.py at "
                          "two.sh:2:29): the last one's flags are read");
}

TEST_CASE("bad and missing values name the flag and its line:col", "[megatron]") {
    CHECK_THAT(error_of("--num-layers abc --hidden-size 4"),
               Catch::Contains("job.sh:1:14") && Catch::Contains("--num-layers expects a whole number") &&
                   Catch::Contains("`abc`"));
    CHECK_THAT(error_of("--hidden-size 4 \\\n  --num-layers"),
               Catch::Contains("job.sh:2:3") && Catch::Contains("--num-layers needs a value"));
    CHECK_THAT(error_of("--num-layers --hidden-size 4"), Catch::Contains("job.sh:1:1: --num-layers needs a value"));
    CHECK_THAT(error_of("--num-layers=x"), Catch::Contains("job.sh:1:14"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--normalization BatchNorm"),
               Catch::Contains("--normalization expects one of LayerNorm, RMSNorm"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--bf16 yes"),
               Catch::Contains("`yes` is not a flag (after --bf16)"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--bf16=yes"), Catch::Contains("--bf16 takes no value"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--hidden-dropout nan"), Catch::Contains("finite"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--num-layers 0"), Catch::Contains("at least 1"));
    CHECK_THAT(error_of("--hidden-size 64 --num-attention-heads 8 --seq-length 8 --micro-batch-size 1"),
               Catch::Contains("--num-layers is required"));
    CHECK_THAT(error_of(std::string(gpt_small) + "--bf16 --fp16"), Catch::Contains("cannot both"));
}

TEST_CASE("every measured case's flags parse", "[megatron]") {
    std::ifstream in(OPREC_TEST_DATA "/fit/megatron_cases.json");
    REQUIRE(in);
    const nlohmann::json doc = nlohmann::json::parse(in);
    REQUIRE(doc.at("cases").size() == 77);
    for (const nlohmann::json& c : doc.at("cases")) {
        INFO(c.at("id").get<std::string>());
        const std::string text = flags_text(c.at("model_args"));
        ParsedArgs p = parse_megatron_args(text, c.at("case").get<std::string>(), c.at("num_gpus").get<int>());
        CHECK(p.unknown.empty());
        CHECK(p.args.num_layers == c.at("model_args").at("--num-layers").get<std::int64_t>());
        CHECK(p.args.padded_vocab_size > 0);
        std::int64_t layers = 0;
        for (std::int64_t n : p.args.layers_per_stage) layers += n;
        CHECK(layers == p.args.num_layers);
        CHECK(p.args.data_parallel_size * p.args.tensor_model_parallel_size * p.args.pipeline_model_parallel_size *
                  p.args.context_parallel_size ==
              c.at("num_gpus").get<int>());
    }
}

TEST_CASE("sizes past 64 bits, deep expressions and huge counts are refused, not wrapped", "[megatron]") {
    const std::string small = gpt_small;
    // Products that wrapped to 0 were divided by (SIGFPE), or padded the vocabulary to 0.
    CHECK_THAT(error_of(small + "--tensor-model-parallel-size 4294967296 --pipeline-model-parallel-size 4294967296"),
               Catch::Contains("tensor x pipeline x context parallel = 4294967296 x 4294967296 x 1 is beyond 64 bits"));
    CHECK_THAT(error_of("--num-layers 12 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                        "--max-position-embeddings 1024 --micro-batch-size 2305843009213693952"),
               Catch::Contains("--micro-batch-size x data parallel = 2305843009213693952 x 8 is beyond 64 bits"));
    CHECK_THAT(error_of(small + "--tensor-model-parallel-size 2 --vocab-size 50000 --tokenizer-type NullTokenizer "
                                "--make-vocab-size-divisible-by 4611686018427387904"),
               Catch::Contains("is beyond 64 bits"));
    CHECK_THAT(error_of("--num-layers 12 --hidden-size 4611686018427387904 --num-attention-heads 8 --seq-length 1024 "
                        "--max-position-embeddings 1024 --micro-batch-size 4"),
               Catch::Contains("the feed-forward width = 4 x 4611686018427387904 is beyond 64 bits"));
    // Counts that allocated before any check: 1e10 layers was bad_alloc.
    CHECK_THAT(error_of("--num-layers 10000000000 --hidden-size 512 --num-attention-heads 8 --seq-length 1024 "
                        "--max-position-embeddings 1024 --micro-batch-size 4"),
               Catch::Contains("--num-layers 10000000000: more than 100000 layers"));
    CHECK_THAT(error_of(small + "--pipeline-model-parallel-layout '((t*999999)*999999)'"),
               Catch::Contains("unrolls to more than 1000000 symbols"));
    // Recursive descents, bounded: 300,000 parentheses overflowed the stack.
    const std::string deep(300000, '(');
    CHECK_THAT(error_of(small + "--num-experts 8 --moe-layer-freq '" + deep + "'"), Catch::Contains("--moe-layer-freq expects"));
    CHECK_THAT(error_of(small + "--pipeline-model-parallel-layout '" + deep + "'"), Catch::Contains("cannot be read"));
}

TEST_CASE("Megatron's asserts are said in its flags, not in the config's keys", "[megatron]") {
    const std::string small = gpt_small;  // 8 heads
    CHECK_THAT(error_of(small + "--group-query-attention --num-query-groups 3"),
               Catch::Contains("job.sh:1:") && Catch::Contains("--num-query-groups 3 does not divide --num-attention-heads 8"));
    CHECK_THAT(error_of(small + "--tensor-model-parallel-size 8 --num-attention-heads 12 --kv-channels 64", 8),
               Catch::Contains("--num-attention-heads 12 is not divisible by --tensor-model-parallel-size 8"));
    // Megatron-core divides the query groups over tp too (divide() asserts it).
    CHECK_THAT(error_of(small + "--tensor-model-parallel-size 4 --group-query-attention --num-query-groups 2", 8),
               Catch::Contains("--num-query-groups 2 is not divisible by --tensor-model-parallel-size 4"));
    CHECK_THAT(error_of(small + "--num-experts 4 --moe-router-topk 8"),
               Catch::Contains("--moe-router-topk 8 is more than --num-experts 4"));
    // A default the command does not state is said to be one.
    CHECK_THAT(error_of(std::string(gpt_small) + "--num-experts 1"),
               Catch::Contains("--moe-router-topk 2 (its default) is more than --num-experts 1"));
}

TEST_CASE("flags on a line the launch command does not continue are refused, not dropped", "[megatron][errors]") {
    const std::string launch = std::string("torchrun --nproc_per_node 8 pretrain_gpt.py \\\n    ") + gpt_small + "\n";
    CHECK(error_of(launch + "    --global-batch-size 64 \\\n    --bf16\n") ==
          "job.sh:3:5: `--global-batch-size` begins a command of its own, so pretrain_gpt.py never sees it: does the "
          "line before lack its closing `\\`?");
    // Other commands around the launch are the script's business, a heredoc's lines too.
    CHECK(error_of("mkdir -p out\n" + launch + "echo done --quiet\n").empty());
    CHECK(error_of(launch + "cat > hosts.txt <<EOF\n--hostfile-line\nEOF\n").empty());
    CHECK(parse(launch + "    ").args.micro_batch_size == 4);
}

TEST_CASE("recompute layer counts and context-parallel types Megatron-LM would refuse", "[megatron][errors]") {
    const std::string full = std::string(gpt_small) + "--recompute-granularity full ";
    // Selective recompute takes no layer count (TransformerConfig raises) and no method (validate_args asserts).
    CHECK(error_of(std::string(gpt_small) + "--recompute-granularity selective --recompute-num-layers 2") ==
          "job.sh:1:163: selective recompute takes no --recompute-num-layers");
    CHECK(error_of(std::string(gpt_small) + "--recompute-granularity selective --recompute-method uniform "
                                            "--recompute-num-layers 2")
              .find("selective recompute takes no --recompute-method") != std::string::npos);
    CHECK(error_of(std::string(gpt_small) + "--recompute-activations --recompute-granularity full "
                                            "--recompute-method block --recompute-num-layers 1")
              .find("--recompute-activations makes the recompute selective, and selective recompute takes no "
                    "--recompute-method") != std::string::npos);
    CHECK(error_of(std::string(gpt_small) + "--recompute-activations --recompute-num-layers 1")
              .find("--recompute-activations makes the recompute selective, and selective recompute takes no "
                    "--recompute-num-layers") != std::string::npos);
    // Uniform groups of no layers would never advance; block 0 recomputes none.
    CHECK(error_of(full + "--recompute-method uniform --recompute-num-layers 0")
              .find("--recompute-num-layers 0 with --recompute-method uniform") != std::string::npos);
    CHECK(parse(full + "--recompute-method block --recompute-num-layers 0").args.recompute_num_layers == 0);
    // --cp-comm-type: one of the four Transformer Engine takes, once or once a layer (where cp > 1).
    CHECK(parse(std::string(gpt_small) + "--cp-comm-type a2a").args.cp_comm_type == std::vector<std::string>{"a2a"});
    CHECK(parse(std::string(gpt_small) + "--cp-comm-type all_gather").args.cp_comm_type ==
          std::vector<std::string>{"all_gather"});
    CHECK(parse(std::string(gpt_small)).args.cp_comm_type == std::vector<std::string>{"p2p"});
    CHECK(error_of(std::string(gpt_small) + "--cp-comm-type bogus").find("--cp-comm-type expects one of") !=
          std::string::npos);
    CHECK(error_of(std::string(gpt_small) + "--cp-comm-type allgather")
              .find("--cp-comm-type allgather: Transformer Engine takes it as `all_gather`") != std::string::npos);
    const std::string cp2 = std::string(gpt_small) + "--context-parallel-size 2 ";
    CHECK(error_of(cp2 + "--cp-comm-type p2p a2a").find("--cp-comm-type gives 2 types") != std::string::npos);
    CHECK_NOTHROW(parse(std::string(gpt_small) + "--cp-comm-type p2p a2a"));  // no context parallelism: unread
    CHECK(error_of(cp2 + "--cp-comm-type a2a+p2p").find("a2a+p2p needs --hierarchical-context-parallel-sizes") !=
          std::string::npos);
    CHECK_NOTHROW(parse(cp2 + "--cp-comm-type a2a+p2p --hierarchical-context-parallel-sizes 2 1", 16));
    CHECK_FALSE(listed(parse(std::string(gpt_small) + "--cp-comm-type a2a").ignored, "--cp-comm-type"));
}

TEST_CASE("pipeline and activation flags TransformerConfig and validate_args refuse", "[megatron][errors]") {
    const std::string pp2 = std::string(gpt_small) + "--pipeline-model-parallel-size 2 ";
    CHECK(error_of(pp2 + "--decoder-first-pipeline-num-layers 0").find("--decoder-first-pipeline-num-layers must be at "
                                                                        "least 1, got 0") != std::string::npos);
    CHECK(error_of(pp2 + "--decoder-first-pipeline-num-layers 5 --account-for-embedding-in-pipeline-split")
              .find("uneven first/last pipeline stages do not go with --account-for-embedding-in-pipeline-split") !=
          std::string::npos);
    // The embedding takes a layer's place: 13 places over 2 stages (12 layers alone would split).
    CHECK(error_of(pp2 + "--account-for-embedding-in-pipeline-split")
              .find("--num-layers 12 and the embedding taking a layer's place (13) do not split evenly over 2 "
                    "pipeline stages") != std::string::npos);
    // Saved activations are distributed over tp > 1, for full recompute by a method, without sequence parallelism.
    const std::string full = "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1 ";
    CHECK(error_of(std::string(gpt_small) + full + "--distribute-saved-activations")
              .find("it needs --tensor-model-parallel-size above 1") != std::string::npos);
    const std::string tp2 = std::string(gpt_small) + "--tensor-model-parallel-size 2 ";
    CHECK(error_of(tp2 + "--distribute-saved-activations")
              .find("--distribute-saved-activations goes with --recompute-granularity full and a --recompute-method") !=
          std::string::npos);
    CHECK(error_of(tp2 + full + "--sequence-parallel --distribute-saved-activations")
              .find("--distribute-saved-activations must be off with --sequence-parallel") != std::string::npos);
    CHECK(parse(tp2 + full + "--distribute-saved-activations").args.distribute_saved_activations);
    // torch's FSDP2: one pipeline stage, no expert parallelism or distributed optimizer, untied, not fp16.
    const std::string fsdp = std::string(gpt_small) + "--untie-embeddings-and-output-weights --use-torch-fsdp2 ";
    CHECK_NOTHROW(parse(fsdp));
    CHECK(error_of(fsdp + "--pipeline-model-parallel-size 2").find("does not go with pipeline parallelism") !=
          std::string::npos);
    CHECK(error_of(fsdp + "--use-distributed-optimizer").find("not with --use-distributed-optimizer") !=
          std::string::npos);
    CHECK(error_of(std::string(gpt_small) + "--use-torch-fsdp2")
              .find("--use-torch-fsdp2 needs --untie-embeddings-and-output-weights") != std::string::npos);
    CHECK(error_of(fsdp + "--fp16").find("--use-torch-fsdp2 does not go with --fp16") != std::string::npos);
    // Model chunks on one stage: said in the launch command's flag, at its place.
    const std::string chunks = error_of(std::string(gpt_small) + "--num-layers-per-virtual-pipeline-stage 3");
    CHECK(chunks.rfind("job.sh:1:", 0) == 0);
    CHECK(chunks.find("the interleaved schedule's model chunks need --pipeline-model-parallel-size above 1") !=
          std::string::npos);
}
