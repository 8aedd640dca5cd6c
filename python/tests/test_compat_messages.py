"""The drop-in's refusals carry the reference's words, with oprec's place and code.

Ported (rewritten, not copied) from the reference's own unit test of its op
records loader, ttachon/hyper-parallel tests/ut/auto_parallel/test_op_records.py
at commits f38dd9aa0c48a31dd2b32444b3b0799f6510ff4e and
3f4d6149ddd1736d1bd3dfe3f8c9071a597cddc1 (`test_a_record_is_checked`), with the
further refusals of its loader, hyper_parallel/auto_parallel/_op_records.py at
4e5e152812573485bae077c7cfac7f543ba61d46 ("part of", "named as ops", "no
record", ...). The expression refusals are checked against the reference's own
messages, recorded in tests/golden/expr_cases.json.
"""
from __future__ import annotations

import re
import sys
from dataclasses import fields
from typing import Any, Dict, List, Tuple

import pytest

from conftest import load_golden

yaml = pytest.importorskip("yaml")

from oprec.compat import op_records as m  # noqa: E402

OPS = list(m.OP_VECTOR)


def _records(tmp_path, data: Dict[str, Any]):
    path = tmp_path / "op_records.yaml"
    path.write_text(yaml.safe_dump(data))
    return m.load_op_records(str(path))


def _minimal(**slots: Any) -> Dict[str, Any]:
    return {"ops": {op: {} for op in OPS}, "slots": slots}


def _ops(**records: Any) -> Dict[str, Any]:
    return {**_minimal(), "ops": {**{op: {} for op in OPS}, **records}}


def _slot(formula: str = "total", part: str = "attention", **ops: str) -> Dict[str, Any]:
    return _minimal(qkv={"part": part, "formula": formula, "ops": ops or {"attMM": "h"}})


# (the file, the reference's words its refusal carries, oprec's code for it)
CASES: List[Tuple[str, Dict[str, Any], str, str]] = [
    # The reference's test_a_record_is_checked.
    ("missing op", {"ops": {op: {} for op in OPS[1:]}, "slots": {}}, "missing", "E0104"),
    ("unknown switch", _ops(attMM={"switch": "attMM"}), "switch", "E0105"),
    ("unknown top-level key", {**_minimal(), "extra": 1}, "unknown keys", "E0151"),
    ("attribute", _slot("total * ccfg.h"), "Attribute", "E0001"),
    ("call", _slot("total * open(h)"), "max or min", "E0111"),
    ("string", _slot(attMM="'h'"), "not a number", "E0110"),
    ("no total", _slot("h"), "total", "E0109"),
    ("unknown layer part", _slot(part="brain"), "part", "E0106"),
    # The loader's other refusals.
    ("part named as an op", {**_minimal(), "parts": {"attMM": {"part_of": "attMM", "switch": "attUp"}}},
     "named as ops", "E0101"),
    ("part of no op", {**_minimal(), "parts": {"attUp": {"part_of": "nope", "switch": "attUp"}}},
     "part of", "E0107"),
    ("part without switch", {**_minimal(), "parts": {"attUp": {"part_of": "attMM"}}}, "part of", "E0107"),
    ("entry with no record", _slot(nope="h"), "no record", "E0108"),
    ("unknown key of a record", _ops(attMM={"extra": 1}), "unknown keys", "E0151"),
    ("comm not a bool", _ops(attMM={"comm": "maybe"}), "true or false", "E0152"),
    ("needs naming no op", _ops(attMM={"needs": ["nope"]}), r"needs must list ops", "E0103"),
    ("unknown op", _ops(nope={}), "unknown", "E0103"),
    ("default not a number", {**_minimal(), "defaults": {"x": True}}, "to numbers", "E0115"),
    ("subscript", _slot(attMM="h[0]"), "Subscript", "E0001"),
]


