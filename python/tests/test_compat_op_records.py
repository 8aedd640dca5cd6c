"""The drop-in op records module (oprec.compat.op_records) as docs/reference-python-api.md states it:
the golden expressions through Expression, every refused source refused, and the
golden layers priced the reference's own way, through OpRecords.evaluate with
the seed's keep factor and EvalRecords.values."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Dict, List

import pytest

from conftest import GOLDEN, ROOT, load_golden
from oprec.compat import layer_block as lb
from oprec.compat import op_records as m
from test_compat_golden import CASES, check, config_and_context

EXPR = load_golden("expr_cases.json")


def decode(encoded: Dict[str, Any]) -> Any:
    t = encoded["type"]
    if t == "float":
        return float.fromhex(encoded["hex"])
    if t == "int":
        return int(encoded["repr"])
    return encoded["repr"] == "True"


def in_scope(case: Dict[str, Any]) -> bool:
    """tests/golden/FORMAT.md's scope: no complex/other results, ints within 64 bits, max/min only as calls."""
    if case["result"].get("type") in ("complex", "other") or "int_beyond_int64" in case["flags"]:
        return False
    src = case["source"]
    return "__builtins__" not in src and src != "max" and "max +" not in src


class Reads(dict):
    """Bindings that record the order names are asked for."""

    def __init__(self, bindings: Dict[str, Any]) -> None:
        super().__init__(bindings)
        self.reads: List[str] = []

    def __getitem__(self, name: str) -> Any:
        value = super().__getitem__(name)  # KeyError: unbound
        self.reads.append(name)
        return value


ACCEPTED = [c for c in EXPR["accepted"] if in_scope(c)]


def test_golden_expressions_evaluate_as_python() -> None:
    problems = []
    for case in ACCEPTED:
        expr = m.Expression.parse(case["source"], "expr")
        assert expr.source == case["parsed_source"]
        assert expr.names == frozenset(case["names"]), case["source"]
        names = Reads({k: decode(v) for k, v in case["bindings"].items()})
        problem = check(case["source"], case["result"], lambda: expr.expr(names))
        if problem:
            problems.append(problem)
        elif "error" not in case["result"] and names.reads != case["reads"]:
            problems.append(f"{case['source']}: read {names.reads}, expected {case['reads']}")
    assert len(ACCEPTED) > 500
    assert not problems, "\n".join(problems[:10])


def test_names_missing_from_the_dict_come_from_its_missing() -> None:
    class Lazy(dict):
        def __missing__(self, name: str) -> Any:
            if name == "absent":
                raise AttributeError(name)
            return 2

    assert m.Expression.parse("a * b").expr(Lazy(a=3)) == 6
    with pytest.raises(AttributeError):
        m.Expression.parse("absent + 1").expr(Lazy())
    assert m.Expression.parse("1 if c else absent").expr(Lazy(c=1)) == 1  # lazy: the branch not taken


@pytest.mark.parametrize("case", EXPR["refused"], ids=lambda c: repr(c["source"])[:40])
def test_refused_sources_are_refused(case: Dict[str, Any]) -> None:
    if "accepted_as" in case:
        assert m.Expression.parse(case["source"]).source == case["accepted_as"]
    else:
        with pytest.raises(m.ModelSpecError):
            m.Expression.parse(case["source"], "expr")


def test_module_shape() -> None:
    records = m.load_op_records()
    assert records is m.load_op_records(m.RECORDS_PATH)  # cached per path
    assert m.OPS == m.OP_VECTOR and tuple(records.ops) == m.OP_VECTOR
    assert isinstance(records.ops, MappingProxyType) and list(records.parts) == ["attUp"]
    assert m.PARTS == ("attention", "ffn", "norm") and len(m.SWITCHES) == 8
    assert records.record("attUp").part_of == "attMM" and records.record("gather").comm
    assert records.record("attBMM").needs == ("attMM",) and records.record("attMM").switch is None
    assert set(records.keeps("attMM")) == {"qkv", "proj"} and set(records.keeps("attUp")) == {"qkv"}
    qkv = records.slots["qkv"]
    assert qkv.part == "attention" and [op for op, _ in qkv.ops] == ["attMM", "attUp", "attBMM"]
    assert "total" not in qkv.reads and "kv_shards" in qkv.reads
    with pytest.raises(m.ModelSpecError):
        records.keeps("noSuchOp")
    with pytest.raises(KeyError):
        records.evaluate("noSuchSlot", lambda n: 1, lambda n: 1)
    assert issubclass(m.ModelSpecError, ValueError)


