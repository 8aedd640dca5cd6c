// A Megatron-LM launch command (or just its flags) read into typed
// arguments, with Megatron's defaults and the defaults validate_args()
// derives (megatron/training/arguments.py, NVIDIA/Megatron-LM at
// 000c4ac24f61159c138b0975def722c65245983c, the version in the code search;
// the measured cases come from d98e8a64). Only what can change a rank's
// memory is kept; the other Megatron flags are listed as ignored, anything
// else as unknown (a warning, never a refusal).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace oprec::rank {

// Bad input: a flag without its value, a value of the wrong type or outside
// its choices, sizes Megatron refuses. The message holds
// "SOURCE:LINE:COL: --flag ..." (the position of the flag or value at fault;
// SOURCE alone where no stated flag is at fault).
class MegatronArgsError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Args {
    // ---- the model --------------------------------------------------------
    std::int64_t num_layers = 0;           // --num-layers (required)
    std::int64_t hidden_size = 0;          // --hidden-size (required)
    std::int64_t num_attention_heads = 0;  // --num-attention-heads (required)
    std::int64_t ffn_hidden_size = 0;      // --ffn-hidden-size; 4h, or int(4h*2/3/64)*64 with --swiglu
    std::int64_t kv_channels = 0;          // --kv-channels; hidden_size / num_attention_heads
    bool group_query_attention = false;    // --group-query-attention
    // --num-query-groups (default 1) where --group-query-attention is given;
    // num_attention_heads otherwise (what attention then has: one group per head).
    std::int64_t num_query_groups = 0;
    std::int64_t seq_length = 0;               // --seq-length (or --encoder-seq-length) (required)
    std::int64_t max_position_embeddings = 0;  // --max-position-embeddings; seq_length when absent (a note)
    std::string position_embedding_type = "learned_absolute";  // --position-embedding-type; rope with
                                                                // --use-rotary-position-embeddings
    double rotary_percent = 1.0;                // --rotary-percent
    std::string normalization = "LayerNorm";    // --normalization: LayerNorm | RMSNorm
    bool apply_residual_connection_post_layernorm = false;  // --apply-residual-connection-post-layernorm
    bool qk_layernorm = false;                  // --qk-layernorm
    bool swiglu = false;                        // --swiglu (gated linear unit, SiLU)
    bool squared_relu = false;                  // --squared-relu
    bool quick_geglu = false;                   // --quick-geglu (gated)
    bool add_bias_linear = true;                // --disable-bias-linear turns off
    bool add_qkv_bias = true;                   // --add-qkv-bias; true whenever add_bias_linear
    bool untie_embeddings_and_output_weights = false;  // --untie-embeddings-and-output-weights
    double hidden_dropout = 0.1;                // --hidden-dropout
    double attention_dropout = 0.1;             // --attention-dropout
    std::optional<std::int64_t> mtp_num_layers;  // --mtp-num-layers

    // Multi-latent attention (--multi-latent-attention and its sizes).
    bool multi_latent_attention = false;
    std::optional<std::int64_t> q_lora_rank;  // --q-lora-rank (None: no q compression)
    std::int64_t kv_lora_rank = 32;           // --kv-lora-rank
    std::int64_t qk_head_dim = 128;           // --qk-head-dim
    std::int64_t qk_pos_emb_head_dim = 64;    // --qk-pos-emb-head-dim
    std::int64_t v_head_dim = 128;            // --v-head-dim

    // ---- vocabulary ---------------------------------------------------------
    std::optional<std::string> tokenizer_type;  // --tokenizer-type as stated
    std::optional<std::int64_t> vocab_size;     // --vocab-size as stated
    std::int64_t make_vocab_size_divisible_by = 128;  // --make-vocab-size-divisible-by
    // The tokenizer's size before padding: GPT2BPETokenizer 50257 (also
    // assumed, with a note, where --vocab-file/--merge-file name no type),
    // NullTokenizer vocab_size + 1 (its EOD), the others --vocab-size; 0
    // where unknown (a note says so).
    std::int64_t original_vocab_size = 0;
    // original_vocab_size padded up to a multiple of
    // make_vocab_size_divisible_by * tensor_model_parallel_size.
    std::int64_t padded_vocab_size = 0;

