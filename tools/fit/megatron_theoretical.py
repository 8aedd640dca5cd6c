#!/usr/bin/env python3
"""Megatron-LM's own memory estimate for a launch's flags: a port (our own
code, same arithmetic) of megatron/training/theoretical_memory_usage.py at
NVIDIA/Megatron-LM commit 00caa53af30912914981c86f39db123961678bbd, the
function Megatron prints as "Theoretical memory footprints: weight and
optimizer=... MB, activation=... MB, total=... MB" after the first
iteration (training.py calls it with num_microbatches = the run's
micro-batches per step).

What it estimates, as Megatron does: the *most loaded* shard (the first
pipeline stage: 1/pp of the transformer block, the MTP block and the
embedding), 18 bytes a parameter (6 + 12/dp with the distributed optimizer),
and the activations of Korthikanti et al.'s Table 2: with sequence
parallelism and selective recompute `compute_activation_memory`, otherwise
`compute_activation_memory_without_sp` (which adds 5%). It does not read
recompute granularity `full`, experts' activations, cp or the attention
backend; that is Megatron's estimate, ported as it is.

Usage: megatron_theoretical.py FLAGS_FILE [--gpus N]   (prints bytes as JSON)
   or: import and call theoretical(model_args_dict, num_gpus).
"""
import argparse
import json
import math
import shlex
import sys
import types

NUM_BYTES_IN_MEGABYTE = 1024 * 1024

# The defaults of megatron/training/arguments.py for the flags the estimate reads.
DEFAULTS = {
    "num_layers": None, "hidden_size": None, "ffn_hidden_size": None, "num_attention_heads": None,
    "kv_channels": None, "group_query_attention": False, "num_query_groups": 1, "seq_length": None,
    "micro_batch_size": None, "global_batch_size": None, "tensor_model_parallel_size": 1,
    "pipeline_model_parallel_size": 1, "context_parallel_size": 1, "num_experts": None,
    "moe_ffn_hidden_size": None, "moe_shared_expert_intermediate_size": None, "moe_layer_freq": 1,
    "mtp_num_layers": None, "swiglu": False, "normalization": "LayerNorm", "multi_latent_attention": False,
    "q_lora_rank": None, "kv_lora_rank": 32, "qk_head_dim": 128, "qk_pos_emb_head_dim": 64, "v_head_dim": 128,
    "untie_embeddings_and_output_weights": False, "use_distributed_optimizer": False,
    "sequence_parallel": False, "recompute_granularity": None, "recompute_activations": False,
    "num_layers_per_virtual_pipeline_stage": None, "num_virtual_stages_per_pipeline_rank": None,
    "pipeline_model_parallel_layout": None, "make_vocab_size_divisible_by": 128, "tokenizer_type": None,
    "vocab_size": None, "vocab_file": None, "merge_file": None, "account_for_embedding_in_pipeline_split": False,
    "account_for_loss_in_pipeline_split": False,
}
INTS = {"num_layers", "hidden_size", "ffn_hidden_size", "num_attention_heads", "kv_channels", "num_query_groups",
        "seq_length", "micro_batch_size", "global_batch_size", "tensor_model_parallel_size",
        "pipeline_model_parallel_size", "context_parallel_size", "num_experts", "moe_ffn_hidden_size",
        "moe_shared_expert_intermediate_size", "mtp_num_layers", "q_lora_rank", "kv_lora_rank", "qk_head_dim",
        "qk_pos_emb_head_dim", "v_head_dim", "num_layers_per_virtual_pipeline_stage",
        "num_virtual_stages_per_pipeline_rank", "make_vocab_size_divisible_by", "vocab_size"}


def _eval_pattern(text):
    """--moe-layer-freq's list expressions, with Megatron's own character check."""
    if any(c not in ",0123456789[]()+*" for c in text):
        raise ValueError(f"invalid --moe-layer-freq pattern: {text}")
    return eval(text, {"__builtins__": {}})  # digits, lists, + and * only (checked above)


def _layout_stages(layout):
    """--pipeline-model-parallel-layout's stage count (PipelineParallelLayerLayout.parse_str_to_list)."""
    import re
    s = layout.replace(",", "")
    for pattern in (r"\(([^)]+)\)\*(\d+)", r"(.)\*(\d+)"):
        s = re.sub(pattern, lambda m: m.group(1) * int(m.group(2)), s)
    return len(s.split("|"))