def test_the_reference_yaml_loads_as_the_shipped_records() -> None:
    yaml = m.load_op_records(GOLDEN.parent / "yaml" / "op_records.yaml")
    shipped = m.load_op_records()
    assert list(yaml.slots) == list(shipped.slots) and dict(yaml.defaults) == dict(shipped.defaults)
    assert {n: s.formula.names for n, s in yaml.slots.items()} == {n: s.formula.names for n, s in shipped.slots.items()}


def test_records_that_do_not_check_are_a_model_spec_error(tmp_path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "tests" / "yaml" / "op_records.yaml").read_text().replace("defaults:", "defaultz:"))
    with pytest.raises(m.ModelSpecError, match="bad.yaml:"):
        m.load_op_records(bad)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden_layers_through_op_records_evaluate(case: Dict[str, Any]) -> None:
    ccfg, ctx = config_and_context(case)
    out = case["outputs"]
    rows = [(f"slot_bytes[{s}]", e, lambda s=s: lb.reference_slot_bytes(ccfg, ctx, s)) for s, e in out["slot_bytes"].items()]
    rows += [(f"slot_bytes_explicit[{s}]", e, lambda s=s: lb.reference_slot_bytes(ccfg, ctx, s, case["explicit_switches"]))
             for s, e in out["slot_bytes_explicit"].items()]
    rows += [(f"only[{s}][{o}]", e, lambda s=s, o=o: lb.reference_slot_bytes(ccfg, ctx, s, only=o))
             for s, by_op in out["slot_bytes_only"].items() for o, e in by_op.items()]
    problems = [p for p in (check(*row) for row in rows) if p]
    assert not problems, "\n".join(problems[:10])


# Each refusal docs/reference-python-api.md lists for load_op_records, made in the reference's YAML.
REFUSALS = {
    "unknown top-level key": lambda d: d.__setitem__("extra", 1),
    "op missing from the op vector": lambda d: d["ops"].pop("linrec"),
    "op not in the op vector": lambda d: d["ops"].__setitem__("fooOp", {"needs": []}),
    "record key other than switch needs comm": lambda d: d["ops"]["attMM"].__setitem__("color", 1),
    "switch not in SWITCHES": lambda d: d["ops"]["attBMM"].__setitem__("switch", "nope"),
    "needs naming a non-op": lambda d: d["ops"]["attBMM"].__setitem__("needs", ["nope"]),
    "comm not a bool": lambda d: d["ops"]["gather"].__setitem__("comm", 1),
    "part named as an op": lambda d: d["ops"].__setitem__("attUp", {"needs": []}),
    "part without part_of": lambda d: d["parts"]["attUp"].pop("part_of"),
    "part without a switch": lambda d: d["parts"]["attUp"].pop("switch"),
    "slot key other than part formula ops when": lambda d: d["slots"]["qkv"].__setitem__("color", 1),
    "part not in PARTS": lambda d: d["slots"]["qkv"].__setitem__("part", "mlp"),
    "formula not reading total": lambda d: d["slots"]["qkv"].__setitem__("formula", "s * b"),
    "entry naming no record": lambda d: d["slots"]["qkv"]["ops"].__setitem__("nope", "1"),
    "default a bool": lambda d: d["defaults"].__setitem__("n_qknorm", True),
    "default not a number": lambda d: d["defaults"].__setitem__("n_qknorm", "x"),
    "call of anything but max or min": lambda d: d["slots"]["qkv"].__setitem__("formula", "abs(total)"),
    "node outside the set": lambda d: d["slots"]["qkv"].__setitem__("formula", "total.real"),
}


@pytest.mark.parametrize("what", list(REFUSALS))
def test_load_refuses_what_the_reference_refuses(what: str, tmp_path) -> None:
    import re

    import yaml
    doc = yaml.safe_load((ROOT / "tests" / "yaml" / "op_records.yaml").read_text())
    REFUSALS[what](doc)
    path = tmp_path / "records.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    with pytest.raises(m.ModelSpecError) as e:
        m.load_op_records(path)
    assert re.search(r"records\.yaml:\d+:\d+: error", str(e.value)), str(e.value)
