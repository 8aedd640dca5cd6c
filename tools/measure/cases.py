"""The layers docs/fidelity.md compares, each an `oprec eval --hf` command
line, and how oprec prices them.

Korthikanti et al. 2022 (Table 3) GPT models at TP=8, s=2048, fp16, in the
paper's five modes, with the fields at the paper's assumptions (fp16 softmax
and norm inputs; the gpt2 family already has two feed-forward matmuls, two
hidden-size dropouts and one-byte masks); Llama-2-7B and 70B at TP=8 with
sequence parallelism and flash attention, bf16 norm inputs, 2k to 32k tokens.
"""

import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Megatron's selective recompute: the core attention (softmax, its dropout,
# the probabilities' cast) recomputed, everything else kept.
SELECTIVE = ["--recompute", "selective", "--switch", "softmax=0", "--switch", "headCast=0",
             "--switch", "attBMM=1", "--switch", "dropout=1", "--switch", "normOp=1",
             "--switch", "ffAct=1", "--switch", "gather=1"]

GPT_MODES = {
    "TP": ["--no-sp", "--recompute", "none"],
    "TP+SP": ["--sp", "--recompute", "none"],
    "TP+selective": ["--no-sp"] + SELECTIVE,
    "TP+SP+selective": ["--sp"] + SELECTIVE,
    "full recompute": ["--no-sp", "--recompute", "full"],
}

# Table 3: config, micro-batch size.
GPT_MODELS = [("22B", "gpt-22b", 4), ("175B", "gpt-175b", 1), ("530B", "gpt-530b", 1), ("1T", "gpt-1t", 1)]

LLAMA_MODELS = [("Llama-2-7B", "llama-2-7b"), ("Llama-2-70B", "llama-2-70b")]
LLAMA_SEQS = [2048, 4096, 8192, 16384, 32768]


def cases():
    """(case name, model, mode, oprec eval arguments after --hf CONFIG)."""
    out = []
    for model, config, mbs in GPT_MODELS:
        for mode, args in GPT_MODES.items():
            out.append((f"{model} {mode}", model, mode, f"examples/hf/{config}.json",
                        ["--tp", "8", "--mbs", str(mbs), "--no-flash-attention", "--dtype", "fp16",
                         "--set", "bytes_softmax=2", "--set", "bytes_norm=2"] + args))
    for model, config in LLAMA_MODELS:
        for seq in LLAMA_SEQS:
            out.append((f"{model} {seq // 1024}k", model, f"TP+SP, flash, {seq // 1024}k", f"examples/hf/{config}.json",
                        ["--tp", "8", "--sp", "--seq", str(seq), "--dtype", "bf16", "--recompute", "none",
                         "--set", "bytes_norm=2"]))
    return out


def oprec_eval(oprec, config, args, records):
    """`oprec eval --records RECORDS --hf CONFIG ARGS --format json`, parsed."""
    cmd = [oprec, "eval", "--records", records, "--hf", os.path.join(ROOT, config), "--format", "json"] + args
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def priced(result):
    """(slot -> bytes of the held slots, layer total) of an `oprec eval --hf --format json` result;
    a fully recomputed layer keeps its input alone."""
    if "full_recompute_input" in result:
        return {"input": result["full_recompute_input"]}, result["full_recompute_input"]
    slots = {k: v["bytes"] for k, v in result["report"]["slots"].items() if v["held"]}
    return slots, sum(slots.values())
