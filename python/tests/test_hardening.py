"""Issue 25's findings in the Python package: errors in the caller's words,
no temporary file left or named, unknown fields refused, the Hugging Face
front end agreeing with the CLI, Ctrl-C during a long grid."""
from __future__ import annotations

import glob
import json
import os
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "llama2-7b.json"
HF = ROOT / "examples" / "hf"
FOREIGN_WORDS = ("incompatible function arguments", "incompatible constructor arguments", "Unable to cast",
                 "RecordsOptions", "std::", "pybind11", "oprec._oprec", "Invoked with")


def binary() -> str:
    path = os.environ.get("OPREC_BINARY") or str(ROOT / "build" / "oprec")
    if not Path(path).exists():
        pytest.skip("no oprec binary")
    return path


@pytest.fixture(scope="module")
def records() -> oprec.Records:
    return oprec.Records()


def our_words(e: BaseException) -> str:
    text = str(e)
    for foreign in FOREIGN_WORDS:
        assert foreign not in text, text
    assert "/tmp" not in text and tempfile.gettempdir() not in text, text
    return text


# ---- arguments of the wrong type name the argument and what it needs ----------

@pytest.mark.parametrize("call, says", [
    (lambda r, l: l.slot(5), "oprec.Layer.slot(): `slot` needs a str, got int 5"),
    (lambda r, l: l.slot("qkv", only=3), "oprec.Layer.slot(): `only` needs a str or None, got int 3"),
    (lambda r, l: l.op(None), "oprec.Layer.op(): `op` needs a str, got NoneType None"),
    (lambda r, l: l.get(1), "oprec.Layer.get(): `name` needs a str, got int 1"),
    (lambda r, l: l.slot("qkv", nope=1), "oprec.Layer.slot(): no argument `nope` (it takes slot, only)"),
    (lambda r, l: l.total(1), "oprec.Layer.total(): takes at most 0 positional arguments, got 1"),
    (lambda r, l: l.set_switch("softmax", "yes"), "oprec.Layer.set_switch(): `keep` needs True or False or None"),
    (lambda r, l: l.__setitem__(3, 1), "oprec.Layer.__setitem__(): `name` needs a str, got int 3"),
    (lambda r, l: setattr(l, "recompute", 3), "oprec.Layer.recompute: the value needs a str, got int 3"),
    (lambda r, l: r.layer_file(5), "oprec.Records.layer_file(): `path` needs a path (a str or an os.PathLike), got int 5"),
    (lambda r, l: oprec.Records(profiles=5), "oprec.Records(): `profiles` needs a path (a str or an os.PathLike) or None, got int 5"),
    (lambda r, l: oprec.Records.from_text(5), "oprec.Records.from_text(): `text` needs a str, got int 5"),
    (lambda r, l: oprec.price_many([l], on_error=0), "oprec.price_many(): `on_error` needs a str, got int 0"),
    (lambda r, l: l.grid({"t": [1]}, on_error=None), "oprec.Layer.grid(): `on_error` needs a str, got NoneType"),
    (lambda r, l: oprec.hf.layer(HF / "llama-2-7b.json", tp="8"), "oprec.hf.layer(): `tp` needs an int, got str '8'"),
    (lambda r, l: oprec.hf.layer(HF / "llama-2-7b.json", sp="yes"), "oprec.hf.layer(): `sp` needs True or False, got str"),
    (lambda r, l: oprec.hf.layer(HF / "llama-2-7b.json", records=5), "oprec.hf.layer(): `records` needs an oprec.Records, got int 5"),
    (lambda r, l: oprec.hf.layer(5), "oprec.hf.layer(): `config` needs a config.json path or its content as a dict, got int"),
])
def test_wrong_arguments_are_named_in_our_words(records: oprec.Records, call: Any, says: str) -> None:
    layer = records.layer_file(LLAMA)
    with pytest.raises(TypeError) as e:
        call(records, layer)
    assert says in our_words(e.value)


