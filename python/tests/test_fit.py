"""oprec.fit and oprec.fit_megatron give what `oprec fit --format json` prints for the same inputs."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import tempfile
import warnings
from typing import Any, Dict, List

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "hf" / "llama-2-7b.json"
BINARY = os.environ.get("OPREC_BINARY") or str(ROOT / "build" / "oprec")


def cli_fit(args: List[str]) -> Dict[str, Any]:
    r = subprocess.run([BINARY, "fit", *args, "--format", "json"], capture_output=True, text=True, timeout=120)
    assert r.returncode in (0, 1), r.stderr  # 1: priced, does not fit
    out: Dict[str, Any] = json.loads(r.stdout)
    return out


def flag_args(options: Dict[str, Any]) -> List[str]:
    """fit()'s keywords as the command's flags."""
    args: List[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if name == "sp":
            args += [] if value else ["--no-sp"]
        elif name == "flash_attention":
            args += [] if value else ["--no-flash-attention"]
        elif name == "untied":
            args += ["--untie-embeddings" if value else "--tie-embeddings"]
        elif name == "device_memory":
            args += ["--device-memory", str(value)]
        else:
            args += [flag, str(value)]
    return args


STRATEGIES: List[Dict[str, Any]] = [
    {"gpus": 8, "tp": 2, "pp": 2, "gbs": 64},
    {"gpus": 8, "tp": 2, "pp": 4, "gbs": 64, "dtype": "bf16", "records": "reference"},
    {"gpus": 8, "tp": 8, "seq": 4096, "recompute": "full", "dtype": "bf16", "records": "reference"},
    {"gpus": 16, "tp": 2, "pp": 2, "vpp": 2, "gbs": 128, "seq": 4096, "recompute": "selective", "zero": 2},
    {"gpus": 8, "pp": 4, "first_stage_layers": 7, "last_stage_layers": 7, "gbs": 32, "sp": False,
     "flash_attention": False, "seq": 2048, "untied": True, "optimizer": "sgd", "device_memory": "40GiB"},
    {"gpus": 4, "tp": 1, "pp": 4, "gbs": 16, "recompute": "full", "recompute_method": "block",
     "recompute_layers": 4, "schedule": "gpipe", "zero": 0, "vocab": 32768},
]


@pytest.mark.parametrize("options", STRATEGIES, ids=lambda o: " ".join(f"{k}={v}" for k, v in o.items()))
def test_fit_is_the_commands_json(options: Dict[str, Any]) -> None:
    got = oprec.fit(str(LLAMA), **options)
    assert got == cli_fit([str(LLAMA), *flag_args(options)])
    assert len(got["stages"]) == options.get("pp", 1)
    assert got["fits"] == (got["peak_bytes"] <= got["device_bytes"])


def test_fit_takes_a_dict_a_path_and_a_size_in_bytes() -> None:
    by_path = oprec.fit(LLAMA, tp=2, pp=2, gbs=64)
    with open(LLAMA) as f:
        by_dict = oprec.fit(json.load(f), tp=2, pp=2, gbs=64, device_memory=80 * 2 ** 30)
    assert by_dict == by_path
    assert by_path["device_bytes"] == 80 * 2 ** 30
    assert oprec.fit(LLAMA, tp=2, pp=2, gbs=64, device_memory="141GB")["device_bytes"] == 141e9
    small = oprec.fit(LLAMA, tp=2, pp=2, gbs=64, device_memory="1GiB")
    assert not small["fits"] and small["margin_bytes"] < 0


def test_records_load_once_per_name() -> None:
    from oprec import _fit
    assert _fit.fit_records("calibrated") is _fit.fit_records("calibrated")
    assert _fit.fit_records("reference") is not _fit.fit_records("calibrated")
    assert _fit.fit_records("reference").source.endswith("rank_reference.rec")


def test_records_by_path_are_the_file_it_names_now(tmp_path: Any, monkeypatch: Any) -> None:
    # Keyed by the path's text, a second folder's my.rec once priced as the first's.
    records = ROOT / "records"
    for name, source in (("a", "rank_calibrated.rec"), ("b", "rank_reference.rec")):
        (tmp_path / name).mkdir()
        for rec in records.glob("*.rec"):  # what they import beside them; the stdlib is found
            (tmp_path / name / rec.name).write_text(rec.read_text())
        (tmp_path / name / "my.rec").write_text((records / source).read_text())
    peaks = {}
    for name in ("a", "b"):
        monkeypatch.chdir(tmp_path / name)
        peaks[name] = oprec.fit(LLAMA, records="my.rec")["peak_bytes"]
    assert peaks["a"] == oprec.fit(LLAMA, records="calibrated")["peak_bytes"]
    assert peaks["b"] == oprec.fit(LLAMA, records="reference")["peak_bytes"]
    # An edit is read again.
    mine = tmp_path / "b" / "my.rec"
    mine.write_text((records / "rank_calibrated.rec").read_text() + "\n# edited\n")
    assert oprec.fit(LLAMA, records=mine)["peak_bytes"] == peaks["a"]


def test_recompute_details_go_with_full_recompute() -> None:
    for options in ({"recompute_layers": 3}, {"recompute": "selective", "recompute_layers": 2},
                    {"recompute_method": "block"}):
        with pytest.raises(ValueError, match="go with recompute='full'"):
            oprec.fit(LLAMA, **options)
    assert oprec.fit(LLAMA, recompute="full", recompute_method="block", recompute_layers=2)["fits"]


@pytest.mark.parametrize("options, named", [
    ({"tp": 0}, "tp=0"), ({"gpus": "8"}, "gpus='8'"), ({"mbs": True}, "mbs=True"), ({"gbs": 2.5}, "gbs=2.5"),
    ({"recompute": "partial"}, "recompute='partial'"), ({"zero": 4}, "zero=4"), ({"cp_algo": "zigzag"}, "cp_algo"),
    ({"schedule": "1F1B"}, "schedule"), ({"sp": "yes"}, "sp='yes'"), ({"device_memory": "80 parsecs"}, "device_memory"),
    ({"device_memory": -1}, "device_memory"), ({"records": "no_such_records"}, "no_such_records"),
    ({"records": 7}, "records=7"), ({"config": 7}, "config=7"),
])
def test_a_bad_option_is_a_value_error_naming_it(options: Dict[str, Any], named: str) -> None:
    options = {"config": LLAMA, **options}
    with pytest.raises(ValueError) as e:
        oprec.fit(**options)
    assert named in str(e.value)
    assert "incompatible function arguments" not in str(e.value)


def test_a_strategy_the_model_cannot_take_names_the_option_in_pythons_words() -> None:
    with pytest.raises(oprec.LayerError, match=r"gpus 8 is not a multiple of tp \* pp \* cp") as e:
        oprec.fit(LLAMA, tp=3)
    assert "--" not in str(e.value)
    with pytest.raises(ValueError, match="first_stage_layers"):
        oprec.fit(LLAMA, first_stage_layers=3, last_stage_layers=3)
    with pytest.raises(oprec.LayerError, match="no_such.json"):
        oprec.fit(ROOT / "no_such.json")


def megatron_cases() -> List[Dict[str, Any]]:
    with open(ROOT / "tests" / "fit" / "megatron_cases.json") as f:
        cases: List[Dict[str, Any]] = json.load(f)["cases"]
    return cases


def flags_text(model_args: Dict[str, Any]) -> str:
    spec = importlib.util.spec_from_file_location("fidelity", ROOT / "tools" / "fit" / "fidelity.py")
    assert spec and spec.loader
    fidelity = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fidelity)
    text: str = fidelity.flags_text(model_args)
    return text


@pytest.mark.parametrize("records", ["calibrated", "reference"])
def test_fit_megatron_is_the_commands_json(records: str) -> None:
    compared = 0
    for case in megatron_cases()[::9]:
        text = flags_text(case["model_args"])
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write(text)
        try:
            r = subprocess.run([BINARY, "fit", "--megatron-args", f.name, "--gpus", str(case["num_gpus"]),
                                "--records", records, "--device-memory", "40GiB", "--format", "json"],
                               capture_output=True, text=True, timeout=120)
        finally:
            os.unlink(f.name)
        if r.returncode == 2:  # out of the model's scope: the API refuses it too
            with pytest.raises(ValueError):
                oprec.fit_megatron(text, gpus=case["num_gpus"], records=records, device_memory="40GiB")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = oprec.fit_megatron(text, gpus=case["num_gpus"], records=records, device_memory="40GiB")
        assert got == json.loads(r.stdout), case["id"]
        compared += 1
    assert compared >= 3


def test_fit_megatron_warns_of_unknown_flags_and_names_a_bad_one() -> None:
    flags = "--num-layers 4 --hidden-size 256 --num-attention-heads 4 --seq-length 512 " \
            "--max-position-embeddings 512 --micro-batch-size 1 --bf16 --vocab-size 32000"
    with pytest.warns(UserWarning, match="--no-such-flag"):
        got = oprec.fit_megatron(flags + " --no-such-flag", gpus=1)
    assert got["fits"] and len(got["stages"]) == 1
    with pytest.raises(ValueError, match="--num-layers"):
        oprec.fit_megatron(flags.replace("--num-layers 4", "--num-layers four"), gpus=1)
    with pytest.raises(ValueError, match="gpus=0"):
        oprec.fit_megatron(flags, gpus=0)
    # A count the reader files as ignored is still a whole number: 0 once divided by zero in the records.
    for bad in ("0", "-3", "4abc"):
        with pytest.raises(ValueError, match="expected a whole number, at least 1"):
            oprec.fit_megatron(flags + " --microbatch-group-size-per-virtual-pipeline-stage " + bad, gpus=1)
    # No vocabulary: priced as 0 it once left out the embedding and the loss.
    with pytest.raises(ValueError, match="the vocabulary size is unknown; add --vocab-size N"):
        oprec.fit_megatron(flags.replace(" --vocab-size 32000", ""), gpus=1)
    # What the command states that is priced otherwise is said, and kept in the result.
    with pytest.warns(UserWarning, match="fp8 weights and activations are priced in bf16"):
        got = oprec.fit_megatron(flags + " --fp8-format hybrid", gpus=1)
    assert any(n.startswith("fp8 weights") for n in got["notes"])


def test_a_multimodal_config_is_its_text_model_and_warns_of_its_vision_tower() -> None:
    text = json.loads(LLAMA.read_text())
    del text["tie_word_embeddings"]  # LlamaConfig's default (untied) holds, not the wrapper's
    llava = {"model_type": "llava", "text_config": text,
             "vision_config": {"model_type": "clip_vision_model", "hidden_size": 1024, "num_hidden_layers": 24}}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = oprec.fit(llava, tp=2)
    assert [str(w.message) for w in caught] == [
        "`vision_config`: the vision tower is not priced, only the text model"]
    assert caught[0].filename == __file__  # at the caller's line
    assert got["parameters"] == 6738415616
    assert got["stages"] == oprec.fit(LLAMA, tp=2)["stages"]


def test_device_memory_takes_the_exponent_form() -> None:
    assert oprec.fit(LLAMA, tp=8, device_memory="1e11")["device_bytes"] == 1e11
    assert oprec.fit(LLAMA, tp=8, device_memory="1.5E9 b")["device_bytes"] == 1.5e9
    with pytest.raises(ValueError, match="device_memory='1e'"):
        oprec.fit(LLAMA, device_memory="1e")
    # A bare 80 was 80 bytes: no strategy fit, and nothing said why.
    for size in (80, "80", 1000.0):
        with pytest.raises(ValueError, match="a bare number counts bytes"):
            oprec.fit(LLAMA, device_memory=size)
    for slip in ("_80GiB", "8__0GiB"):
        with pytest.raises(ValueError, match="expected bytes"):
            oprec.fit(LLAMA, device_memory=slip)


def test_loaded_records_without_profiles_are_refused_in_pythons_words() -> None:
    with pytest.raises(oprec.LayerError, match=r"loaded without op profiles; load them with "
                                               r"oprec.Records\(path, profiles='profiles.rec'\)"):
        oprec.fit(LLAMA, records=oprec.Records("rank_calibrated"))
    loaded = oprec.Records("rank_calibrated", profiles="profiles.rec")
    assert oprec.fit(LLAMA, records=loaded) == oprec.fit(LLAMA, records="calibrated")


def test_stage_layers_are_a_sweep_rows_uneven_layers() -> None:
    # A sweep --budget row of Gemma-2-9B's 42 layers on pp=4 states stage-layers=10,11,11,10:
    # fit takes it as the command's --stage-layers does.
    config = ROOT / "examples" / "hf" / "gemma-2-9b.json"
    row = oprec.fit(config, gpus=8, pp=4, gbs=32, stage_layers=[10, 11, 11, 10])
    assert " stage-layers=10,11,11,10 " in row["strategy"]
    assert [s["layers"] for s in row["stages"]] == [10, 11, 11, 10]
    cli = json.loads(subprocess.run([BINARY, "fit", str(config), "--gpus", "8", "--pp", "4", "--gbs", "32",
                                     "--stage-layers", "10,11,11,10", "--format", "json"],
                                    check=False, capture_output=True, text=True).stdout)  # exit 1: does not fit
    assert row["stages"] == cli["stages"]
    with pytest.raises(oprec.LayerError, match="the virtual stages place 43 layers; the model has 42"):
        oprec.fit(config, gpus=8, pp=4, gbs=32, stage_layers=[10, 11, 11, 11])
    with pytest.raises(ValueError, match="stage_layers='10,11': expected a list of layer counts"):
        oprec.fit(config, gpus=8, pp=4, stage_layers="10,11")


def test_fit_megatron_takes_the_launchers_gpus_unless_told() -> None:
    text = (ROOT / "examples" / "megatron" / "gpt-tp2-pp2.sh").read_text()
    two_nodes = text.replace("--nproc_per_node 8", "--nnodes 2 --nproc_per_node 8")
    assert oprec.fit_megatron(two_nodes)["strategy"].startswith("gpus=16 ")
    with pytest.warns(UserWarning, match=r"^the launcher runs 16 GPUs; priced on --gpus 8, as asked$"):
        assert oprec.fit_megatron(two_nodes, gpus=8)["strategy"].startswith("gpus=8 ")
    # A path where the text goes is said as such (it was "--num-layers is required").
    with pytest.raises(ValueError, match="names a file: pass its text"):
        oprec.fit_megatron(str(ROOT / "examples" / "megatron" / "gpt-tp2-pp2.sh"))
