"""Drop-in for the reference's evaluators (``layer_block``): ``EvalAttn``,
``EvalFFn``, ``EvalNorm`` and ``EvalRecords`` with the reference's names and
signatures (the estimator finds some by name, ``getattr(EvalAttn,
"attn_qkv_activations")``).

The activation methods price through oprec: one bound layer, kept between
calls, reads the config by attribute (only the names the records read) and
the context's node, micro factor and switches, and sets again only what
changed. What a bound layer cannot hold is priced the reference's way
instead (reference_slot_bytes, through the op records module): a context
lacking micro_factor or dropless_tok_factor (so that reading it raises
AttributeError where, and only where, the reference's does), and a value a
layer does not take (a switch of 2 or 1.0, a string where a number goes),
which the reference computes with as Python does; an int past 64 bits
raises OverflowError. The parameter counts and the CP helpers are plain
Python over the config, the reference's formulas operation for operation,
so that their floats are the same bits.
"""
from __future__ import annotations

import enum
import threading
from typing import Any, Callable, Dict, Mapping, Optional

from .. import _oprec
from ..errors import LayerError, UnknownOp
from .op_records import RECORDS_PATH, ModelSpecError, load_op_records


class LayerType(enum.Enum):
    """The evaluation's node: how the layer is kept for backward (read by name)."""

    NOT_REC_LAYER = 0
    SEL_REC_LAYER = 1
    FULL_REC_LAYER = 2


class CPAlgo(enum.Enum):
    """Context-parallel algorithms, as the reference names them."""

    COLOSSALAI_CP = "colossalai_cp"
    HYBRID_CP = "hybrid_cp"
    ULYSSES_CP = "ulysses_cp"


_CP_NAMES = {"colossalai_cp": CPAlgo.COLOSSALAI_CP, "hybrid_cp": CPAlgo.HYBRID_CP,
             "hybird_cp": CPAlgo.HYBRID_CP, "ulysses_cp": CPAlgo.ULYSSES_CP}


def _resolve_cp_algo(ccfg: Any) -> CPAlgo:
    """The config's CP algorithm: a member (of any enum) by its value, a known string, else Colossal-AI."""
    algo = getattr(ccfg, "cp_algo", None)
    if isinstance(algo, enum.Enum):
        algo = algo.value
    return _CP_NAMES.get(algo, CPAlgo.COLOSSALAI_CP) if isinstance(algo, str) else CPAlgo.COLOSSALAI_CP


_records: Optional[_oprec.Records] = None
_records_lock = threading.Lock()
_local = threading.local()


def _engine() -> _oprec.ObjectPricer:
    """This thread's object pricer over the records at RECORDS_PATH, made on its first use.

    A pricer keeps a bound layer and the values it last read between calls,
    and a config's property may let another thread in mid-bind: one pricer
    per thread (the records, loaded once, are shared).
    """
    try:
        return _local.pricer
    except AttributeError:
        global _records
        with _records_lock:
            if _records is None:
                _records = _oprec.Records(RECORDS_PATH)
            records = _records
        pricer = _local.pricer = _oprec.ObjectPricer(records)
        return pricer


_CONTEXT_NAMES = _oprec.CONTEXT_NAMES


def _complete(ctx: Any) -> bool:
    """Whether the context holds both values the records may read (the fast path assumes them)."""
    for name in _CONTEXT_NAMES:  # a loop, not all(...): this runs on every drop-in call
        if not hasattr(ctx, name):
            return False
    return True


def _node_name(node: Any) -> str:
    return getattr(node, "name", None) or str(node)


def _stated_switches(ccfg: Any, ctx: Any, switches: Optional[Mapping[str, Any]]) -> Any:
    """The switches that apply: the argument, else the context's if a mapping, else the config's rec_op."""
    if switches is not None:
        return switches
    on_ctx = getattr(ctx, "switches", None)
    return on_ctx if isinstance(on_ctx, Mapping) else getattr(ccfg, "rec_op", None)


def _switch_state(stated: Any, switch: str) -> Any:
    """A switch's value (1 keeps), read by key or from an object's attribute dict; unstated keeps."""
    if stated is None:
        return 1
    if isinstance(stated, Mapping):
        return stated.get(switch, 1)
    table = getattr(stated, "__dict__", None)
    return table.get(switch, 1) if table is not None else getattr(stated, switch, 1)