@pytest.mark.parametrize("call, says", [
    (lambda r, l: l.set({1: 2}), "expected a field's name (a str), got int 1"),
    (lambda r, l: r.layer({1: 2}), "expected a field's name (a str), got int 1"),
    (lambda r, l: r.layer({}, switches={2: True}), "expected a switch's name (a str), got int 2"),
    (lambda r, l: r.layer({}, context={3: 1}), "expected a context key (a str), got int 3"),
    (lambda r, l: l.grid({4: [1]}), "expected a field's name (a str), got int 4"),
    (lambda r, l: l.grid({"t": 8}), "grid: the values of `t` need a list (or another iterable), got int"),
    (lambda r, l: oprec.hf.layer(HF / "llama-2-7b.json", switches={5: True}), "expected a switch's name (a str), got int 5"),
])
def test_keys_of_the_wrong_type_are_named_not_cast(records: oprec.Records, call: Any, says: str) -> None:
    layer = records.layer_file(LLAMA)
    with pytest.raises(TypeError) as e:
        call(records, layer)
    assert says in our_words(e.value)


def test_hf_without_profiles_names_the_python_way(records: oprec.Records) -> None:
    with pytest.raises(oprec.LayerError) as e:
        oprec.hf.layer(HF / "llama-2-7b.json", records=records)
    assert 'oprec.Records(profiles="profiles.rec")' in our_words(e.value)


# ---- a config given as a dict: no temporary file left, none named ---------------

def leftovers() -> List[str]:
    return sorted(glob.glob(os.path.join(tempfile.gettempdir(), "oprec-config-*")) +
                  glob.glob(os.path.join(tempfile.gettempdir(), "tmp*.json")))


def test_a_config_mapping_leaves_no_file_and_is_not_named_by_a_path() -> None:
    before = leftovers()
    config = json.loads((HF / "llama-2-7b.json").read_text())
    assert oprec.hf.layer(config, tp=8, seq=4096).layer.total() == 43778048.0
    broken = dict(config, num_attention_heads="many")
    with pytest.raises(oprec.LayerError) as e:
        oprec.hf.layer(broken)
    our_words(e.value)
    with pytest.raises(oprec.LayerError) as e:  # not JSON: before any file is written
        oprec.hf.layer(dict(config, extra=object()))
    assert "the mapping is not a JSON document" in our_words(e.value)
    rows = oprec.sweep(broken, tp=[1, 2])
    assert all("error" in r and "/tmp" not in r["error"] for r in rows)
    assert leftovers() == before


# ---- a field the records do not have is refused ---------------------------------

