"""The Pythonic API: records, bound layers, batches, the Hugging Face front end."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "llama2-7b.json"


@pytest.fixture(scope="module")
def records() -> oprec.Records:
    return oprec.Records()


def test_records_vocabulary(records: oprec.Records) -> None:
    assert records.parts == ("attention", "ffn", "norm")
    assert "qkv" in records.slots and "softmax" in records.switches and "attMM" in records.ops
    assert records.defaults == {"n_qknorm": 0}
    assert "t" in records.names and "kv_shards" in records.names
    assert Path(records.source).name == "op_records.rec"


def test_shipped_records_are_found_from_the_module() -> None:
    data = Path(oprec.Records.default_data_dir())
    assert (data / "stdlib").is_dir() and (data / "records" / "op_records.rec").is_file()


def test_the_reference_yaml_prices_as_the_rec(records: oprec.Records) -> None:
    yaml = oprec.Records(ROOT / "tests" / "yaml" / "op_records.yaml")
    assert yaml.slots == records.slots
    doc = LLAMA.read_text()
    assert yaml.layer_json(doc).parts() == records.layer_json(doc).parts()


def test_a_layer_is_a_mapping_of_its_fields(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    assert layer["t"] == 4 and "h" in layer and "nosuch" not in layer
    before = layer.total()
    layer["t"] = 8
    assert layer["t"] == 8 and layer.total() < before
    layer.set(t=4)
    assert layer.total() == before
    layer.set({"t": 2}, cp=1)
    assert layer.fields()["t"] == 2
    with pytest.raises(KeyError):
        layer["nosuch"]
    del layer["dh"]
    assert "dh" not in layer and layer.get("dh", 7) == 7


def test_fields_keep_their_python_type(records: oprec.Records) -> None:
    layer = records.layer({"t": 8, "s_fa": 128.0, "gmm": False, "qk_nope_head_dim": None, "cp_algo": "ulysses_cp"})
    assert [type(layer[k]) for k in ("t", "s_fa", "gmm", "qk_nope_head_dim", "cp_algo")] == \
        [int, float, bool, type(None), str]


def test_pricing_calls(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    parts = layer.parts()
    assert list(parts) == ["attention", "ffn", "norm"]
    assert layer.total() == 0.0 + parts["attention"] + parts["ffn"] + parts["norm"]
    slots = {s.slot: s for s in layer.slots()}
    assert slots["qkv"].held and slots["qkv"].part == "attention" and slots["qkv"].bytes == layer.slot("qkv")
    assert layer.slot("qkv", only="attMM") == layer.op("attMM")["qkv"]
    assert set(layer.ops()) == set(records.ops)
    settings = layer.settings()
    assert len(settings) == 2 ** len(records.switches)
    assert all(set(s["switches"]) == set(records.switches) for s in settings)


def test_switches_and_recompute(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    everything = layer.total()
    layer.set_switch("softmax", False)
    assert layer.total() == everything  # a layer kept plainly keeps everything
    layer.recompute = "selective"
    assert layer.recompute == "selective" and layer.total() < everything
    layer.set_switch("softmax", None)
    assert layer.total() == everything
    with pytest.raises(oprec.LayerError, match="did you mean `softmax`"):
        layer.set_switch("sofmax", True)
    with pytest.raises(ValueError):
        layer.recompute = "sometimes"


def test_layer_from_mappings_as_the_document(records: oprec.Records) -> None:
    doc = json.loads(LLAMA.read_text())
    doc["context"]["node"] = "SEL_REC_LAYER"
    doc["switches"] = {"softmax": 0, "ffAct": 1}
    doc["context"]["switches"] = {"ffAct": 0}
    from_json = records.layer_json(json.dumps(doc))
    from_maps = records.layer(doc["fields"], doc["context"], doc["switches"])
    assert from_maps.recompute == "selective"
    assert from_maps.parts() == from_json.parts()
    assert from_maps.report() == from_json.report()


def test_report_is_the_commands_json(records: oprec.Records) -> None:
    binary = os.environ.get("OPREC_BINARY") or str(ROOT / "build" / "oprec")
    if not Path(binary).exists():
        pytest.skip("no oprec binary")
    out = subprocess.run([binary, "eval", "--format", "json", str(LLAMA)], check=True, capture_output=True, text=True)
    assert records.layer_file(LLAMA).report() == json.loads(out.stdout)
    only = subprocess.run([binary, "eval", "--format", "json", "--only", "attMM", str(LLAMA)], check=True,
                          capture_output=True, text=True)
    assert records.layer_file(LLAMA).report(only="attMM") == json.loads(only.stdout)


def test_copies_are_independent(records: oprec.Records) -> None:
    import copy
    layer = records.layer_file(LLAMA)
    other = copy.copy(layer)
    other["t"] = 8
    assert layer["t"] == 4 and layer.total() != other.total()


def test_grid_prices_every_point_in_product_order(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    axes = {"t": [1, 2, 4, 8], "cp": [1, 2], "b": [1, 3.5]}
    expected = []
    probe = layer.copy()
    for t in axes["t"]:
        for cp in axes["cp"]:
            for b in axes["b"]:
                probe.set(t=t, cp=cp, b=b)
                expected.append(probe.total())
    got = layer.grid(axes)
    assert [float.hex(x) for x in got] == [float.hex(x) for x in expected]
    assert layer["t"] == 4  # the grid priced a copy


def test_grid_and_price_many_errors(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    with pytest.raises(ZeroDivisionError):
        layer.grid({"t": [1, 0, 2]})
    totals = layer.grid({"t": [4, 0, 2]}, on_error="none")
    assert totals[1] is None and totals[0] == layer.total()
    many = [layer.copy() for _ in range(3)]
    many[1]["t"] = 8
    assert oprec.price_many(many) == [m.total() for m in many]
    many[2]["t"] = 0
    assert oprec.price_many(many, on_error="none")[2] is None
    with pytest.raises(oprec.DivisionByZero):
        oprec.price_many(many)


def test_pricing_errors_say_what_and_where(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    layer["t"] = 0
    with pytest.raises(ZeroDivisionError) as e:
        layer.total()
    assert isinstance(e.value, oprec.PricingError) and e.value.kind == "division-by-zero"
    assert e.value.file.endswith("op_records.rec") and e.value.line > 0 and e.value.col > 0
    layer["t"] = 4
    del layer["h"]
    with pytest.raises(AttributeError) as missing:
        layer.total()
    assert isinstance(missing.value, oprec.MissingField) and "h" in str(missing.value)
    with pytest.raises(KeyError) as slot:
        layer.slot("nosuch")
    assert isinstance(slot.value, oprec.UnknownSlot) and str(slot.value) == "no slot `nosuch` in the records"
    with pytest.raises(KeyError):
        layer.op("noSuchOp")
    layer["h"] = None
    with pytest.raises(TypeError):
        layer.total()


def test_records_errors_carry_every_problem_with_its_position() -> None:
    with pytest.raises(oprec.RecordsError) as e:
        oprec.Records.from_text("slot qkv { part attention\n  = total * nosuch }\n", "bad.rec")
    assert isinstance(e.value, ValueError)
    problem = e.value.problems[0]
    assert problem["file"] == "bad.rec" and problem["line"] >= 1 and problem["col"] >= 1
    assert problem["severity"] == "error" and problem["code"].startswith("E")
    assert "bad.rec:" in str(e.value)
    with pytest.raises(oprec.RecordsError):
        oprec.Records("no-such-records")


def test_layer_errors(records: oprec.Records) -> None:
    with pytest.raises(oprec.LayerError, match="l.json:1:"):
        records.layer_json('{"fields": {"t": }', "l.json")
    with pytest.raises(ValueError, match="field `t`"):
        records.layer({"t": [1, 2]})
    with pytest.raises(ValueError, match="64 bits"):
        records.layer({"t": 2 ** 70})


def test_hf_layer_from_a_path_or_a_dict() -> None:
    config = ROOT / "examples" / "hf" / "llama-2-7b.json"
    h = oprec.hf.layer(config, tp=8, seq=4096)
    assert h.strategy.startswith("tp=8 cp=1") and h.model_type == "llama" and h.layers == 32
    assert h.layer.total() == 43778048.0  # README's `oprec eval --hf` figure
    same = oprec.hf.layer(json.loads(config.read_text()), tp=8, seq=4096)
    assert same.layer.parts() == h.layer.parts()
    with pytest.raises(oprec.LayerError):
        oprec.hf.layer(config, cp_algo="sideways")


def test_sweep_rows() -> None:
    config = ROOT / "examples" / "hf" / "llama-2-7b.json"
    rows = oprec.sweep(config, tp=[1, 2, 8], cp=[1, 2], seq=4096)
    assert [(r["tp"], r["cp"]) for r in rows] == [(1, 1), (1, 2), (2, 1), (2, 2), (8, 1), (8, 2)]
    for r in rows:
        assert r["none"] == oprec.hf.layer(config, tp=r["tp"], cp=r["cp"], seq=4096, recompute="none").layer.total()
        assert len(r["settings"]) == 2 ** len(oprec.Records().switches)
        assert min(s["total"] for s in r["settings"]) <= r["none"]