    // ---- mixture of experts ---------------------------------------------------
    std::optional<std::int64_t> num_experts;  // --num-experts (0 counts as none)
    std::int64_t moe_router_topk = 2;         // --moe-router-topk
    std::int64_t moe_ffn_hidden_size = 0;     // --moe-ffn-hidden-size; ffn_hidden_size with experts, else 0
    std::optional<std::int64_t> moe_shared_expert_intermediate_size;  // --moe-shared-expert-intermediate-size
    // --moe-layer-freq (an int N: every N-th layer from layer 0, or a list
    // expression "([0]*3+[1]*13)"), expanded: one entry per layer, 1 = MoE.
    // All zero without experts.
    std::vector<int> moe_layer_pattern;
    bool moe_grouped_gemm = false;                     // --moe-grouped-gemm
    std::string moe_token_dispatcher_type = "allgather";  // --moe-token-dispatcher-type
    std::optional<std::string> moe_router_dtype;       // --moe-router-dtype: fp32 | fp64
    std::optional<double> moe_expert_capacity_factor;  // --moe-expert-capacity-factor
    bool moe_pad_expert_input_to_capacity = false;     // --moe-pad-expert-input-to-capacity

    // ---- parallelism ------------------------------------------------------------
    int gpus = 8;                           // the caller's GPU count (world size), not a Megatron flag
    std::int64_t tensor_model_parallel_size = 1;    // --tensor-model-parallel-size
    std::int64_t pipeline_model_parallel_size = 1;  // --pipeline-model-parallel-size
    std::int64_t context_parallel_size = 1;         // --context-parallel-size
    std::int64_t expert_model_parallel_size = 1;    // --expert-model-parallel-size
    std::int64_t expert_tensor_parallel_size = 1;   // --expert-tensor-parallel-size; tensor_model_parallel_size
    std::int64_t data_parallel_size = 1;            // gpus / (tp * pp * cp)
    std::int64_t expert_data_parallel_size = 1;     // gpus / (etp * ep * pp)
    bool sequence_parallel = false;  // --sequence-parallel; false where tp = 1 (Megatron turns it off)
    // --cp-comm-type: p2p | a2a | allgather | a2a+p2p, one for all layers or one a layer.
    std::vector<std::string> cp_comm_type{"p2p"};
    // Interleaved schedule: chunks per pipeline rank, from
    // --num-layers-per-virtual-pipeline-stage, --num-virtual-stages-per-pipeline-rank
    // or --pipeline-model-parallel-layout; none where that gives 1.
    std::optional<std::int64_t> virtual_pipeline_model_parallel_size;
    std::optional<std::int64_t> num_layers_per_virtual_pipeline_stage;  // as stated
    std::optional<std::int64_t> decoder_first_pipeline_num_layers;      // --decoder-first-pipeline-num-layers
    std::optional<std::int64_t> decoder_last_pipeline_num_layers;       // --decoder-last-pipeline-num-layers
    bool account_for_embedding_in_pipeline_split = false;  // --account-for-embedding-in-pipeline-split
    bool account_for_loss_in_pipeline_split = false;       // --account-for-loss-in-pipeline-split
    std::optional<std::string> pipeline_model_parallel_layout;  // --pipeline-model-parallel-layout
    // Transformer layers each pipeline rank holds (all its virtual chunks),
    // in pipeline order; from the uneven-split flags or the layout.
    std::vector<std::int64_t> layers_per_stage;
    // Transformer layers of each virtual stage v = chunk * pp + rank, in
    // model order (pp * vpp of them).
    std::vector<std::int64_t> layers_per_virtual_stage;
    // MTP layers each pipeline rank holds (the layout's `m`, else all on the last).
    std::vector<std::int64_t> mtp_layers_per_stage;
    bool overlap_p2p_comm = true;            // --no-overlap-p2p-communication turns off; false unless interleaved
    bool use_tp_pp_dp_mapping = false;       // --use-tp-pp-dp-mapping (rank order only)

