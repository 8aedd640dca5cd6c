#!/usr/bin/python3
"""Measure what autograd keeps for the backward of one rank's transformer layer.

For each case of cases.py, `oprec eval --hf` derives the layer document; this
builds one rank's shard of that layer in PyTorch (on the meta device: shapes
and dtypes, no arithmetic), runs its forward under
torch.autograd.graph.saved_tensors_hooks and adds up the bytes of every
storage a saved tensor lives in, each storage once, parameters left out. It
prints, per slot, the measurement beside each record set's price, and with
--write keeps the measurements as data for docs/fidelity.md.

The layer is Megatron-LM's: pre-norm, a fused QKV projection (GPT) or separate
q/k/v projections with rotary embeddings (Llama), fused kernels where Megatron
has them (LayerNorm/RMSNorm keeping input and statistics, bias-GELU, SwiGLU
keeping its input, one-byte dropout masks, a softmax keeping its output),
sequence parallelism as its all-gather linear (the rank keeps its shard of
the input and gathers it again for the backward) and reduce-scatter, ring
context parallelism as keys and values gathered whole. Selective recompute
checkpoints the core attention; full recompute the whole layer.

Flash attention is not in this torch: FlashAttention below stands in for the
kernel, saving what it saves (q, k, v, the output and an fp32 log-sum-exp per
head and query token).

Run with Debian's python3-torch: /usr/bin/python3 tools/measure/measure.py.
"""

import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import ROOT, cases, oprec_eval, priced  # noqa: E402

DEVICE = "meta"


# ---- what autograd keeps -------------------------------------------------------

def storage(t):
    return t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()  # torch < 2 has no untyped_storage


def storage_id(t):
    return storage(t)._cdata


class Meter:
    """Bytes of the storages autograd saves, by slot: the slot a tensor was
    tagged with, else the slot the layer is in when it is saved."""

    def __init__(self, params):
        self.params = {storage_id(p) for p in params}
        self.seen = set()
        self.tags = {}
        self.slot = "other"
        self.by_slot = {}

    def tag(self, t, slot):
        self.tags.setdefault(storage_id(t), slot)
        return t

    def pack(self, t):
        sid = storage_id(t)
        if sid not in self.seen and sid not in self.params:
            self.seen.add(sid)
            slot = self.tags.get(sid, self.slot)
            self.by_slot[slot] = self.by_slot.get(slot, 0) + storage(t).nbytes()
        return t


METER = None  # the meter of the forward being measured (kernels tag their outputs)


# ---- kernels as Megatron runs them: each saves what its backward reads ---------------

class GatherLinear(torch.autograd.Function):
    """Sequence-parallel column linear: all-gathers the input's shard, keeps the shard."""

    @staticmethod
    def forward(ctx, x, w, ranks):
        ctx.save_for_backward(x, w)
        return F.linear(torch.cat([x] * ranks, dim=0), w)

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class ReduceScatter(torch.autograd.Function):
    """Sequence-parallel row linear's output: this rank's share of the sum."""

    @staticmethod
    def forward(ctx, y, ranks):
        return y[: y.shape[0] // ranks].clone()

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class Dropout(torch.autograd.Function):
    """Fused dropout: a one-byte mask."""

    @staticmethod
    def forward(ctx, x, p):
        mask = torch.rand(x.shape, device=x.device) >= p
        ctx.save_for_backward(mask)
        return x * mask / (1 - p)

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class RMSNorm(torch.autograd.Function):
    """Fused RMSNorm: keeps its input and one fp32 statistic per token."""

    @staticmethod
    def forward(ctx, x, w, eps):
        rstd = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, w, rstd)
        return (x.float() * rstd).to(w.dtype) * w

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class SwiGLU(torch.autograd.Function):
    """Megatron's fused SwiGLU: keeps its input (gate and up halves)."""

    @staticmethod
    def forward(ctx, gate_up):
        ctx.save_for_backward(gate_up)
        gate, up = gate_up.chunk(2, dim=-1)
        return F.silu(gate) * up

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class Rotary(torch.autograd.Function):
    """Fused rotary embedding: keeps only the frequency table (one buffer for
    every layer, which the meter leaves out as it does the weights)."""

    @staticmethod
    def forward(ctx, x, cos, sin):
        ctx.save_for_backward(cos, sin)
        half = x.shape[-1] // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return (x * cos + rotated * sin).to(x.dtype)

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class FlashAttention(torch.autograd.Function):
    """Stands in for the flash attention kernel (not in this torch): saves q,
    k, v, the output and an fp32 log-sum-exp per head and query token.
    Layout [s, b, heads, dh]; keys and values may have fewer heads (GQA)."""

    @staticmethod
    def forward(ctx, q, k, v, scale):
        def heads(x):  # [b, q heads, s, dh], a key/value head repeated for its group of queries
            b, n, s, d = x.shape[1], x.shape[2], x.shape[0], x.shape[3]
            group = q.shape[2] // n
            return x.permute(1, 2, 0, 3).float()[:, :, None].expand(b, n, group, s, d).reshape(b, n * group, s, d)

        qh, kh, vh = heads(q), heads(k), heads(v)
        scores = qh @ kh.transpose(-1, -2) * scale
        lse = torch.logsumexp(scores, dim=-1)
        out = (torch.softmax(scores, dim=-1) @ vh).permute(2, 0, 1, 3).to(q.dtype).contiguous()
        METER.tag(out, "proj")  # the output projection's input
        METER.tag(lse, "score")
        ctx.save_for_backward(q, k, v, out, lse)
        return out

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("the harness measures the forward's saves only")


