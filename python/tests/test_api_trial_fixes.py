"""A trial of the Python API (2026-12-07, second): values changed in place,
a switches mapping that raises, the caller's own TypeError, fit's argument
checks and config dicts, and report's `only`."""
from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "llama2-7b.json"
LLAMA_HF = ROOT / "examples" / "hf" / "llama-2-7b.json"
FIELDS = json.loads(LLAMA.read_text())["fields"]


def _ctx() -> Any:
    from oprec.compat import layer_block as lb
    return SimpleNamespace(current_node=lb.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)


def test_a_value_changed_in_place_is_read_again() -> None:
    np = pytest.importorskip("numpy")
    from oprec.compat import layer_block as lb

    t = np.array(4)
    ccfg = SimpleNamespace(**{**FIELDS, "t": t}, rec_op={})
    at_4 = lb.EvalRecords.slot_bytes(ccfg, _ctx(), "qkv")
    t[()] = 8  # the same object, another number: once priced as t=4 still
    at_8 = lb.EvalRecords.slot_bytes(ccfg, _ctx(), "qkv")
    fresh = lb.EvalRecords.slot_bytes(SimpleNamespace(**{**FIELDS, "t": 8}, rec_op={}), _ctx(), "qkv")
    assert at_8 == fresh != at_4


def test_a_switches_mapping_that_raises_raises_its_own_error() -> None:
    from oprec.compat import layer_block as lb

    class Lazy(dict):
        def __getitem__(self, key: str) -> Any:
            raise RuntimeError(f"cannot compute switch {key}")

    ccfg = SimpleNamespace(**FIELDS, rec_op=Lazy(softmax=0, attUp=0))
    with pytest.raises(RuntimeError, match="cannot compute switch"):  # once SystemError
        lb.EvalRecords.layer_bytes(ccfg, _ctx())


def test_the_callers_own_type_error_keeps_its_words() -> None:
    def lookup(name: str) -> Any:
        raise TypeError("incompatible function arguments (the caller's own)")

    with pytest.raises(TypeError, match="the caller's own"):
        oprec._oprec.Expression("a + 1", "x").evaluate(lookup)


def test_fit_checks_zero_and_takes_numpy_ints() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match=r"zero=1.0: expected 0, 1, 2 or 3"):  # once pybind11's C++ signature
        oprec.fit(str(LLAMA_HF), zero=1.0)
    assert oprec.fit(str(LLAMA_HF), tp=np.int64(2))["peak_bytes"] == oprec.fit(str(LLAMA_HF), tp=2)["peak_bytes"]


def test_fit_of_a_config_dict_that_is_no_json_says_so_as_hf_layer_does() -> None:
    config = json.loads(LLAMA_HF.read_text())
    with pytest.raises(oprec.LayerError, match="config: the mapping is not a JSON document"):
        oprec.fit({**config, "rope_theta": float("nan")})


def test_report_refuses_an_op_the_records_lack() -> None:
    layer = oprec.Records().layer_file(str(LLAMA))
    with pytest.raises(oprec.errors.UnknownOp):  # once a report with an error in every slot
        layer.report(only="bogus")
    assert "only" in layer.report(only="softmax")