def reference_slot_bytes(ccfg: Any, ctx: Any, slot: str, switches: Optional[Mapping[str, Any]] = None,
                         overrides: Optional[Mapping[str, Any]] = None, only: Optional[str] = None) -> Any:
    """``EvalRecords.slot_bytes`` the reference's way: ``OpRecords.evaluate`` over
    ``EvalRecords.values``, each name read from the config when the formula reads it.

    Slower than the bound layer; taken where the context lacks a value
    (so that reading it raises as the reference does, and only then), and a
    check of the fast path in the tests.
    """
    records = load_op_records(RECORDS_PATH)
    selective = _node_name(ctx.current_node) == "SEL_REC_LAYER"
    stated = _stated_switches(ccfg, ctx, switches)

    def keep(op: str) -> Any:
        switch = records.record(op).switch
        if switch is None:
            return 1
        return int(not selective) | _switch_state(stated, switch)

    return records.evaluate(slot, EvalRecords.values(ccfg, ctx, overrides), keep, only)


def _reference_layer_slots(ccfg: Any, ctx: Any) -> Dict[str, str]:
    value = EvalRecords.values(ccfg, ctx)
    return {name: slot.part for name, slot in load_op_records(RECORDS_PATH).slots.items() if slot.holds(value)}


def _bias(ccfg: Any, stated: str, width: float) -> float:
    """A projection's bias: ``width`` where the model has one, 0 where it has none, ``h`` where it says nothing."""
    has_bias = getattr(ccfg, stated, None)
    if has_bias is None:
        return ccfg.h
    return width if has_bias else 0


def _mlp_biases(ccfg: Any, width: float) -> float:
    """One feed-forward's biases at ``width``: stated, the projections into it and the one back; else one per projection."""
    has_bias = getattr(ccfg, "mlp_bias", None)
    if has_bias is None:
        return ccfg.n_ffMM * width
    return (ccfg.n_ffMM - 1) * width + ccfg.h if has_bias else 0


class EvalAttn:
    """Attention: parameters, CP sharding of the keys and values, and its slots' activations."""

    @staticmethod
    def num_params_mla(ccfg: Any, _: Any) -> float:
        """Multi-head latent attention's parameters: query path, key/value latent, output."""
        d_qk = getattr(ccfg, "qk_nope_head_dim", None) or ccfg.dh
        heads_q = ccfg.a * (d_qk + ccfg.dhr)
        if ccfg.dc_q:
            query = ccfg.h * ccfg.dc_q + ccfg.dc_q + ccfg.dc_q * heads_q
        else:
            query = ccfg.h * heads_q
        key_value = (ccfg.h * (ccfg.dc_kv + ccfg.dhr) + ccfg.dc_kv
                     + ccfg.dc_kv * ccfg.n_kv * (d_qk + ccfg.dh))
        output = ccfg.a * ccfg.dh * ccfg.h
        return 0.25 * ccfg.n_attMM * (query + key_value + output)

    @staticmethod
    def num_params_attn(ccfg: Any, ctx: Any) -> float:
        """Multi-head, grouped- or multi-query attention's parameters (MLA's where dc_kv is set)."""
        if ccfg.dc_kv == 0:
            d_h = ccfg.dh or (ccfg.h / ccfg.a if ccfg.a else 0)
            d_q = ccfg.a * d_h
            q_fact = 2 if ccfg.attn_output_gate else 1
            return 0.25 * ccfg.n_attMM * (
                q_fact * ccfg.h * d_q + _bias(ccfg, "qkv_bias", q_fact * d_q)
            ) + 0.25 * ccfg.n_attMM * (
                ccfg.h * d_q + _bias(ccfg, "o_bias", ccfg.h)
            ) + 0.5 * ccfg.n_attMM * (
                ccfg.h * ccfg.n_kv * d_h + _bias(ccfg, "qkv_bias", ccfg.n_kv * d_h)
            ) + ccfg.attn_extra_p
        return EvalAttn.num_params_mla(ccfg, ctx)

    @staticmethod
    def kv_shards(ccfg: Any) -> float:
        """Over how many CP ranks the keys and values are split: all of CP under Ulysses or linear attention, else 1."""
        if _resolve_cp_algo(ccfg) == CPAlgo.ULYSSES_CP or getattr(ccfg, "n_linrec", 0):
            return ccfg.cp
        return 1

    @staticmethod
    def gathered_kv_bytes(ccfg: Any) -> float:
        """Per token of a rank's share, the bytes of the other ranks' keys and values it gathers and keeps."""
        if ccfg.cp <= 1 or EvalAttn.kv_shards(ccfg) > 1:
            return 0
        return (ccfg.cp - 1) * 2 * ccfg.n_kv * ccfg.dh * ccfg.bytes_compute / max(1, ccfg.t)

    @staticmethod
    def attn_qkv_activations(ccfg: Any, ctx: Any) -> float:
        """The ``qkv`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "qkv")

    @staticmethod
    def attn_score_activations(ccfg: Any, ctx: Any) -> float:
        """The ``score`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "score")

    @staticmethod
    def attn_proj_activations(ccfg: Any, ctx: Any) -> float:
        """The ``proj`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "proj")