def megatron_args(model_args, num_gpus):
    """The namespace the estimate reads, from a case's model_args ({"--flag": value|true}),
    with Megatron's defaults and validate_args' derived values."""
    a = dict(DEFAULTS)
    for flag, value in model_args.items():
        name = flag.lstrip("-").replace("-", "_")
        if value is False or name not in a:
            continue
        a[name] = int(value) if name in INTS and value is not True else value
    a = types.SimpleNamespace(**a)
    tp, pp, cp = a.tensor_model_parallel_size, a.pipeline_model_parallel_size, a.context_parallel_size
    a.data_parallel_size = num_gpus // (tp * pp * cp)
    if a.global_batch_size is None:
        a.global_batch_size = a.micro_batch_size * a.data_parallel_size
    a.num_microbatches = a.global_batch_size // (a.micro_batch_size * a.data_parallel_size)
    if a.recompute_activations:
        a.recompute_granularity = "selective"
    if a.ffn_hidden_size is None:
        a.ffn_hidden_size = int((4 * a.hidden_size * 2 / 3) / 64) * 64 if a.swiglu else 4 * a.hidden_size
    if a.kv_channels is None:
        a.kv_channels = a.hidden_size // a.num_attention_heads
    if tp == 1:
        a.sequence_parallel = False
    if a.num_experts == 0:
        a.num_experts = None
    if a.num_experts is not None and a.moe_ffn_hidden_size is None:
        a.moe_ffn_hidden_size = a.ffn_hidden_size
    if isinstance(a.moe_layer_freq, str):
        a.moe_layer_freq = _eval_pattern(a.moe_layer_freq) if "[" in a.moe_layer_freq else int(a.moe_layer_freq)
    # Virtual pipeline size as validate_args derives it.
    a.virtual_pipeline_model_parallel_size = None
    if a.pipeline_model_parallel_layout is not None:
        a.virtual_pipeline_model_parallel_size = _layout_stages(a.pipeline_model_parallel_layout) // pp
    elif a.num_virtual_stages_per_pipeline_rank is not None:
        a.virtual_pipeline_model_parallel_size = a.num_virtual_stages_per_pipeline_rank
    elif a.num_layers_per_virtual_pipeline_stage is not None:
        layers = a.num_layers + a.account_for_embedding_in_pipeline_split + a.account_for_loss_in_pipeline_split
        a.virtual_pipeline_model_parallel_size = layers // pp // a.num_layers_per_virtual_pipeline_stage
    if a.virtual_pipeline_model_parallel_size == 1:
        a.virtual_pipeline_model_parallel_size = None
    # The tokenizer's size, padded (_vocab_size_with_padding); GPT2BPETokenizer where only its files are named.
    tokenizer = a.tokenizer_type or ("GPT2BPETokenizer" if a.vocab_file or a.merge_file else None)
    if tokenizer == "GPT2BPETokenizer":
        vocab = 50257
    elif tokenizer == "NullTokenizer":
        vocab = a.vocab_size + 1
    elif a.vocab_size is not None:
        vocab = a.vocab_size
    else:
        raise ValueError("the vocabulary size is unknown: give --vocab-size or --tokenizer-type")
    multiple = a.make_vocab_size_divisible_by * tp
    a.padded_vocab_size = (vocab + multiple - 1) // multiple * multiple
    a.is_hybrid_model = False
    return a


def compute_weight_and_optimizer_memory(args):
    query_projection_size = args.kv_channels * args.num_attention_heads
    query_projection_to_hidden_size_ratio = query_projection_size / args.hidden_size
    num_query_groups = args.num_query_groups if args.group_query_attention else args.num_attention_heads
    num_experts = 1 if args.num_experts is None else args.num_experts
    gated_linear_multiplier = 3 / 2 if args.swiglu else 1
    shared_expert_ffn_hidden_size = args.moe_shared_expert_intermediate_size or 0

    if args.num_experts is not None:
        if isinstance(args.moe_layer_freq, int):
            moe_layer_pattern = [1 if i % args.moe_layer_freq == 0 else 0 for i in range(args.num_layers)]
        else:
            moe_layer_pattern = list(args.moe_layer_freq)
            if len(moe_layer_pattern) != args.num_layers:
                raise ValueError(f"--moe-layer-freq gives {len(moe_layer_pattern)} layers, not {args.num_layers}")
        num_moe_layers = sum(moe_layer_pattern)
        num_dense_layers = args.num_layers - num_moe_layers
        moe_ffn_hidden_size = args.moe_ffn_hidden_size
    else:
        moe_layer_pattern = [0] * args.num_layers
        num_dense_layers, num_moe_layers, moe_ffn_hidden_size = args.num_layers, 0, 0
    if args.mtp_num_layers is not None:
        mtp_layer_is_moe = moe_layer_pattern[-1]
        mtp_num_moe_layers = mtp_layer_is_moe * args.mtp_num_layers
        mtp_num_dense_layers = (1 - mtp_layer_is_moe) * args.mtp_num_layers
    else:
        mtp_num_moe_layers = mtp_num_dense_layers = 0

    norm_size = 1 if args.normalization == "RMSNorm" else 2  # RMSNorm has no bias
    h, a = args.hidden_size, args.num_attention_heads
    if args.multi_latent_attention:
        if args.q_lora_rank is None:
            q_term = h * a * (args.qk_head_dim + args.qk_pos_emb_head_dim)
        else:
            q_term = args.q_lora_rank * (h + a * (args.qk_head_dim + args.qk_pos_emb_head_dim) + norm_size)
        self_attn_term = (q_term + args.kv_lora_rank * (h + a * (args.qk_head_dim + args.v_head_dim) + norm_size)
                          + h * args.qk_pos_emb_head_dim + (a * args.v_head_dim) * h)
    else:
        self_attn_term = 2 * h * h * ((1 + num_query_groups / a) * query_projection_to_hidden_size_ratio)

    dense_layer = 2 * h * (args.ffn_hidden_size * gated_linear_multiplier + norm_size) + self_attn_term
    moe_layer = 2 * h * (moe_ffn_hidden_size * num_experts * gated_linear_multiplier
                         + shared_expert_ffn_hidden_size * gated_linear_multiplier + norm_size) + self_attn_term
    embedding_size = h * args.padded_vocab_size
    final_layernorm = norm_size * h
    block = dense_layer * num_dense_layers + moe_layer * num_moe_layers + final_layernorm
    mtp_block = dense_layer * mtp_num_dense_layers + moe_layer * mtp_num_moe_layers

    # The most loaded shard: 1/pp of the block, the MTP block and one embedding, over tp.
    tp, pp = args.tensor_model_parallel_size, args.pipeline_model_parallel_size
    most_loaded = (block / pp + mtp_block + embedding_size) / tp
    if args.untie_embeddings_and_output_weights and pp == 1:
        most_loaded += embedding_size / tp
    bytes_per_parameter = 18 if not args.use_distributed_optimizer else 6 + (12 / args.data_parallel_size)
    return most_loaded * bytes_per_parameter


