"""The drop-ins in the reference's place: its callers' imports and look-ups by name work unchanged."""
from __future__ import annotations

import importlib
import sys
from types import SimpleNamespace

import pytest

from conftest import ROOT


@pytest.fixture
def installed():
    saved = dict(sys.modules)
    import oprec.compat
    oprec.compat.install()
    yield
    for name in set(sys.modules) - set(saved):
        del sys.modules[name]


def test_reference_imports_resolve_to_the_drop_ins(installed) -> None:
    from hyper_parallel.auto_parallel._op_records import ModelSpecError, load_op_records
    from hyper_parallel.auto_parallel.sapp_nd.memory_estimation.evaluators import layer_block
    import oprec.compat.layer_block
    assert layer_block is oprec.compat.layer_block
    assert issubclass(ModelSpecError, ValueError) and load_op_records().parts["attUp"].part_of == "attMM"


def test_a_caller_finding_evaluators_by_name(installed) -> None:
    import json
    module = importlib.import_module("hyper_parallel.auto_parallel.sapp_nd.memory_estimation.evaluators.layer_block")
    fields = json.loads((ROOT / "examples" / "llama2-7b.json").read_text())["fields"]
    ccfg = SimpleNamespace(**fields, rec_op={"softmax": 0})
    ctx = SimpleNamespace(current_node=module.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    by_name = {name: getattr(module.EvalAttn, name)(ccfg, ctx)
               for name in ("attn_qkv_activations", "attn_score_activations", "attn_proj_activations")}
    assert sum(by_name.values(), 0.0) == module.EvalRecords.layer_bytes(ccfg, ctx)["attention"]
    assert by_name["attn_score_activations"] < module.EvalRecords.slot_bytes(ccfg, ctx, "score", {"softmax": 1})
