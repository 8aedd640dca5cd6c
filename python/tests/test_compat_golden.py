"""The golden layers through the drop-in (oprec.compat.layer_block), called as the
reference's own callers call it: a config object read by attribute, a context
object, switches on either. Every output matches the reference's to the bit,
error for error (tests/golden/FORMAT.md)."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Tuple

import pytest

from conftest import describe, load_golden, matches
from oprec.compat import layer_block as lb
from oprec.compat.op_records import ModelSpecError

CASES = load_golden("records_cases.json")["cases"]

ERRORS = {"AttributeError": AttributeError, "KeyError": KeyError, "ZeroDivisionError": ZeroDivisionError,
          "TypeError": TypeError, "OverflowError": OverflowError, "ModelSpecError": ModelSpecError,
          "UnboundName": NameError}


def typed(value: Any, type_name: str, hexes: Dict[str, str], name: str) -> Any:
    if type_name == "float":
        return float.fromhex(hexes[name])
    if type_name == "none":
        return None
    return {"int": int, "bool": bool, "str": str}[type_name](value)


def switches_holder(spec: Dict[str, Any]) -> Any:
    kind = spec["kind"]
    if kind == "mapping":
        return dict(spec["values"])
    if kind == "object":
        return SimpleNamespace(**spec["values"])
    return None


def config_and_context(case: Dict[str, Any]) -> Tuple[Any, Any]:
    hexes = case.get("config_float_hex", {})
    ccfg = SimpleNamespace(**{k: typed(v, case["config_types"][k], hexes, k) for k, v in case["config"].items()})
    ctx_in = case["context"]
    if ctx_in["rec_op"]["kind"] != "absent":
        ccfg.rec_op = switches_holder(ctx_in["rec_op"])
    ctx = SimpleNamespace(current_node=lb.LayerType[ctx_in["current_node"]])
    for name in ("micro_factor", "dropless_tok_factor"):
        if name in ctx_in:
            setattr(ctx, name, typed(ctx_in[name], case["context_types"][name], case.get("context_float_hex", {}), name))
    if ctx_in["ctx_switches"]["kind"] != "absent":
        ctx.switches = switches_holder(ctx_in["ctx_switches"])
    return ccfg, ctx


def calls(case: Dict[str, Any], ccfg: Any, ctx: Any) -> List[Tuple[str, Dict[str, Any], Callable[[], Any]]]:
    """Every (what, expected, call) the case states."""
    out = case["outputs"]
    explicit = case["explicit_switches"]
    width = typed(case["ffn_width"], case["context_types"]["ffn_width"], case.get("context_float_hex", {}), "ffn_width")
    R = lb.EvalRecords
    rows: List[Tuple[str, Dict[str, Any], Callable[[], Any]]] = [
        ("layer_slots", out["layer_slots"], lambda: R.layer_slots(ccfg, ctx)),
        ("layer_bytes", out["layer_bytes"], lambda: R.layer_bytes(ccfg, ctx)),
        ("layer_bytes_explicit", out["layer_bytes_explicit"], lambda: R.layer_bytes(ccfg, ctx, explicit)),
        ("op_bytes_unknown_op", out["op_bytes_unknown_op"], lambda: R.op_bytes(ccfg, ctx, "noSuchOp")),
        ("slot_bytes_unknown_slot", out["slot_bytes_unknown_slot"], lambda: R.slot_bytes(ccfg, ctx, "noSuchSlot")),
        ("kv_shards", out["kv_shards"], lambda: lb.EvalAttn.kv_shards(ccfg)),
        ("gathered_kv_bytes", out["gathered_kv_bytes"], lambda: lb.EvalAttn.gathered_kv_bytes(ccfg)),
        ("head_dim", out["head_dim"], lambda: lb.EvalNorm.head_dim(ccfg)),
    ]
    for slot, expected in out["slot_bytes"].items():
        rows.append((f"slot_bytes[{slot}]", expected, lambda s=slot: R.slot_bytes(ccfg, ctx, s)))
    for slot, expected in out["slot_bytes_explicit"].items():
        rows.append((f"slot_bytes_explicit[{slot}]", expected, lambda s=slot: R.slot_bytes(ccfg, ctx, s, explicit)))
    for slot, by_op in out["slot_bytes_only"].items():
        for op, expected in by_op.items():
            rows.append((f"slot_bytes_only[{slot}][{op}]", expected,
                         lambda s=slot, o=op: R.slot_bytes(ccfg, ctx, s, only=o)))
    for op, expected in out["op_bytes"].items():
        rows.append((f"op_bytes[{op}]", expected, lambda o=op: R.op_bytes(ccfg, ctx, o)))
    owners = {"num_params_attn": lb.EvalAttn, "num_params_mla": lb.EvalAttn, "num_params_ffn": lb.EvalFFn,
              "num_params_routed_expert": lb.EvalFFn, "num_params_router": lb.EvalFFn,
              "num_params_shared_expert": lb.EvalFFn, "num_params_norm": lb.EvalNorm}
    for name, expected in out["num_params"].items():
        rows.append((name, expected, lambda n=name: getattr(owners[n], n)(ccfg, ctx)))
    wrappers = {"attn_qkv_activations": lb.EvalAttn, "attn_score_activations": lb.EvalAttn,
                "attn_proj_activations": lb.EvalAttn, "ffn_activations": lb.EvalFFn,
                "ffn_router_and_concat_activations": lb.EvalFFn, "shared_exp_activations": lb.EvalFFn,
                "routed_exp_activations": lb.EvalFFn, "ffn_moe_activations": lb.EvalFFn,
                "norm_activations": lb.EvalNorm}
    for name, expected in out["activations"].items():
        if name == "ffn_activations_width":
            rows.append((name, expected, lambda: lb.EvalFFn.ffn_activations(ccfg, ctx, width)))
        else:
            rows.append((name, expected, lambda n=name: getattr(wrappers[n], n)(ccfg, ctx)))
    return rows


def check(what: str, expected: Dict[str, Any], call: Callable[[], Any]) -> str:
    """'' where the call gives what the reference gave, else what differs."""
    try:
        got = call()
    except Exception as e:  # noqa: BLE001 - the reference's errors are the expected values
        if "error" in expected and isinstance(e, ERRORS[expected["error"]]):
            return ""
        return f"{what}: raised {type(e).__name__} ({e}), expected {expected}"
    if "error" in expected:
        return f"{what}: gave {describe(got)}, expected {expected['error']}"
    return "" if matches(expected, got) else f"{what}: gave {describe(got)}, expected {expected}"


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_case_through_the_drop_in(case: Dict[str, Any]) -> None:
    ccfg, ctx = config_and_context(case)
    problems = [p for p in (check(*row) for row in calls(case, ccfg, ctx)) if p]
    assert not problems, "\n".join(problems[:10])


def test_every_case_is_compared() -> None:
    assert len(CASES) >= 150


def test_a_context_lacking_a_value_raises_where_the_reference_does() -> None:
    """Read only when a formula reads it: micro_factor by every slot, dropless_tok_factor by a dropless MoE's."""
    import json
    from conftest import ROOT
    fields = json.loads((ROOT / "examples" / "llama2-7b.json").read_text())["fields"]
    ccfg = SimpleNamespace(**fields)
    full = SimpleNamespace(current_node=lb.LayerType.NOT_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    no_dropless = SimpleNamespace(current_node=lb.LayerType.NOT_REC_LAYER, micro_factor=1)
    assert lb.EvalRecords.layer_bytes(ccfg, no_dropless) == lb.EvalRecords.layer_bytes(ccfg, full)
    assert lb.EvalRecords.op_bytes(ccfg, no_dropless, "attMM") == lb.EvalRecords.op_bytes(ccfg, full, "attMM")
    assert lb.EvalAttn.attn_qkv_activations(ccfg, no_dropless) == lb.EvalAttn.attn_qkv_activations(ccfg, full)
    no_micro = SimpleNamespace(current_node=lb.LayerType.NOT_REC_LAYER, dropless_tok_factor=1)
    with pytest.raises(AttributeError):
        lb.EvalRecords.layer_bytes(ccfg, no_micro)
    with pytest.raises(AttributeError):
        lb.EvalNorm.norm_activations(ccfg, no_micro)
    assert lb.EvalRecords.layer_slots(ccfg, no_micro) == lb.EvalRecords.layer_slots(ccfg, full)


def test_values_a_layer_does_not_hold_price_as_python_does() -> None:
    """A switch of 2 multiplies, 1.0 raises TypeError (`int | float`), as the reference's Python does."""
    import json
    from conftest import ROOT
    fields = json.loads((ROOT / "examples" / "llama2-7b.json").read_text())["fields"]
    sel = SimpleNamespace(current_node=lb.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    R = lb.EvalRecords
    once = R.slot_bytes(SimpleNamespace(**fields, rec_op={"softmax": 1}), sel, "score")
    twice = R.slot_bytes(SimpleNamespace(**fields, rec_op={"softmax": 2}), sel, "score")
    assert twice > once
    assert twice == lb.reference_slot_bytes(SimpleNamespace(**fields, rec_op={"softmax": 2}), sel, "score")
    with pytest.raises(TypeError):
        R.layer_bytes(SimpleNamespace(**fields, rec_op={"softmax": 1.0}), sel)
    big = SimpleNamespace(**{**fields, "b": 2 ** 70})  # past 64 bits: a clear error, as FORMAT.md allows
    with pytest.raises(OverflowError):
        R.slot_bytes(big, sel, "qkv")
    assert R.layer_bytes(SimpleNamespace(**fields), sel) == R.layer_bytes(SimpleNamespace(**fields, rec_op=None), sel)
