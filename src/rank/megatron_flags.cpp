#include "rank/megatron_flags.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace oprec::rank::detail {

std::int64_t ValueReader::integer(const std::string& text, std::int64_t min) const {
    std::int64_t value = 0;
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (!text.empty() && text[0] == '+') ++first;
    const auto [end, ec] = std::from_chars(first, last, value);
    if (text.empty() || ec != std::errc() || end != last)
        throw MegatronArgsError(fmt::format("{}: {} expects a whole number, got `{}`", where, flag, text));
    if (value < min)
        throw MegatronArgsError(fmt::format("{}: {} must be at least {}, got {}", where, flag, min, value));
    return value;
}

double ValueReader::real(const std::string& text) const {
    char* end = nullptr;
    const double value = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
        throw MegatronArgsError(fmt::format("{}: {} expects a number, got `{}`", where, flag, text));
    if (!std::isfinite(value))
        throw MegatronArgsError(fmt::format("{}: {} expects a finite number, got `{}`", where, flag, text));
    return value;
}

const std::string& ValueReader::choice(const std::string& text, const std::vector<std::string>& choices) const {
    for (const std::string& c : choices)
        if (c == text) return c;
    throw MegatronArgsError(
        fmt::format("{}: {} expects one of {}, got `{}`", where, flag, fmt::join(choices, ", "), text));
}