    // ---- batch -----------------------------------------------------------------
    std::int64_t micro_batch_size = 0;   // --micro-batch-size (required)
    std::int64_t global_batch_size = 0;  // --global-batch-size; micro_batch_size * data_parallel_size
    std::int64_t num_microbatches = 1;   // global_batch_size / (micro_batch_size * data_parallel_size)

    // ---- precision -------------------------------------------------------------
    bool fp16 = false;  // --fp16
    bool bf16 = false;  // --bf16
    // "fp32", "bf16" or "fp16": the parameters' dtype (--fp16/--bf16).
    std::string params_dtype = "fp32";
    // --accumulate-allreduce-grads-in-fp32; implied by --bf16 unless --grad-reduce-in-bf16.
    bool accumulate_allreduce_grads_in_fp32 = false;
    bool grad_reduce_in_bf16 = false;          // --grad-reduce-in-bf16
    std::optional<std::string> fp8;            // --fp8-format: e4m3 | hybrid
    std::string fp8_recipe = "delayed";        // --fp8-recipe
    bool fp8_param_gather = false;             // --fp8-param-gather
    std::optional<std::string> fp4;            // --fp4-format
    bool fp32_residual_connection = false;     // --fp32-residual-connection
    bool attention_softmax_in_fp32 = false;    // --attention-softmax-in-fp32; implied by
                                               // --apply-query-key-layer-scaling
    bool apply_query_key_layer_scaling = false;  // --apply-query-key-layer-scaling

    // ---- optimizer and gradients -----------------------------------------------------
    std::string optimizer = "adam";            // --optimizer: adam | sgd | muon | dist_muon
    bool use_distributed_optimizer = false;    // --use-distributed-optimizer
    bool use_precision_aware_optimizer = false;  // --use-precision-aware-optimizer
    std::string main_grads_dtype = "fp32";     // --main-grads-dtype
    std::string main_params_dtype = "fp32";    // --main-params-dtype
    std::string exp_avg_dtype = "fp32";        // --exp-avg-dtype
    std::string exp_avg_sq_dtype = "fp32";     // --exp-avg-sq-dtype
    bool optimizer_cpu_offload = false;        // --optimizer-cpu-offload
    double optimizer_offload_fraction = 1.0;   // --optimizer-offload-fraction
    std::int64_t num_distributed_optimizer_instances = 1;  // --num-distributed-optimizer-instances
    bool overlap_grad_reduce = false;          // --overlap-grad-reduce
    bool overlap_param_gather = false;         // --overlap-param-gather
    bool align_param_gather = false;           // --align-param-gather (interleaved only)
    std::optional<std::int64_t> ddp_bucket_size;  // --ddp-bucket-size (elements)
    bool gradient_accumulation_fusion = true;  // --no-gradient-accumulation-fusion turns off
    bool use_megatron_fsdp = false;            // --use-megatron-fsdp
    bool use_torch_fsdp2 = false;              // --use-torch-fsdp2
    std::string data_parallel_sharding_strategy = "no_shard";  // --data-parallel-sharding-strategy
    // Megatron-FSDP's dtypes as stated (none: Megatron's own default).
    std::optional<std::string> megatron_fsdp_main_params_dtype;  // --megatron-fsdp-main-params-dtype
    std::optional<std::string> megatron_fsdp_main_grads_dtype;   // --megatron-fsdp-main-grads-dtype
    std::optional<std::string> megatron_fsdp_grad_comm_dtype;    // --megatron-fsdp-grad-comm-dtype