class EvalFFn:
    """Feed-forward and MoE: parameters and their slots' activations."""

    @staticmethod
    def num_params_ffn(ccfg: Any, _: Any) -> float:
        """The dense feed-forward's (or every expert's at ``hff``) parameters."""
        return (ccfg.n_exp + ccfg.n_shared_exp) * (
            ccfg.n_ffMM * ccfg.hff * ccfg.h + _mlp_biases(ccfg, ccfg.hff))

    @staticmethod
    def num_params_routed_expert(ccfg: Any, _: Any) -> float:
        """The routed experts' parameters, each expert's width split over ETP."""
        hff_sliced = ccfg.hff_exp / max(ccfg.etp, 1)
        return ccfg.n_exp * (ccfg.n_ffMM * hff_sliced * ccfg.h + _mlp_biases(ccfg, hff_sliced))

    @staticmethod
    def num_params_router(ccfg: Any, _: Any) -> float:
        """The router's weight, one hidden-wide row per routed expert, where the layer routes."""
        return ccfg.h * ccfg.n_exp if ccfg.n_exp > 1 else 0

    @staticmethod
    def num_params_shared_expert(ccfg: Any, _: Any) -> float:
        """The shared experts' parameters at the routed width, and their output gate if the model has one."""
        gate = ccfg.h if ccfg.n_shared_exp and getattr(ccfg, "shared_expert_gate", None) else 0
        width = ccfg.hff_exp
        return ccfg.n_shared_exp * (ccfg.n_ffMM * width * ccfg.h + _mlp_biases(ccfg, width)) + gate

    @staticmethod
    def ffn_activations(ccfg: Any, ctx: Any, width: Optional[float] = None) -> float:
        """The ``ffn`` slot, at ``width`` (an override of ``hff``) where given."""
        return EvalRecords.slot_bytes(ccfg, ctx, "ffn", overrides=None if width is None else {"hff": width})

    @staticmethod
    def ffn_router_and_concat_activations(ccfg: Any, ctx: Any) -> float:
        """The ``router`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "router")

    @staticmethod
    def shared_exp_activations(ccfg: Any, ctx: Any) -> float:
        """The ``shared`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "shared")

    @staticmethod
    def routed_exp_activations(ccfg: Any, ctx: Any) -> float:
        """The ``routed`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "routed")

    @staticmethod
    def ffn_moe_activations(ccfg: Any, ctx: Any) -> float:
        """Routed, shared and router slots, summed in the reference's order."""
        return (
            EvalFFn.routed_exp_activations(ccfg, ctx)
            + EvalFFn.shared_exp_activations(ccfg, ctx)
            + EvalFFn.ffn_router_and_concat_activations(ccfg, ctx)
        )


class EvalNorm:
    """Normalisation: parameters and the ``norm`` slot."""

    @staticmethod
    def head_dim(ccfg: Any) -> float:
        """One attention head's width (what a QK-norm normalises over)."""
        return ccfg.dh or (ccfg.h / ccfg.a if ccfg.a else 0)

    @staticmethod
    def num_params_norm(ccfg: Any, _: Any) -> float:
        """The norms' weights (and biases, for LayerNorm), and a QK-norm's query and key weights."""
        layer_norms = getattr(ccfg, "layer_norms", None)
        if layer_norms is None:
            vectors = ccfg.n_normOp * 2
        else:
            vectors = layer_norms * (2 if getattr(ccfg, "norm_bias", None) else 1)
        return vectors * ccfg.h + getattr(ccfg, "n_qknorm", 0) * 2 * EvalNorm.head_dim(ccfg)

    @staticmethod
    def norm_activations(ccfg: Any, ctx: Any) -> float:
        """The ``norm`` slot."""
        return EvalRecords.slot_bytes(ccfg, ctx, "norm")