class Recompute(torch.autograd.Function):
    """Activation checkpointing: keeps the inputs, runs `fn` keeping nothing."""

    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.save_for_backward(*inputs)
        with torch.no_grad():
            return fn(*inputs)

    @staticmethod
    def backward(ctx, *grads):
        raise NotImplementedError("the harness measures the forward's saves only")


# ---- one rank's layer, from an oprec layer document ---------------------------------

class Shape:
    def __init__(self, doc):
        f = doc["fields"]
        if f["n_normOp"] != 2:
            raise SystemExit(f"measure: n_normOp = {f['n_normOp']}: the harness builds pre-norm layers of two norms")
        if f["dc_kv"] or f["n_exp"] != 1 or f.get("n_linrec", 0) or f.get("n_qknorm", 0):
            raise SystemExit("measure: MLA, MoE, linear attention and QK-norm layers are not built here")
        self.h, self.a, self.n_kv = f["h"], f["a"], int(f["n_kv"])
        self.dh, self.hff = int(f["dh"]), f["hff"]
        self.t, self.cp, self.s, self.b = f["t"], f["cp"], f["s"], f["b"]
        self.sp = f["sp"] > 1
        self.flash = f["s_fa"] != f["s"]
        self.gated = f["n_ffMM"] == 3
        self.layernorm = bool(f["norm_bias"])
        self.rotary = not self.layernorm  # the Llama shape; GPT has learned positions outside the layer
        self.p = 0.1 if f["bytes_dropout"] else 0.0
        self.hidden_dropouts = f["n_dropout"] if self.p else 0
        self.dtype = {2: torch.float16, 4: torch.float32}[f["bytes_compute"]]
        self.norm_dtype = {2: self.dtype, 4: torch.float32}[f["bytes_norm"]]
        node = doc["context"]["node"]
        switches = doc["context"].get("switches") or doc.get("switches") or {}
        if node == "FULL_REC_LAYER":
            self.recompute = "full"
        elif node == "SEL_REC_LAYER":
            kept = {k for k, v in switches.items() if v}
            if kept != {"attBMM", "dropout", "normOp", "ffAct", "gather"}:
                raise SystemExit(f"measure: selective switches {switches}: the harness recomputes the core "
                                 "attention only (softmax=0 headCast=0, the rest 1)")
            self.recompute = "selective"
        else:
            self.recompute = "none"
        if self.a % self.t or (self.s // self.cp) % (self.t if self.sp else 1):
            raise SystemExit("measure: the heads or the sequence do not split over the ranks")


def weight(*shape, dtype):
    return torch.nn.Parameter(torch.empty(*shape, device=DEVICE, dtype=dtype))


class Layer:
    def __init__(self, sh):
        self.sh = sh
        t, dt = sh.t, sh.dtype
        self.heads, self.kv_heads = sh.a // t, max(sh.n_kv // t, 1)
        q_out, kv_out = self.heads * sh.dh, self.kv_heads * sh.dh
        self.norm_w = [weight(sh.h, dtype=dt), weight(sh.h, dtype=dt)]
        self.norm_b = [weight(sh.h, dtype=dt), weight(sh.h, dtype=dt)] if sh.layernorm else [None, None]
        self.w_qkv = weight(q_out + 2 * kv_out, sh.h, dtype=dt)
        self.w_o = weight(sh.h, q_out, dtype=dt)
        self.w_fc1 = weight((2 if sh.gated else 1) * sh.hff // t, sh.h, dtype=dt)
        self.w_fc2 = weight(sh.h, sh.hff // t, dtype=dt)
        s_local = sh.s // sh.cp
        self.cos = torch.empty(s_local, 1, 1, sh.dh, device=DEVICE, dtype=torch.float32)
        self.sin = torch.empty_like(self.cos)

    def params(self):
        """What the meter leaves out: the weights, and the rotary tables every layer shares."""
        return [p for p in [*self.norm_w, *self.norm_b, self.w_qkv, self.w_o, self.w_fc1, self.w_fc2, self.cos,
                            self.sin] if p is not None]

    def norm(self, i, x):
        METER.slot = "norm"
        if self.sh.layernorm:
            y = F.layer_norm(x, (self.sh.h,), self.norm_w[i].to(x.dtype), self.norm_b[i].to(x.dtype))
        else:
            y = RMSNorm.apply(x, self.norm_w[i], 1e-5)
        return y.to(self.sh.dtype)

    def column(self, x, w):  # input split by sequence under SP, output by heads or width
        return GatherLinear.apply(x, w, self.sh.t) if self.sh.sp else F.linear(x, w)

    def row(self, x, w):  # input split by heads or width, output summed over the ranks
        y = F.linear(x, w)
        return ReduceScatter.apply(y, self.sh.t) if self.sh.sp else y

    def dropout(self, x):
        return Dropout.apply(x, self.sh.p) if self.sh.p else x

    def core_attention(self, q, k, v):  # [s, b, heads, dh]; k, v gathered whole under CP
        sh, scale = self.sh, self.sh.dh ** -0.5
        if sh.flash:
            return FlashAttention.apply(q, k, v, scale)
        METER.slot = "score"
        s_q, b = q.shape[0], q.shape[1]
        qh, kh, vh = (x.permute(1, 2, 0, 3).reshape(b * x.shape[2], x.shape[0], sh.dh) for x in (q, k, v))
        scores = torch.baddbmm(torch.empty(qh.shape[0], s_q, kh.shape[1], device=DEVICE, dtype=sh.dtype),
                               qh, kh.transpose(1, 2), beta=0.0, alpha=scale)
        probs = self.dropout(torch.softmax(scores, dim=-1))
        out = torch.bmm(probs, vh)  # [b*heads, s, dh]; keeps the probabilities (score) and v (qkv)
        return out.reshape(b, -1, s_q, sh.dh).permute(2, 0, 1, 3).contiguous()

    def attention(self, x):
        sh = self.sh
        y = self.norm(0, x)
        METER.slot = "qkv"
        qkv = self.column(y, self.w_qkv)
        s_local, b = qkv.shape[0], qkv.shape[1]
        q_out, kv_out = self.heads * sh.dh, self.kv_heads * sh.dh
        q, k, v = (z.reshape(s_local, b, -1, sh.dh).contiguous() for z in qkv.split([q_out, kv_out, kv_out], dim=-1))
        if sh.rotary:
            q, k = Rotary.apply(q, self.cos, self.sin), Rotary.apply(k, self.cos, self.sin)
        if sh.cp > 1:  # ring CP: every rank keeps the whole sequence's keys and values
            k, v = torch.cat([k] * sh.cp, dim=0), torch.cat([v] * sh.cp, dim=0)
        for z in (q, k, v):
            METER.tag(z, "qkv")
        if sh.recompute == "selective":
            out = Recompute.apply(self.core_attention, q, k, v)
        else:
            out = self.core_attention(q, k, v)
        METER.slot = "proj"
        out = self.row(out.reshape(s_local, b, -1), self.w_o)
        if sh.hidden_dropouts >= 1:
            out = self.dropout(out)
        return out

    def mlp(self, x):
        sh = self.sh
        y = self.norm(1, x)
        METER.slot = "ffn"
        z = self.column(y, self.w_fc1)
        z = SwiGLU.apply(z) if sh.gated else F.gelu(z)
        z = self.row(z, self.w_fc2)
        METER.slot = "proj"  # the records price both hidden-size dropout masks in proj
        return self.dropout(z) if sh.hidden_dropouts >= 2 else z

    def forward(self, x):
        x = x + self.attention(x).to(x.dtype)
        return x + self.mlp(x).to(x.dtype)


def measure(doc):
    """Saved bytes by slot for the layer document `doc`."""
    global METER
    sh = Shape(doc)
    layer = Layer(sh)
    rows = sh.s // sh.cp // (sh.t if sh.sp else 1)
    x = torch.empty(rows, sh.b, sh.h, device=DEVICE, dtype=sh.norm_dtype, requires_grad=True)
    METER = Meter(layer.params())
    with torch.autograd.graph.saved_tensors_hooks(METER.pack, lambda t: t):
        if sh.recompute == "full":
            METER.tag(x, "input")
            out = Recompute.apply(layer.forward, x)
        else:
            out = layer.forward(x)
    assert out.shape == x.shape
    return dict(sorted(METER.by_slot.items()))


# ---- the cases ----------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oprec", default=os.path.join(ROOT, "build", "oprec"), help="the oprec binary")
    parser.add_argument("--case", action="append", help="measure only these cases (names as cases.py gives them)")
    parser.add_argument("--write", metavar="JSON", help="keep the measurements in this file")
    parser.add_argument("--check", metavar="JSON", help="fail if a measurement differs from this file's")
    parser.add_argument("--quiet", action="store_true", help="print no per-slot table")
    opts = parser.parse_args()

    out = {"torch": torch.__version__,
           "note": "autograd's saved tensors on the meta device; flash attention by a stand-in saving q, k, v, "
                   "the output and an fp32 log-sum-exp",
           "cases": {}}
    for name, _model, _mode, config, args in cases():
        if opts.case and name not in opts.case:
            continue
        default = oprec_eval(opts.oprec, config, args, "op_records")
        calibrated = oprec_eval(opts.oprec, config, args, "calibrated")
        slots = measure(calibrated["layer_doc"])
        total = sum(slots.values())
        out["cases"][name] = {"total": total, "slots": slots}
        if opts.quiet:
            continue
        d_slots, d_total = priced(default)
        c_slots, c_total = priced(calibrated)
        print(f"{name}  (oprec eval --hf {config} {' '.join(args)})")
        print(f"  {'slot':<8}{'measured':>16}{'default':>16}{'calibrated':>16}")
        for slot in sorted(set(slots) | set(d_slots) | set(c_slots)):
            print(f"  {slot:<8}{slots.get(slot, 0):>16,.0f}{d_slots.get(slot, 0):>16,.0f}{c_slots.get(slot, 0):>16,.0f}")
        print(f"  {'layer':<8}{total:>16,.0f}{d_total:>16,.0f}{c_total:>16,.0f}"
              f"   calibrated {100 * (c_total / total - 1):+.2f}%\n")
    if opts.write:
        with open(opts.write, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
    if opts.check:
        with open(opts.check) as f:
            kept = json.load(f)["cases"]
        moved = [name for name in out["cases"] if kept.get(name) != out["cases"][name]]
        if moved:
            sys.exit(f"measure: {', '.join(moved)}: the measurement differs from {opts.check} "
                     f"(measure.py --write {opts.check} keeps the new one)")


if __name__ == "__main__":
    main()