    // ---- activations -----------------------------------------------------------------
    std::optional<std::string> recompute_granularity;  // --recompute-granularity: full | selective;
                                                       // selective with --recompute-activations
    std::optional<std::string> recompute_method;       // --recompute-method: uniform | block
    std::optional<std::int64_t> recompute_num_layers;  // --recompute-num-layers
    // --recompute-modules; ["core_attn"] under selective recompute when not stated.
    std::vector<std::string> recompute_modules;
    bool distribute_saved_activations = false;         // --distribute-saved-activations
    std::int64_t cpu_offloading_num_layers = 0;        // --cpu-offloading-num-layers
    // --attention-backend: auto | flash | fused | unfused | local.
    std::string attention_backend = "auto";
    std::string transformer_impl = "transformer_engine";  // --transformer-impl: local | transformer_engine
    bool use_flash_attn = false;                // --use-flash-attn (legacy)
    bool masked_softmax_fusion = true;          // --no-masked-softmax-fusion turns off
    bool bias_gelu_fusion = true;               // --no-bias-gelu-fusion; off without linear biases
    bool bias_swiglu_fusion = true;             // --no-bias-swiglu-fusion
    bool bias_dropout_fusion = true;            // --no-bias-dropout-fusion
    bool apply_rope_fusion = true;              // --no-rope-fusion; off unless rope
    bool cross_entropy_loss_fusion = false;     // --cross-entropy-loss-fusion
    std::string cross_entropy_fusion_impl = "native";  // --cross-entropy-fusion-impl
    bool deterministic_mode = false;            // --deterministic-mode
    bool tp_comm_overlap = false;               // --tp-comm-overlap
    bool defer_embedding_wgrad_compute = false;  // --defer-embedding-wgrad-compute
    bool delay_wgrad_compute = false;           // --delay-wgrad-compute
    bool overlap_moe_expert_parallel_comm = false;  // --overlap-moe-expert-parallel-comm
    std::int64_t empty_unused_memory_level = 0;  // --empty-unused-memory-level
    bool use_transformer_engine_op_fuser = false;  // --use-transformer-engine-op-fuser
    std::string cuda_graph_impl = "none";       // --cuda-graph-impl (--enable-cuda-graph: local,
                                                // --external-cuda-graph: transformer_engine)
};

// A flag as it was stated.
struct StatedFlag {
    std::string name;  // "--num-layers"
    std::vector<std::string> values;  // none for a switch
    int line = 0;  // where the flag starts in the text
    int col = 0;
};

struct ParsedArgs {
    std::string source;
    Args args;
    std::vector<StatedFlag> used;      // flags read into args, in order
    std::vector<StatedFlag> ignored;   // Megatron flags that change no memory (logging, paths, lr...)
    std::vector<StatedFlag> unknown;   // not Megatron flags this reader knows: a warning each
    // Environment assignments before the command (`NAME=v cmd`, `export NAME=v`).
    std::map<std::string, std::string> env;
    // Words before the training script (`torchrun --nproc_per_node 8 ...`).
    std::vector<std::string> launcher;
    // nproc_per_node * nnodes where the launcher states both as numbers.
    std::optional<int> launcher_gpus;
    // Defaults this reader assumed where Megatron would read a file or
    // refuse (the tokenizer's size, max_position_embeddings), one sentence each.
    std::vector<std::string> notes;
};

// Reads `text` (a launch command or just its flags; see shell_words.h) for a
// job on `gpus` GPUs. Throws MegatronArgsError (or ShellError for an
// unclosed quote) naming `source_name` and the line:col at fault.
// `gpus`: the job's GPU count; none: the launcher's (torchrun's
// --nnodes * --nproc-per-node) where it states one, else 8. A count given
// that is not the launcher's is taken, with a note.
ParsedArgs parse_megatron_args(std::string_view text, std::string source_name, std::optional<int> gpus = {});

// The names of the Megatron flags read as ignored (for tests and docs).
const std::vector<std::string_view>& ignored_megatron_flags();

}  // namespace oprec::rank