class EvalRecords:
    """The op records priced on a layer config, under any switches, or one op alone."""

    @staticmethod
    def slot_bytes(ccfg: Any, ctx: Any, slot: str, switches: Optional[Mapping[str, Any]] = None,
                   overrides: Optional[Mapping[str, Any]] = None, only: Optional[str] = None) -> float:
        """The bytes a layer of ``ccfg`` keeps in ``slot``: one rank's share of a micro-batch.

        ``switches`` (1 keeps an op, 0 recomputes it) stand for the context's
        or the config's; ``overrides`` for config fields; ``only`` prices one
        op (with its parts) or part alone. Unknown slot: ``KeyError``.
        """
        if not _complete(ctx):
            return reference_slot_bytes(ccfg, ctx, slot, switches, overrides, only)
        try:
            return _engine().slot_bytes(ccfg, ctx, slot, switches, overrides, only)
        except UnknownOp as e:
            raise ModelSpecError(str(e)) from e
        except LayerError:  # a value a layer does not hold: the reference's way
            return reference_slot_bytes(ccfg, ctx, slot, switches, overrides, only)

    @staticmethod
    def values(ccfg: Any, ctx: Any, overrides: Optional[Mapping[str, Any]] = None) -> Callable[[str], Any]:
        """The value of each name a record reads: an override, the context's, kv_shards, a default or the field."""
        defaults = load_op_records(RECORDS_PATH).defaults
        overrides = overrides or {}

        def value(name: str) -> Any:
            if name in overrides:
                return overrides[name]
            if name in _CONTEXT_NAMES:
                return getattr(ctx, name)
            if name == "kv_shards":
                return EvalAttn.kv_shards(ccfg)
            if name in defaults:
                return getattr(ccfg, name, defaults[name])
            return getattr(ccfg, name)

        return value

    @staticmethod
    def layer_slots(ccfg: Any, ctx: Any) -> Dict[str, str]:
        """The slots a layer of ``ccfg`` holds, each with its part."""
        if not _complete(ctx):
            return _reference_layer_slots(ccfg, ctx)
        try:
            return _engine().layer_slots(ccfg, ctx)
        except LayerError:
            return _reference_layer_slots(ccfg, ctx)

    @staticmethod
    def op_bytes(ccfg: Any, ctx: Any, op: str) -> Dict[str, float]:
        """What the layer keeps for ``op`` (or a part) where nothing drops it, by held slot."""
        if _complete(ctx):
            engine = _engine()
            try:
                engine.layer_slots(ccfg, ctx)  # the reference reads every slot's `when` first
                return engine.op_bytes(ccfg, ctx, op)
            except UnknownOp as e:
                records = load_op_records(RECORDS_PATH)  # the reference's words first, then oprec's
                raise ModelSpecError(f"no op {op!r}; the ops are {sorted(records.ops)}, "
                                     f"the parts {sorted(records.parts)}\n{e}") from e
            except LayerError:
                pass
        held = _reference_layer_slots(ccfg, ctx)
        return {slot: reference_slot_bytes(ccfg, ctx, slot, only=op)
                for slot in load_op_records(RECORDS_PATH).keeps(op) if slot in held}

    @staticmethod
    def layer_bytes(ccfg: Any, ctx: Any, switches: Optional[Mapping[str, Any]] = None) -> Dict[str, float]:
        """What a layer of ``ccfg`` keeps, by part, under ``switches`` or its own."""
        if _complete(ctx):
            try:
                return _engine().layer_bytes(ccfg, ctx, switches)
            except LayerError:
                pass
        parts: Dict[str, Any] = {}
        for slot, part in _reference_layer_slots(ccfg, ctx).items():
            parts[part] = parts.get(part, 0.0) + reference_slot_bytes(ccfg, ctx, slot, switches)
        return parts