namespace {

using Values = std::vector<std::string>;

FlagSpec integer(std::string_view name, std::int64_t Args::*field, std::int64_t min = 1) {
    return {name, Arity::one,
            [=](Args& a, Stated&, const Values& v, const ValueReader& r) { a.*field = r.integer(v[0], min); }};
}
FlagSpec maybe_integer(std::string_view name, std::optional<std::int64_t> Args::*field, std::int64_t min = 1) {
    return {name, Arity::one,
            [=](Args& a, Stated&, const Values& v, const ValueReader& r) { a.*field = r.integer(v[0], min); }};
}
FlagSpec real(std::string_view name, double Args::*field) {
    return {name, Arity::one, [=](Args& a, Stated&, const Values& v, const ValueReader& r) { a.*field = r.real(v[0]); }};
}
FlagSpec maybe_real(std::string_view name, std::optional<double> Args::*field) {
    return {name, Arity::one, [=](Args& a, Stated&, const Values& v, const ValueReader& r) { a.*field = r.real(v[0]); }};
}
FlagSpec on_off(std::string_view name, bool Args::*field, bool value = true) {
    return {name, Arity::none, [=](Args& a, Stated&, const Values&, const ValueReader&) { a.*field = value; }};
}
FlagSpec choice(std::string_view name, std::string Args::*field, std::vector<std::string> choices) {
    return {name, Arity::one, [=](Args& a, Stated&, const Values& v, const ValueReader& r) {
                a.*field = r.choice(v[0], choices);
            }};
}
FlagSpec maybe_choice(std::string_view name, std::optional<std::string> Args::*field, std::vector<std::string> choices) {
    return {name, Arity::one, [=](Args& a, Stated&, const Values& v, const ValueReader& r) {
                a.*field = choices.empty() ? v[0] : r.choice(v[0], choices);
            }};
}
FlagSpec noted(std::string_view name, bool Stated::*field, Arity arity = Arity::one) {
    return {name, arity, [=](Args&, Stated& s, const Values&, const ValueReader&) { s.*field = true; }};
}

const std::vector<std::string> dtypes{"fp32", "bf16", "fp16", "fp8"};

std::vector<FlagSpec> make_table() {
    std::vector<FlagSpec> t{
        // network size
        integer("--num-layers", &Args::num_layers),
        integer("--hidden-size", &Args::hidden_size),
        integer("--ffn-hidden-size", &Args::ffn_hidden_size),
        integer("--num-attention-heads", &Args::num_attention_heads),
        integer("--kv-channels", &Args::kv_channels),
        on_off("--group-query-attention", &Args::group_query_attention),
        {"--num-query-groups", Arity::one,
         [](Args&, Stated& s, const Values& v, const ValueReader& r) { s.num_query_groups = r.integer(v[0], 1); }},
        integer("--seq-length", &Args::seq_length),
        {"--encoder-seq-length", Arity::one,
         [](Args&, Stated& s, const Values& v, const ValueReader& r) { s.encoder_seq_length = r.integer(v[0], 1); }},
        {"--max-position-embeddings", Arity::one,
         [](Args& a, Stated& s, const Values& v, const ValueReader& r) {
             a.max_position_embeddings = r.integer(v[0], 1);
             s.max_position_embeddings = true;
         }},
        choice("--position-embedding-type", &Args::position_embedding_type,
               {"learned_absolute", "rope", "mrope", "relative", "none"}),
        noted("--use-rotary-position-embeddings", &Stated::use_rotary_position_embeddings, Arity::none),
        real("--rotary-percent", &Args::rotary_percent),
        choice("--normalization", &Args::normalization, {"LayerNorm", "RMSNorm"}),
        on_off("--apply-residual-connection-post-layernorm", &Args::apply_residual_connection_post_layernorm),
        on_off("--qk-layernorm", &Args::qk_layernorm),
        on_off("--swiglu", &Args::swiglu),
        on_off("--squared-relu", &Args::squared_relu),
        on_off("--quick-geglu", &Args::quick_geglu),
        on_off("--disable-bias-linear", &Args::add_bias_linear, false),
        on_off("--add-qkv-bias", &Args::add_qkv_bias),
        on_off("--untie-embeddings-and-output-weights", &Args::untie_embeddings_and_output_weights),
        real("--hidden-dropout", &Args::hidden_dropout),
        real("--attention-dropout", &Args::attention_dropout),
        maybe_integer("--mtp-num-layers", &Args::mtp_num_layers, 0),
        on_off("--multi-latent-attention", &Args::multi_latent_attention),
        maybe_integer("--q-lora-rank", &Args::q_lora_rank),
        integer("--kv-lora-rank", &Args::kv_lora_rank),
        integer("--qk-head-dim", &Args::qk_head_dim),
        integer("--qk-pos-emb-head-dim", &Args::qk_pos_emb_head_dim, 0),
        integer("--v-head-dim", &Args::v_head_dim),
        // vocabulary
        maybe_choice("--tokenizer-type", &Args::tokenizer_type,
                     {"BertWordPieceLowerCase", "BertWordPieceCase", "GPT2BPETokenizer", "SentencePieceTokenizer",
                      "GPTSentencePieceTokenizer", "HuggingFaceTokenizer", "Llama2Tokenizer", "TikTokenizer",
                      "MultimodalTokenizer", "NullTokenizer", "DeepSeekV2Tokenizer"}),
        maybe_integer("--vocab-size", &Args::vocab_size),
        integer("--make-vocab-size-divisible-by", &Args::make_vocab_size_divisible_by),
        noted("--vocab-file", &Stated::vocab_file),
        noted("--merge-file", &Stated::merge_file),
        // mixture of experts
        maybe_integer("--num-experts", &Args::num_experts, 0),
        integer("--moe-router-topk", &Args::moe_router_topk),
        integer("--moe-ffn-hidden-size", &Args::moe_ffn_hidden_size),
        maybe_integer("--moe-shared-expert-intermediate-size", &Args::moe_shared_expert_intermediate_size),
        {"--moe-layer-freq", Arity::one,
         [](Args&, Stated& s, const Values& v, const ValueReader&) { s.moe_layer_freq = v[0]; }},
        on_off("--moe-grouped-gemm", &Args::moe_grouped_gemm),
        choice("--moe-token-dispatcher-type", &Args::moe_token_dispatcher_type, {"allgather", "alltoall", "flex"}),
        maybe_choice("--moe-router-dtype", &Args::moe_router_dtype, {"fp32", "fp64"}),
        maybe_real("--moe-expert-capacity-factor", &Args::moe_expert_capacity_factor),
        on_off("--moe-pad-expert-input-to-capacity", &Args::moe_pad_expert_input_to_capacity),
        // parallelism
        integer("--tensor-model-parallel-size", &Args::tensor_model_parallel_size),
        integer("--pipeline-model-parallel-size", &Args::pipeline_model_parallel_size),
        integer("--context-parallel-size", &Args::context_parallel_size),
        integer("--expert-model-parallel-size", &Args::expert_model_parallel_size),
        {"--expert-tensor-parallel-size", Arity::one,
         [](Args& a, Stated& s, const Values& v, const ValueReader& r) {
             a.expert_tensor_parallel_size = r.integer(v[0], 1);
             s.expert_tensor_parallel_size = true;
         }},
        on_off("--sequence-parallel", &Args::sequence_parallel),
        {"--cp-comm-type", Arity::many,
         [](Args& a, Stated&, const Values& v, const ValueReader& r) {
             // Megatron-LM hands the word to Transformer Engine, which takes
             // `all_gather` and raises for the `allgather` Megatron's help writes.
             static const std::vector<std::string> types{"p2p", "a2a", "all_gather", "a2a+p2p"};
             a.cp_comm_type.clear();
             for (const std::string& t : v) {
                 if (t == "allgather")
                     throw MegatronArgsError(fmt::format("{}: {} allgather: Transformer Engine takes it as `all_gather`",
                                                         r.where, r.flag));
                 a.cp_comm_type.push_back(r.choice(t, types));
             }
         }},
        maybe_integer("--num-layers-per-virtual-pipeline-stage", &Args::num_layers_per_virtual_pipeline_stage),
        {"--num-virtual-stages-per-pipeline-rank", Arity::one,
         [](Args&, Stated& s, const Values& v, const ValueReader& r) {
             s.num_virtual_stages_per_pipeline_rank = r.integer(v[0], 1);
         }},
        // TransformerConfig: "must be larger than 0".
        maybe_integer("--decoder-first-pipeline-num-layers", &Args::decoder_first_pipeline_num_layers, 1),
        maybe_integer("--decoder-last-pipeline-num-layers", &Args::decoder_last_pipeline_num_layers, 1),
        on_off("--account-for-embedding-in-pipeline-split", &Args::account_for_embedding_in_pipeline_split),
        on_off("--account-for-loss-in-pipeline-split", &Args::account_for_loss_in_pipeline_split),
        maybe_choice("--pipeline-model-parallel-layout", &Args::pipeline_model_parallel_layout, {}),
        on_off("--no-overlap-p2p-communication", &Args::overlap_p2p_comm, false),
        on_off("--use-tp-pp-dp-mapping", &Args::use_tp_pp_dp_mapping),
        // batch
        integer("--micro-batch-size", &Args::micro_batch_size),
        {"--global-batch-size", Arity::one,
         [](Args& a, Stated& s, const Values& v, const ValueReader& r) {
             a.global_batch_size = r.integer(v[0], 1);
             s.global_batch_size = true;
         }},
        // precision
        on_off("--fp16", &Args::fp16),
        on_off("--bf16", &Args::bf16),
        on_off("--accumulate-allreduce-grads-in-fp32", &Args::accumulate_allreduce_grads_in_fp32),
        on_off("--grad-reduce-in-bf16", &Args::grad_reduce_in_bf16),
        maybe_choice("--fp8-format", &Args::fp8, {"e4m3", "hybrid"}),
        choice("--fp8-recipe", &Args::fp8_recipe, {"tensorwise", "delayed", "mxfp8", "blockwise", "custom"}),
        on_off("--fp8-param-gather", &Args::fp8_param_gather),
        maybe_choice("--fp4-format", &Args::fp4, {"e2m1"}),
        on_off("--fp32-residual-connection", &Args::fp32_residual_connection),
        {"--attention-softmax-in-fp32", Arity::none,
         [](Args& a, Stated& s, const Values&, const ValueReader&) {
             a.attention_softmax_in_fp32 = true;
             s.attention_softmax_in_fp32_stated = true;
         }},
        on_off("--apply-query-key-layer-scaling", &Args::apply_query_key_layer_scaling),
        // optimizer and gradients
        choice("--optimizer", &Args::optimizer, {"adam", "sgd", "muon", "dist_muon"}),
        on_off("--use-distributed-optimizer", &Args::use_distributed_optimizer),
        on_off("--use-precision-aware-optimizer", &Args::use_precision_aware_optimizer),
        choice("--main-grads-dtype", &Args::main_grads_dtype, dtypes),
        choice("--main-params-dtype", &Args::main_params_dtype, dtypes),
        choice("--exp-avg-dtype", &Args::exp_avg_dtype, dtypes),
        choice("--exp-avg-sq-dtype", &Args::exp_avg_sq_dtype, dtypes),
        on_off("--optimizer-cpu-offload", &Args::optimizer_cpu_offload),
        real("--optimizer-offload-fraction", &Args::optimizer_offload_fraction),
        integer("--num-distributed-optimizer-instances", &Args::num_distributed_optimizer_instances),
        on_off("--overlap-grad-reduce", &Args::overlap_grad_reduce),
        on_off("--overlap-param-gather", &Args::overlap_param_gather),
        on_off("--align-param-gather", &Args::align_param_gather),
        maybe_integer("--ddp-bucket-size", &Args::ddp_bucket_size),
        on_off("--no-gradient-accumulation-fusion", &Args::gradient_accumulation_fusion, false),
        on_off("--use-megatron-fsdp", &Args::use_megatron_fsdp),
        on_off("--use-custom-fsdp", &Args::use_megatron_fsdp),
        on_off("--use-torch-fsdp2", &Args::use_torch_fsdp2),
        choice("--data-parallel-sharding-strategy", &Args::data_parallel_sharding_strategy,
               {"no_shard", "optim", "optim_grads", "optim_grads_params"}),
        maybe_choice("--megatron-fsdp-main-params-dtype", &Args::megatron_fsdp_main_params_dtype, {}),
        maybe_choice("--megatron-fsdp-main-grads-dtype", &Args::megatron_fsdp_main_grads_dtype, {}),
        maybe_choice("--megatron-fsdp-grad-comm-dtype", &Args::megatron_fsdp_grad_comm_dtype, {}),
        // activations
        noted("--recompute-activations", &Stated::recompute_activations, Arity::none),
        noted("--moe-layer-recompute", &Stated::moe_layer_recompute, Arity::none),
        maybe_choice("--recompute-granularity", &Args::recompute_granularity, {"full", "selective"}),
        maybe_choice("--recompute-method", &Args::recompute_method, {"uniform", "block"}),
        maybe_integer("--recompute-num-layers", &Args::recompute_num_layers, 0),
        {"--recompute-modules", Arity::many,
         [](Args& a, Stated&, const Values& v, const ValueReader& r) {
             // A YAML config may give the list as one word: "[core_attn mlp]".
             static const std::vector<std::string> modules{"core_attn", "moe_act", "layernorm", "mla_up_proj",
                                                           "mlp", "moe", "shared_experts"};
             a.recompute_modules.clear();
             for (const std::string& word : v) {
                 std::string item;
                 for (char c : word + " ") {
                     if (c == '[' || c == ']' || c == ',' || c == ' ' || c == '\'' || c == '"') {
                         if (!item.empty()) a.recompute_modules.push_back(r.choice(item, modules));
                         item.clear();
                     } else {
                         item += c;
                     }
                 }
             }
         }},
        on_off("--distribute-saved-activations", &Args::distribute_saved_activations),
        integer("--cpu-offloading-num-layers", &Args::cpu_offloading_num_layers, 0),
        choice("--attention-backend", &Args::attention_backend, {"flash", "fused", "unfused", "local", "auto"}),
        choice("--transformer-impl", &Args::transformer_impl, {"local", "transformer_engine"}),
        on_off("--use-flash-attn", &Args::use_flash_attn),
        on_off("--no-masked-softmax-fusion", &Args::masked_softmax_fusion, false),
        on_off("--no-bias-gelu-fusion", &Args::bias_gelu_fusion, false),
        on_off("--no-bias-swiglu-fusion", &Args::bias_swiglu_fusion, false),
        on_off("--no-bias-dropout-fusion", &Args::bias_dropout_fusion, false),
        on_off("--no-rope-fusion", &Args::apply_rope_fusion, false),
        on_off("--cross-entropy-loss-fusion", &Args::cross_entropy_loss_fusion),
        choice("--cross-entropy-fusion-impl", &Args::cross_entropy_fusion_impl, {"native", "te"}),
        on_off("--deterministic-mode", &Args::deterministic_mode),
        on_off("--tp-comm-overlap", &Args::tp_comm_overlap),
        on_off("--defer-embedding-wgrad-compute", &Args::defer_embedding_wgrad_compute),
        on_off("--delay-wgrad-compute", &Args::delay_wgrad_compute),
        on_off("--overlap-moe-expert-parallel-comm", &Args::overlap_moe_expert_parallel_comm),
        integer("--empty-unused-memory-level", &Args::empty_unused_memory_level, 0),
        on_off("--use-transformer-engine-op-fuser", &Args::use_transformer_engine_op_fuser),
        choice("--cuda-graph-impl", &Args::cuda_graph_impl, {"none", "local", "transformer_engine"}),
        {"--enable-cuda-graph", Arity::none,
         [](Args& a, Stated&, const Values&, const ValueReader&) { a.cuda_graph_impl = "local"; }},
        {"--external-cuda-graph", Arity::none,
         [](Args& a, Stated&, const Values&, const ValueReader&) { a.cuda_graph_impl = "transformer_engine"; }},
    };
    std::sort(t.begin(), t.end(), [](const FlagSpec& a, const FlagSpec& b) { return a.name < b.name; });
    return t;
}

// Megatron flags that change no allocated byte: logging, checkpoints, data,
// learning rate and schedule, initialisation, router and loss coefficients,
// process groups. Families by prefix below.
const std::vector<std::string_view> ignored_names{
    "--adam-beta1", "--adam-beta2", "--adam-eps", "--app-tag-run-name", "--app-tag-run-version", "--async-save",
    "--async-strategy", "--auto-detect-ckpt-format", "--barrier-with-L1-time", "--bert-no-binary-head",
    "--calc-ft-timeouts", "--calculate-per-token-loss", "--check-for-large-grads",
    "--check-for-nan-in-loss-and-grad", "--check-for-spiky-loss", "--check-weight-hash-across-dp-replicas-interval",
    "--clip-grad", "--config-logger-dir", "--create-attention-mask-in-dataloader", "--data-args-path",
    "--data-cache-path", "--data-path", "--dataloader-type", "--ddp-average-in-collective",
    "--decoupled-lr", "--decoupled-min-lr", "--decrease-batch-size-if-needed", "--disable-gloo-process-groups",
    "--distributed-backend", "--distributed-timeout-minutes", "--enable-ft-package", "--end-weight-decay",
    "--eod-mask-loss", "--exit-duration-in-mins", "--exit-interval", "--exit-on-missing-checkpoint",
    "--exit-signal-handler", "--finetune", "--full-validation", "--hysteresis", "--init-method-std",
    "--init-method-xavier-uniform", "--initial-loss-scale", "--iterations-to-skip", "--load", "--local-rank",
    "--loss-scale", "--loss-scale-window", "--lr", "--manual-gc", "--manual-gc-eval", "--manual-gc-interval",
    "--memory-snapshot-path", "--micro-batch-size-per-gpu", "--microbatch-group-size-per-virtual-pipeline-stage",
    "--min-loss-scale", "--min-lr", "--mmap-bin-files", "--mock-data", "--moe-aux-loss-coeff",
    "--moe-enable-deepep", "--moe-input-jitter-eps", "--moe-per-layer-logging",
    "--moe-permute-fusion", "--moe-router-bias-update-rate", "--moe-router-enable-expert-bias",
    "--moe-router-fusion", "--moe-router-group-topk", "--moe-router-load-balancing-type",
    "--moe-router-num-groups", "--moe-router-pre-softmax", "--moe-router-score-function",
    "--moe-router-topk-scaling-factor", "--moe-z-loss-coeff", "--mscale", "--mscale-all-dim",
    "--mtp-loss-scaling-factor", "--no-async-tensor-model-parallel-allreduce", "--no-barrier-with-level-1-timing",
    "--no-check-for-nan-in-loss-and-grad", "--no-ckpt-fully-parallel-save", "--no-clone-scatter-output-in-embedding",
    "--no-create-attention-mask-in-dataloader", "--no-initialization", "--no-load-optim", "--no-load-rng",
    "--no-mmap-bin-files", "--no-one-logger", "--no-persist-layer-norm", "--no-save-optim", "--no-save-rng",
    "--norm-epsilon", "--num-dataset-builder-threads", "--num-workers", "--object-storage-cache-path",
    "--overlap-p2p-communication-warmup-flush", "--override-opt_param-scheduler", "--per-split-data-args-path",
    "--pretrained-checkpoint", "--rampup-batch-size", "--reset-attention-mask", "--reset-position-ids",
    "--result-rejected-tracker-filename", "--rotary-base", "--rotary-interleaved",
    "--rotary-scaling-factor", "--rotary-seq-len-interpolation-factor", "--rope-scaling-factor", "--rope-type",
    "--run-workload-inspector-server", "--s3-cache-path", "--save", "--save-interval", "--save-retain-interval",
    "--seed", "--sgd-momentum", "--sft", "--special-tokens", "--split", "--start-weight-decay",
    "--te-rng-tracker", "--tensorboard-dir", "--tensorboard-log-interval", "--tensorboard-queue-size",
    "--test-data-path", "--test-mode", "--timing-log-level", "--timing-log-option", "--tokenizer-model",
    "--tokenizer-prompt-format", "--train-data-path", "--train-iters", "--train-samples",
    "--train-sync-interval", "--use-checkpoint-opt_param-scheduler", "--use-cpu-initialization",
    "--use-mcore-models", "--use-persistent-ckpt-worker", "--use-pytorch-profiler", "--use-rope-scaling",
    "--valid-data-path", "--verify-integrity", "--vocab-extra-ids", "--weight-decay", "--weight-decay-incr-style",
    "--wgrad-deferral-limit", "--yaml-cfg", "--use-legacy-models", "--add-position-embedding",
    "--no-position-embedding", "--split-sentences", "--record-memory-history", "--profile", "--profile-ranks",
    "--profile-step-start", "--profile-step-end", "--enable-msc", "--disable-msc", "--use-dist-ckpt",
    "--dist-ckpt-format", "--use-tokenizer-model-from-checkpoint-args", "--norm-init-weight",
    "--kitchen-config-file", "--kitchen-recipe-number", "--fp8-margin", "--fp8-interval",
    "--fp8-amax-history-len", "--fp8-amax-compute-algo", "--no-fp8-wgrad", "--inference-rng-tracker",
    "--tp-comm-overlap-cfg", "--tp-comm-bootstrap-backend", "--disable-tp-comm-overlap-ag",
    "--disable-tp-comm-overlap-rs", "--tp-comm-overlap-rs-dgrad", "--disable-tp-comm-bulk-dgrad",
    "--disable-tp-comm-bulk-wgrad", "--high-priority-stream-groups", "--hierarchical-context-parallel-sizes",
    "--nccl-communicator-config-path", "--use-sharp", "--sharp-enabled-group",
    "--use-ring-exchange-p2p", "--no-align-grad-reduce",
    "--ddp-pad-buckets-for-high-nccl-busbw", "--check-for-nan-in-grad", "--gradient-reduce-div-fusion",
    "--log-interval", "--logging-level", "--eval-interval", "--eval-iters", "--warmup", "--onnx-safe",
};

// Whole families of flags that change no memory.
const std::vector<std::string_view> ignored_prefixes{
    "--log-",     "--wandb-",     "--lr-",       "--ckpt-",    "--dist-ckpt-", "--inprocess-", "--one-logger-",
    "--straggler-", "--profile-", "--rerun-",    "--error-injection-", "--retro-", "--muon-", "--non-persistent-",
    "--eval-",    "--inference-", "--grpo-",     "--rl-",      "--ft-",        "--disable-straggler-",
    "--dataloader-", "--data-cache-", "--tokenizer-",
};

}  // namespace

const FlagSpec* find_flag(std::string_view name) {
    static const std::vector<FlagSpec> table = make_table();
    auto it = std::lower_bound(table.begin(), table.end(), name,
                               [](const FlagSpec& f, std::string_view n) { return f.name < n; });
    return it != table.end() && it->name == name ? &*it : nullptr;
}

bool is_ignored_flag(std::string_view name) {
    if (std::find(ignored_names.begin(), ignored_names.end(), name) != ignored_names.end()) return true;
    return std::any_of(ignored_prefixes.begin(), ignored_prefixes.end(),
                       [&](std::string_view p) { return name.substr(0, p.size()) == p; });
}

}  // namespace oprec::rank::detail

namespace oprec::rank {

const std::vector<std::string_view>& ignored_megatron_flags() { return detail::ignored_names; }

}  // namespace oprec::rank