@pytest.mark.parametrize("data, words, code", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_record_is_checked(tmp_path, data: Dict[str, Any], words: str, code: str) -> None:
    with pytest.raises(m.ModelSpecError, match=words) as e:
        _records(tmp_path, data)
    text = str(e.value)
    first = text.splitlines()[0]
    # The words, at oprec's place and with its code, on the first line; then oprec's diagnostics.
    assert re.match(rf".*op_records\.yaml:\d+:\d+: .*{words}.* \[{code}\]$", first), first
    assert re.search(rf"op_records\.yaml:\d+:\d+: error: .*\[{code}\]", text), text
    assert isinstance(e.value, ValueError)


EXPR = load_golden("expr_cases.json")
REFUSED = [c for c in EXPR["refused"] if "accepted_as" not in c]


@pytest.mark.parametrize("case", REFUSED, ids=lambda c: repr(c["source"])[:40])
def test_an_expression_is_refused_in_the_reference_words(case: Dict[str, Any]) -> None:
    """The reference's message, as recorded from it, then oprec's code; oprec's diagnostics after."""
    with pytest.raises(m.ModelSpecError) as e:
        m.Expression.parse(case["source"], "expr")
    first = str(e.value).splitlines()[0]
    if case["reason"] == "not_expression":  # not text at all: oprec has nothing to say beside it
        assert first == case["message"]
    else:
        assert first.startswith(case["message"] + " [E"), (first, case["message"])


def test_a_source_that_is_no_expression_is_refused_as_the_reference_words_it() -> None:
    with pytest.raises(m.ModelSpecError, match=r"^op_records\.defaults\.x must be an expression, got True$"):
        m.Expression.parse(True, "op_records.defaults.x")


def test_the_reference_test_imports_resolve(monkeypatch) -> None:
    """The reference's test imports ModelSpecError and OpCounts from `_model_spec`: where
    hyper_parallel is absent, install() gives the drop-in's, a ValueError as the reference's is."""
    saved = dict(sys.modules)
    try:
        import oprec.compat
        oprec.compat.install()
        from hyper_parallel.auto_parallel._model_spec import ModelSpecError, OpCounts
        from hyper_parallel.auto_parallel._op_records import load_op_records
        assert ModelSpecError is m.ModelSpecError and issubclass(ModelSpecError, ValueError)
        assert [f.name for f in fields(OpCounts)] == OPS
        assert sorted(load_op_records().ops) == sorted(OPS)
    finally:
        for name in set(sys.modules) - set(saved):
            del sys.modules[name]


def test_where_the_reference_is_installed_its_except_clauses_catch_the_drop_ins(monkeypatch, tmp_path) -> None:
    import types

    class ReferenceModelSpecError(ValueError):
        pass

    from oprec.compat import layer_block

    saved = dict(sys.modules)
    ours = m.ModelSpecError
    try:
        for name in ("hyper_parallel", "hyper_parallel.auto_parallel"):
            package = types.ModuleType(name)
            package.__path__ = []
            sys.modules[name] = package
        spec = types.ModuleType("hyper_parallel.auto_parallel._model_spec")
        spec.ModelSpecError = ReferenceModelSpecError
        sys.modules[spec.__name__] = spec
        import oprec.compat
        oprec.compat.install()
        with pytest.raises(ReferenceModelSpecError, match="unknown keys") as e:
            _records(tmp_path, {**_minimal(), "extra": 1})
        assert isinstance(e.value, ours)
    finally:
        m.ModelSpecError = layer_block.ModelSpecError = ours
        for name in set(sys.modules) - set(saved):
            del sys.modules[name]


def test_an_unknown_op_is_refused_in_the_reference_words() -> None:
    import json
    from types import SimpleNamespace

    from conftest import ROOT
    from oprec.compat import layer_block as lb

    fields_ = json.loads((ROOT / "examples" / "llama2-7b.json").read_text())["fields"]
    ccfg = SimpleNamespace(**fields_, rec_op={})
    ctx = SimpleNamespace(current_node=lb.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    with pytest.raises(m.ModelSpecError, match=r"^no op 'nope'; the ops are \[.*'attMM'.*\], the parts \['attUp'\]\n"):
        lb.EvalRecords.op_bytes(ccfg, ctx, "nope")
    with pytest.raises(m.ModelSpecError, match=r"^no op 'nope'; the ops are "):
        m.load_op_records().keeps("nope")