def test_setting_an_unknown_field_raises_key_error_naming_it(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    total = layer.total()
    with pytest.raises(KeyError) as e:
        layer["tt"] = 8
    assert "`tt`" in str(e.value) and "did you mean `t`" in str(e.value)
    with pytest.raises(KeyError, match="`hh`"):
        layer.set(hh=1)
    with pytest.raises(KeyError, match="`tt`"):
        layer.grid({"tt": [1, 2]})
    with pytest.raises(KeyError, match="computed"):
        layer["kv_shards"] = 2
    assert "tt" not in layer and layer.total() == total
    # Fields of the schema, context values and stated fields are all taken.
    layer["micro_factor"] = 2
    layer["t"] = 8
    layer["n_qknorm"] = 0
    assert layer["t"] == 8


def test_set_with_a_name_and_a_value_says_it_takes_one_positional(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    with pytest.raises(TypeError, match=r"^oprec\.Layer\.set\(\): takes at most 1 positional argument, got 2$"):
        layer.set("t", 8)  # as if set(name, value): it takes a mapping or keywords


def test_a_mapping_with_an_unknown_field_is_refused(records: oprec.Records) -> None:
    fields = records.layer_file(LLAMA).fields()
    with pytest.raises(oprec.LayerError, match=r"fields: no field `epp` .*did you mean `ep`"):
        records.layer({**fields, "epp": 8})
    # Context values may stand among the fields, as Layer.set takes them.
    assert records.layer({**fields, "micro_factor": 2}).total() == 2 * records.layer(fields).total()
    # Records with no schema cannot tell a misspelt name: a field no formula reads is taken.
    text = Path(records.source).read_text().replace('import "fields.rec"\n', "")
    bare = oprec.Records.from_text(text, records.source)
    assert bare.layer(fields).total() == records.layer(fields).total()


def test_a_document_with_a_field_nothing_reads_warns_at_the_callers_line(records: oprec.Records) -> None:
    doc = json.loads(LLAMA.read_text())
    doc["fields"]["n_kv_heads"] = 8
    text = json.dumps(doc)
    with pytest.warns(UserWarning, match=r"^mine\.json: no field `n_kv_heads` in the records' schema: "
                                         r"the layer is priced without it$") as caught:
        layer = records.layer_json(text, "mine.json")
    assert caught[0].filename == __file__  # the caller's line, not the package's
    assert layer.total() == records.layer_file(LLAMA).total()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "typo.json"
        path.write_text(text)
        with pytest.warns(UserWarning, match="n_kv_heads"):
            records.layer_file(path)
    doc = json.loads(LLAMA.read_text())
    doc["switches"]["sofmax"] = 0
    with pytest.warns(UserWarning, match=r"^sw\.json: no switch `sofmax` in the records \(did you mean `softmax`\?\): "
                                         r"it changes nothing$"):
        records.layer_json(json.dumps(doc), "sw.json")
    # A document whose every field the records know warns of nothing.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for example in sorted((ROOT / "examples").glob("*.json")):
            if "fields" in json.loads(example.read_text()):
                records.layer_file(example)


def test_a_cp_algo_that_names_no_algorithm_is_priced_as_ring_and_said(records: oprec.Records) -> None:
    doc = json.loads(LLAMA.read_text())
    doc["fields"].update(cp=4, cp_algo="ulysess_cp")
    said = r"cp_algo 'ulysess_cp' names no algorithm \(colossalai_cp, hybrid_cp or ulysses_cp\): priced as " \
           r"colossalai_cp, ring CP, as the reference does \(did you mean `ulysses_cp`\?\)$"
    with pytest.warns(UserWarning, match=r"^cp\.json: " + said) as caught:
        misspelt = records.layer_json(json.dumps(doc), "cp.json")
    assert caught[0].filename == __file__
    with pytest.warns(UserWarning, match=r"^fields: " + said):
        records.layer(doc["fields"], context=doc["context"])
    ring = records.layer({**doc["fields"], "cp_algo": "colossalai_cp"}, context=doc["context"])
    assert misspelt.total() == ring.total()
    # Set by hand: said at the setting, only for that field.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ring["cp_algo"] = "ulysses_cp"
        assert ring.total() < misspelt.total()  # Ulysses splits K/V over cp: fewer bytes
        ring["t"] = 2
    with pytest.warns(UserWarning, match=r"^cp_algo 7 names no algorithm") as caught:
        ring["cp_algo"] = 7
    assert caught[0].filename == __file__


# ---- the Hugging Face front end agrees with the CLI -----------------------------

def cli_json(*args: str) -> Dict[str, Any]:
    out = subprocess.run([binary(), *args, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("config", ["llama-2-7b.json", "mixtral-8x7b.json", "deepseek-v3.json"])
@pytest.mark.parametrize("recompute", ["none", "selective", "full"])
def test_hf_layer_total_is_the_clis(config: str, recompute: str) -> None:
    path = HF / config
    cli = cli_json("eval", "--hf", str(path), "--tp", "1", "--recompute", recompute)
    h = oprec.hf.layer(path, tp=1, recompute=recompute)
    assert h.layer.recompute == recompute
    if recompute == "full":
        # A fully recomputed layer keeps its input: the CLI's figure.
        assert h.layer.total() == cli["full_recompute_input"] == h.full_recompute_input
        assert h.layer.total() < sum(h.layer.parts().values())
    else:
        assert "full_recompute_input" not in cli
        assert h.layer.total() == sum(cli["report"]["parts"].values())
        assert h.layer.parts() == cli["report"]["parts"]


def test_full_recompute_follows_the_fields() -> None:
    h = oprec.hf.layer(HF / "llama-2-7b.json", tp=1, seq=4096, recompute="full")
    before = h.layer.total()
    h.layer["s"] = 8192
    assert h.layer.total() == 2 * before
    h.layer.recompute = "none"
    assert h.layer.total() == sum(h.layer.parts().values())


def test_a_fully_recomputed_layer_from_its_document_prices_its_input() -> None:
    # Rebuilt from its document (or from the example's, switched to full), it once priced
    # every slot kept: 675,282,944 bytes for Llama-2-7B's 33,554,432.
    h = oprec.hf.layer(HF / "llama-2-7b.json", tp=1, seq=4096, recompute="full")
    again = oprec.hf.records().layer_json(json.dumps(h.layer.document()))
    assert again.total() == h.layer.total() == 33_554_432
    example = oprec.Records().layer_file(ROOT / "examples" / "llama2-7b.json")
    plain = example.total()
    example.recompute = "full"
    assert example.total() < plain
    f = dict(example)
    assert example.total() == f["bytes_compute"] * f["s"] * f["b"] * f["h"]


def test_sweep_agrees_with_the_clis_json_in_every_column() -> None:
    path = HF / "mixtral-8x7b.json"
    rows = oprec.sweep(path, tp=[1, 2], cp=[1, 2], seq=4096)
    cli = cli_json("sweep", str(path), "--tp", "1,2", "--cp", "1,2", "--seq", "4096")
    # The CLI's settings: plain, full, then each selective setting.
    kinds = [s["setting"] for s in cli["settings"]]
    assert kinds[:2] == ["plain", "full"]
    recomputed = [frozenset(s["recomputed"]) for s in cli["settings"]]
    switches = oprec.hf.records().switches
    strategies = cli["strategies"]
    assert len(rows) == len(strategies) == 4
    for row, s in zip(rows, strategies):
        assert (row["tp"], row["cp"]) == (s["strategy"]["tp"], s["strategy"]["cp"])
        kind = oprec.hf.layer(path, tp=row["tp"], cp=row["cp"], seq=4096).kind
        by_setting = s["bytes"][kind]
        assert row["full"] is not None
        assert row["none"] == by_setting[0]
        assert row["full"] == by_setting[1]
        # Each selective setting by what it recomputes.
        assert len(row["settings"]) == len(by_setting) - 2
        for setting in row["settings"]:
            dropped = frozenset(name for name in switches if not setting["switches"][name])
            assert setting["total"] == by_setting[recomputed.index(dropped, 2)], sorted(dropped)


# ---- Ctrl-C during a long grid ------------------------------------------------------

def test_ctrl_c_interrupts_a_long_grid_promptly(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    # Tens of millions of points: minutes of pricing, were it not interrupted.
    axes = {"t": list(range(1, 65)), "b": list(range(1, 513)), "s": list(range(1024, 1024 + 1024))}
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        layer.grid(axes)
    elapsed = time.monotonic() - start
    timer.cancel()
    # Not a speed target: a bound far above a chunk's few milliseconds, far
    # below the grid's minutes.
    assert elapsed < 20, elapsed


def test_an_object_whose_init_raised_has_a_repr_not_a_crash() -> None:
    # pytest shows repr(self) of a failed Records(...) call; the object was
    # never made, and its repr once read raw memory (MemoryError, or a crash).
    with pytest.raises(oprec.RecordsError) as caught:
        oprec.Records("/no/such/records.rec")
    tb = caught.value.__traceback__
    seen = []
    while tb is not None:
        seen += [repr(v) for v in tb.tb_frame.f_locals.values() if isinstance(v, tuple)]
        tb = tb.tb_next
    assert any("<oprec.Records, not made: its __init__ raised>" in s for s in seen)
    assert repr(oprec.Records.__new__(oprec.Records)) == "<oprec.Records, not made: its __init__ raised>"
    assert repr(oprec.Layer.__new__(oprec.Layer)) == "<oprec.Layer, not made>"
    assert repr(oprec.Records()).startswith("<oprec.Records /")
