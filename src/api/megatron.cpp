// A Megatron-LM launch command through the API: its flags read as
// arguments.py reads them (rank/megatron_args.h), the model written as a
// Hugging Face config of the megatron_* op profiles (stdlib/profiles.rec)
// and the strategy as FitStrategy.
#include <algorithm>
#include <charconv>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "oprec/fit.h"
#include "rank/megatron_args.h"
#include "rank/shell_words.h"
#include "value/json_writer.h"

namespace oprec {

namespace {

using nlohmann::ordered_json;

// The model as a config.json: GeLU or a gated feed-forward, with or
// without dropout masks, dense and MoE layers in Megatron's pattern.
ordered_json config_of(const rank::Args& a) {
    ordered_json c;
    const bool gated = a.swiglu || a.quick_geglu;
    const bool dropout = a.hidden_dropout > 0 || a.attention_dropout > 0;
    c["model_type"] = std::string(gated ? "megatron_glu" : "megatron_gpt") + (dropout ? "" : "_nodropout");
    c["hidden_size"] = a.hidden_size;
    c["num_attention_heads"] = a.num_attention_heads;
    c["num_key_value_heads"] = a.num_query_groups;
    c["head_dim"] = a.kv_channels;
    c["num_hidden_layers"] = a.num_layers;
    c["intermediate_size"] = a.ffn_hidden_size;
    c["vocab_size"] = a.padded_vocab_size;
    c["max_position_embeddings"] = a.max_position_embeddings;
    c["tie_word_embeddings"] = !a.untie_embeddings_and_output_weights;
    c["torch_dtype"] = a.params_dtype == "bf16" ? "bfloat16" : a.params_dtype == "fp16" ? "float16" : "float32";
    c["qk_norm"] = a.qk_layernorm;
    c["qkv_bias"] = a.add_qkv_bias;
    c["o_bias"] = a.add_bias_linear;
    c["mlp_bias"] = a.add_bias_linear;
    if (a.multi_latent_attention) {
        c["kv_lora_rank"] = a.kv_lora_rank;
        if (a.q_lora_rank) c["q_lora_rank"] = *a.q_lora_rank;
        c["qk_rope_head_dim"] = a.qk_pos_emb_head_dim;
        c["qk_nope_head_dim"] = a.qk_head_dim;
        c["v_head_dim"] = a.v_head_dim;
    }
    if (a.num_experts && *a.num_experts > 0) {
        c["num_experts"] = *a.num_experts;
        c["num_experts_per_tok"] = a.moe_router_topk;
        c["moe_intermediate_size"] = a.moe_ffn_hidden_size;
        if (a.moe_shared_expert_intermediate_size)
            c["shared_expert_intermediate_size"] = *a.moe_shared_expert_intermediate_size;
        ordered_json kinds = ordered_json::array();
        for (std::size_t i = 0; i < static_cast<std::size_t>(a.num_layers); ++i)
            kinds.push_back(i < a.moe_layer_pattern.size() && a.moe_layer_pattern[i] == 0 ? "dense" : "moe");
        c["layer_types"] = kinds;
    }
    return c;
}

// A whole number, at least `least`, a flag the reader keeps no field for
// was given (the last time it was stated), wherever the reader filed it.
std::optional<std::int64_t> stated_count(const rank::ParsedArgs& parsed, std::string_view flag, std::int64_t least) {
    std::optional<std::int64_t> out;
    for (const auto* list : {&parsed.used, &parsed.ignored, &parsed.unknown})
        for (const rank::StatedFlag& f : *list)
            if (f.name == flag && f.values.size() == 1) {
                const std::string& text = f.values[0];
                std::int64_t n = 0;
                const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
                if (ec != std::errc() || end != text.data() + text.size() || n < least)
                    throw LayerError(fmt::format("{}:{}:{}: {} {}: expected a whole number, at least {}", parsed.source,
                                                 f.line, f.col, flag, text, least));
                out = n;
            }
    return out;
}

// Megatron's selective recompute recomputes the modules --recompute-modules
// names (core_attn unless it says otherwise) and keeps the rest: each
// module as the records' op switches whose saves it frees (calibrated.rec
// says what each op keeps), every other switch kept (not HyperParallel's
// rule, which keeps attBMM alone). The checkpoint keeps a module's inputs:
// core_attn frees the softmax and the probabilities AV reads (softmax,
// with their dropout mask, and headCast), not the queries (attBMM) nor the
// hidden-size dropout masks (dropout); layernorm frees the norms' outputs,
// the next matmuls' inputs, which have no switch. A switch holds for every
// layer alike, so a module of one kind of layer (mlp: the dense ones; moe,
// moe_act, shared_experts: the MoE ones) is priced on all where the model
// has both kinds, with a note.
void selective_switches(const rank::Args& a, Named<bool>& switches, std::vector<std::string>& notes) {
    const auto moe_layers = std::count(a.moe_layer_pattern.begin(), a.moe_layer_pattern.end(), 1);
    const bool all_moe = moe_layers > 0 && moe_layers == static_cast<std::ptrdiff_t>(a.moe_layer_pattern.size());
    const bool shared = a.moe_shared_expert_intermediate_size.value_or(0) > 0;
    std::vector<std::string_view> off;
    bool dense_act = false, moe_act = false;  // whose activation functions the modules recompute
    for (const std::string& module : a.recompute_modules) {
        if (module == "core_attn") off.insert(off.end(), {"softmax", "headCast"});
        if (module == "layernorm")
            notes.push_back("--recompute-modules layernorm frees the norms' outputs, the next matmuls' inputs, which "
                            "the records count as kept: priced as recomputing nothing");
        if (module == "mla_up_proj") off.push_back("attUp");
        if (module != "mlp" && module != "moe" && module != "moe_act" && module != "shared_experts") continue;
        // The layers the module is in: the dense ones for mlp, the MoE ones (with shared experts) else.
        const bool in_some = module == "mlp" ? !all_moe : moe_layers > 0 && (module != "shared_experts" || shared);
        if (!in_some) {
            notes.push_back(fmt::format("--recompute-modules {}: the model has no {}: it recomputes nothing", module,
                                        module == "mlp" ? "dense layer" : module == "shared_experts" ? "shared expert"
                                                                                                     : "MoE layer"));
            continue;
        }
        (module == "mlp" ? dense_act : moe_act) = true;
        if (module != "moe_act")
            notes.push_back(fmt::format("--recompute-modules {} is priced as recomputing its activation function "
                                        "(ffAct) alone: its matmuls' inputs are still counted as kept", module));
    }
    if (dense_act || moe_act) {
        off.push_back("ffAct");
        const bool has_dense = moe_layers < static_cast<std::ptrdiff_t>(a.moe_layer_pattern.size());
        if ((has_dense && !dense_act) || (moe_layers > 0 && !moe_act))
            notes.push_back(fmt::format("the activation function (ffAct) is priced as recomputed in every layer, the "
                                        "{} layers' too, which the modules named do not recompute",
                                        dense_act ? "MoE" : "dense"));
    }
    static constexpr std::string_view kSwitches[] = {"attBMM", "headCast", "softmax", "dropout",
                                                     "normOp", "gather",   "ffAct",   "attUp"};
    for (std::string_view sw : kSwitches)
        switches.emplace_back(std::string(sw), std::find(off.begin(), off.end(), sw) == off.end());
}

FitStrategy strategy_of(const rank::ParsedArgs& parsed, std::vector<std::string>& notes) {
    const rank::Args& a = parsed.args;
    FitStrategy s;
    s.layer.tp = a.tensor_model_parallel_size;
    s.layer.cp = a.context_parallel_size;
    // The context-parallel algorithm each --cp-comm-type is: p2p the ring,
    // a2a Ulysses, a2a+p2p the two nested (hybrid); allgather gathers the
    // keys and values whole, as the records' ring prices them.
    if (a.context_parallel_size > 1) {
        auto algo = [](const std::string& type) {
            return type == "a2a" ? "ulysses" : type == "a2a+p2p" ? "hybrid" : "ring";
        };
        s.layer.cp_algo = algo(a.cp_comm_type.front());
        for (const std::string& type : a.cp_comm_type)
            if (algo(type) != s.layer.cp_algo) {
                notes.push_back(fmt::format("--cp-comm-type differs by layer: every layer priced as {} ({})",
                                            a.cp_comm_type.front(), s.layer.cp_algo));
                break;
            }
    }
    s.layer.sp = a.sequence_parallel;
    s.layer.ep = a.expert_model_parallel_size;
    s.layer.etp = a.expert_tensor_parallel_size;
    s.layer.mbs = a.micro_batch_size;
    s.layer.seq = a.seq_length;
    s.layer.dtype = a.params_dtype;
    // The local implementation and the unfused backend materialise the scores.
    const bool unfused = a.attention_backend == "unfused" || a.attention_backend == "local" ||
                         (a.transformer_impl == "local" && !a.use_flash_attn);
    s.layer.flash_attention = !unfused;
    const std::string granularity = a.recompute_granularity.value_or("");
    s.layer.recompute = granularity == "full" ? "full" : granularity == "selective" ? "selective" : "none";
    if (granularity == "selective") selective_switches(a, s.layer.switches, notes);
    s.gpus = a.gpus;
    s.pp = a.pipeline_model_parallel_size;
    s.vpp = a.virtual_pipeline_model_parallel_size.value_or(1);
    s.gbs = a.global_batch_size;
    if (a.use_torch_fsdp2) {
        s.zero = 3;  // torch's fully_shard: weights, gradients and optimizer states
    } else if (a.use_megatron_fsdp) {
        const std::string& how = a.data_parallel_sharding_strategy;
        s.zero = how == "optim" ? 1 : how == "optim_grads" ? 2 : how == "no_shard" ? 0 : 3;
    } else {
        s.zero = a.use_distributed_optimizer ? 1 : 0;
    }
    if (a.optimizer == "sgd") s.optimizer = "sgd";
    else if (a.optimizer != "adam")
        notes.push_back(fmt::format("--optimizer {} is priced as Adam (two fp32 states per weight)", a.optimizer));
    if (a.recompute_method) s.recompute_method = *a.recompute_method;
    s.recompute_layers = a.recompute_num_layers;
    // Uneven stages, and the embedding and loss taking a layer's place, as the reader laid them out.
    s.virtual_stage_layers = a.layers_per_virtual_stage;
    s.vp_group = stated_count(parsed, "--microbatch-group-size-per-virtual-pipeline-stage", 1);
    s.untied = a.untie_embeddings_and_output_weights;
    s.vocab = a.padded_vocab_size;
    s.mtp_layers = a.mtp_num_layers.value_or(0);
    s.learned_positions = a.position_embedding_type == "learned_absolute";
    s.fp32_grads = a.accumulate_allreduce_grads_in_fp32;
    s.grouped_gemm = a.moe_grouped_gemm;
    s.fused_cross_entropy = a.cross_entropy_loss_fusion;
    s.moe_allgather = a.moe_token_dispatcher_type == "allgather";
    // Every waiting micro-batch (Megatron's wgrad deferral limit, 0: no limit).
    const std::int64_t limit = stated_count(parsed, "--wgrad-deferral-limit", 0).value_or(0);
    s.deferred_wgrad = a.defer_embedding_wgrad_compute ? (limit > 0 ? limit : a.global_batch_size) : 0;
    if (a.fp8) notes.push_back("fp8 weights and activations are priced in bf16: fp8 is not modelled");
    if (a.fp4) notes.push_back("fp4 weights and activations are priced in bf16: fp4 is not modelled");
    if (a.cpu_offloading_num_layers > 0) notes.push_back("activation offloading is not modelled");
    // Read, and not priced yet: each said, so the answer is known to be the
    // plain optimizer's and residual's (an upper bound for the first three).
    if (a.use_precision_aware_optimizer &&
        (a.exp_avg_dtype != "fp32" || a.exp_avg_sq_dtype != "fp32" || a.main_params_dtype != "fp32"))
        notes.push_back(fmt::format("the precision-aware optimizer's dtypes (exp_avg {}, exp_avg_sq {}, main params {}) "
                                    "are not modelled: its states are priced in fp32",
                                    a.exp_avg_dtype, a.exp_avg_sq_dtype, a.main_params_dtype));
    if (a.optimizer_cpu_offload && a.optimizer_offload_fraction > 0)
        notes.push_back(fmt::format("--optimizer-cpu-offload is not modelled: the optimizer states are priced on the "
                                    "GPU (Megatron keeps {:g}% of them on the host)",
                                    100 * std::min(1.0, a.optimizer_offload_fraction)));
    if (a.num_distributed_optimizer_instances > 1)
        notes.push_back(fmt::format("--num-distributed-optimizer-instances {} is not modelled: the states are priced "
                                    "sharded over all of dp, not dp / {}",
                                    a.num_distributed_optimizer_instances, a.num_distributed_optimizer_instances));
    if (a.fp32_residual_connection)
        notes.push_back("--fp32-residual-connection is not modelled: the residual stream is priced in the compute dtype");
    return s;
}

std::vector<std::string> names_of(const std::vector<rank::StatedFlag>& flags) {
    std::vector<std::string> out;
    for (const rank::StatedFlag& f : flags) out.push_back(f.name);
    return out;
}

}  // namespace

MegatronJob megatron_job(std::string_view text, std::string source_name, std::optional<std::int64_t> gpus) {
    rank::ParsedArgs parsed;
    if (gpus && (*gpus < 1 || *gpus > std::numeric_limits<int>::max()))
        throw LayerError(fmt::format("{}: --gpus {}: expected a whole number from 1 to {}", source_name, *gpus,
                                     std::numeric_limits<int>::max()));
    try {
        parsed = rank::parse_megatron_args(text, std::move(source_name),
                                           gpus ? std::optional<int>(static_cast<int>(*gpus)) : std::nullopt);
    } catch (const rank::MegatronArgsError& e) {
        throw LayerError(e.what());
    } catch (const rank::ShellError& e) {
        throw LayerError(e.what());
    }
    // Priced as 0, an unknown vocabulary left out the embedding, the logits
    // and the loss, and could say "fits": no answer, as for a config
    // without vocab_size. (The parser keeps it as a note.)
    if (parsed.args.padded_vocab_size == 0) {
        const std::string tokenizer = parsed.args.tokenizer_type.value_or("");
        throw LayerError(fmt::format(
            "{}: {}; add --vocab-size N to the launch command", parsed.source,
            tokenizer.empty() ? "no tokenizer and no --vocab-size: the vocabulary size is unknown"
                              : tokenizer + ": the vocabulary size is in its files, which are not read"));
    }
    MegatronJob job;
    job.notes = parsed.notes;
    job.strategy = strategy_of(parsed, job.notes);
    job.config_json = json_text(config_of(parsed.args), 2);
    job.ignored = names_of(parsed.ignored);
    job.unknown = names_of(parsed.unknown);
    return job;
}

FitResult fit_megatron(const Records& records, const MegatronJob& job, std::string source_name,
                       std::optional<std::string> family) {
    const FitModel model(records, job.config_json, std::move(source_name), std::move(family));
    FitResult result = model.fit(job.strategy);
    result.parameters = model.parameters(job.strategy);
    result.notes.insert(result.notes.begin(), job.notes.begin(), job.notes.end());
    return result;
}

}  // namespace oprec
