"""The golden layers through the Pythonic API: a layer bound from mappings
(records.layer(fields, context, switches)) prices every slot, every op alone
and every part as the reference did, to the bit, error class for error class.

As tests/golden/FORMAT.md allows, cases whose switches sit on a context
object (which Python ignores) are left out: a layer's context switches apply."""
from __future__ import annotations

from typing import Any, Dict

import pytest

import oprec
from conftest import load_golden
from test_compat_golden import check, typed

CASES = [c for c in load_golden("records_cases.json")["cases"]
         if c["context"]["switches_in"] != "ctx_object_ignored"]
RECORDS = oprec.Records()


def bind(case: Dict[str, Any]) -> oprec.Layer:
    hexes = case.get("config_float_hex", {})
    fields = {k: typed(v, case["config_types"][k], hexes, k) for k, v in case["config"].items()}
    ctx_in = case["context"]
    context: Dict[str, Any] = {"node": ctx_in["current_node"]}
    for name in ("micro_factor", "dropless_tok_factor"):
        if name in ctx_in:
            context[name] = typed(ctx_in[name], case["context_types"][name], case.get("context_float_hex", {}), name)
    if ctx_in["ctx_switches"]["kind"] == "mapping":
        context["switches"] = {k: bool(v) for k, v in ctx_in["ctx_switches"]["values"].items()}
    rec_op = ctx_in["rec_op"]
    switches = {k: bool(v) for k, v in rec_op["values"].items()} if rec_op["kind"] in ("mapping", "object") else None
    return RECORDS.layer(fields, context, switches)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_case_through_a_bound_layer(case: Dict[str, Any]) -> None:
    layer = bind(case)
    out = case["outputs"]
    rows = [("layer_bytes", out["layer_bytes"], layer.parts)]
    rows += [(f"slot_bytes[{s}]", e, lambda s=s: layer.slot(s)) for s, e in out["slot_bytes"].items()]
    rows += [(f"slot_bytes_only[{s}][{o}]", e, lambda s=s, o=o: layer.slot(s, only=o))
             for s, by_op in out["slot_bytes_only"].items() for o, e in by_op.items()]
    problems = [p for p in (check(*row) for row in rows) if p]
    assert not problems, "\n".join(problems[:10])
    if "error" not in out["layer_bytes"]:
        assert layer.total() == sum(layer.parts().values(), 0.0)