def _pipeline_factor(args, memory, num_microbatches):
    pp, vpp = args.pipeline_model_parallel_size, args.virtual_pipeline_model_parallel_size
    if vpp is not None:
        memory *= 1 + (pp - 1) / (pp * vpp)
    if vpp is None and pp > 1 and num_microbatches is not None:
        memory *= min(1, num_microbatches / pp)
    return memory


def compute_activation_memory(args, num_microbatches):
    """Table 2 of arXiv:2205.05198, for the first pipeline stage (SP and selective recompute)."""
    s, b, h = args.seq_length, args.micro_batch_size, args.hidden_size
    pp, tp = args.pipeline_model_parallel_size, args.tensor_model_parallel_size
    memory = s * b * h * (18 + 4 * (args.ffn_hidden_size / h)) * args.num_layers
    memory += 8 * s * b * pp  # input to the embedding
    memory += s * b * h * pp  # embedding dropout
    memory = _pipeline_factor(args, memory, num_microbatches)
    if pp == 1:  # output layer and cross-entropy
        memory += s * b * h * 4 * (1 + args.padded_vocab_size / h)
    return memory / tp


def compute_activation_memory_without_sp(args, num_microbatches):
    s, b, h = args.seq_length, args.micro_batch_size, args.hidden_size
    pp, tp = args.pipeline_model_parallel_size, args.tensor_model_parallel_size
    memory = s * b * h * (10 + 24 / tp) * args.num_layers
    memory += 8 * s * b * pp
    memory += s * b * h * pp
    memory = _pipeline_factor(args, memory, num_microbatches)
    if pp == 1:
        logits = s * b * args.padded_vocab_size / tp
        memory += (logits + s * b * h) * 2
    return memory * 1.05


def theoretical(model_args, num_gpus):
    """Megatron's report for these flags, in bytes: weight_and_optimizer, activation, total."""
    args = megatron_args(model_args, num_gpus)
    weights = compute_weight_and_optimizer_memory(args) / NUM_BYTES_IN_MEGABYTE
    if args.sequence_parallel and args.recompute_granularity == "selective":
        activation = compute_activation_memory(args, args.num_microbatches) / NUM_BYTES_IN_MEGABYTE
    else:
        activation = compute_activation_memory_without_sp(args, args.num_microbatches) / NUM_BYTES_IN_MEGABYTE
    return {
        "weight_and_optimizer_bytes": weights * NUM_BYTES_IN_MEGABYTE,
        "activation_bytes": activation * NUM_BYTES_IN_MEGABYTE,
        "total_bytes": (weights + activation) * NUM_BYTES_IN_MEGABYTE,
    }


def flags_from_text(text):
    """A flags file (shell-quoted, continuations) as {"--flag": value|True}."""
    words = shlex.split(text, comments=True)
    out, i = {}, 0
    while i < len(words):
        w = words[i]
        if not w.startswith("--"):
            i += 1
            continue
        if "=" in w:
            name, value = w.split("=", 1)
            out[name] = value
        elif i + 1 < len(words) and not words[i + 1].startswith("--"):
            out[w] = words[i + 1]
            i += 1
        else:
            out[w] = True
        i += 1
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("flags_file")
    parser.add_argument("--gpus", type=int, default=8)
    ns = parser.parse_args()
    with open(ns.flags_file) as f:
        flags = flags_from_text(f.read())
    print(json.dumps(theoretical(flags, ns.gpus), indent=1))


if __name__ == "__main__":
    sys.exit(main())
