"""A trial of the Python front door (2026-12-07): a self-referential enum,
a drop-in call re-entered from a config's property, and the whole-rank
fit's sizes, each refused or priced right rather than crashing, wrapping
or allocating without end."""
from __future__ import annotations

import decimal
import json
import re
from types import SimpleNamespace

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "llama2-7b.json"
LLAMA_HF = ROOT / "examples" / "hf" / "llama-2-7b.json"


def test_an_object_whose_value_is_itself_is_refused_not_followed_forever() -> None:
    class Loop:
        name = "x"

        @property
        def value(self) -> "Loop":
            return self

    layer = oprec.Records().layer_file(str(LLAMA))
    before = layer["t"]
    with pytest.raises(oprec.LayerError, match="enum-like again"):
        layer["t"] = Loop()
    assert layer["t"] == before  # left as it was


def test_a_drop_in_call_re_entered_from_a_property_prices_both_right() -> None:
    from oprec.compat import layer_block as lb

    fields = json.loads(LLAMA.read_text())["fields"]
    ctx = SimpleNamespace(current_node=lb.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    other = SimpleNamespace(**{**fields, "t": 2}, rec_op={})
    inner: dict = {}

    class Reentrant(SimpleNamespace):
        @property
        def hff(self) -> int:
            inner.update(lb.EvalRecords.layer_bytes(other, ctx))
            return fields["hff"]

    plain = SimpleNamespace(**fields, rec_op={})
    expected = lb.EvalRecords.layer_bytes(plain, ctx)
    expected_inner = lb.EvalRecords.layer_bytes(other, ctx)
    outer = lb.EvalRecords.layer_bytes(Reentrant(**{k: v for k, v in fields.items() if k != "hff"}, rec_op={}), ctx)
    assert outer == expected
    assert inner == expected_inner


@pytest.mark.parametrize("options, words", [
    (dict(pp=2, vpp=10**8), "32 layers cannot fill pp \\* vpp = 2 \\* 100000000 model chunks"),
    (dict(mbs=2**61), "mbs \\* dp = 2305843009213693952 \\* 8 passes 64 bits"),
    (dict(tp=2**70), "tp=1180591620717411303424: expected a positive integer below 2\\*\\*63"),
    (dict(pp=2**32, cp=2**32), "not a multiple of tp \\* pp \\* cp"),
])
def test_fit_sizes_past_64_bits_or_the_model_are_refused_first(options: dict, words: str) -> None:
    with pytest.raises((oprec.LayerError, ValueError), match=words):
        oprec.fit(str(LLAMA_HF), gpus=8, **options)


def test_a_negative_layer_index_and_a_micro_factor_that_is_not_finite_are_refused() -> None:
    with pytest.raises(oprec.LayerError, match="layer index -1: expected 0 or more"):
        oprec.hf.layer(str(LLAMA_HF), index=-1)
    with pytest.raises(oprec.LayerError, match="micro_factor inf: expected a finite number above 0"):
        oprec.hf.layer(str(LLAMA_HF), micro_factor=float("inf"))


def test_set_of_several_fields_is_all_or_nothing() -> None:
    layer = oprec.Records().layer_file(str(LLAMA))
    before = layer.fields()
    with pytest.raises(oprec.LayerError):
        layer.set({"t": 8, "h": [1]})
    with pytest.raises(KeyError):
        layer.set(t=8, tt=1)
    assert layer.fields() == before
    layer.set(t=8, cp=2)
    assert (layer["t"], layer["cp"]) == (8, 2)


@pytest.mark.parametrize("keep", ["False", "no", 2, 1.5, float("nan")])
def test_a_switch_is_true_false_1_or_0_not_the_truth_of_anything(keep) -> None:
    records = oprec.Records()
    fields = json.loads(LLAMA.read_text())["fields"]
    with pytest.raises(TypeError, match="switch `softmax`: expected True, False"):
        records.layer(fields, switches={"softmax": keep})
    with pytest.raises(TypeError, match="switch `softmax`: expected True, False"):
        oprec.hf.layer(str(LLAMA_HF), switches={"softmax": keep})
    with pytest.raises(TypeError, match="`keep` needs True or False or None"):
        records.layer(fields).set_switch("softmax", keep)
    assert records.layer(fields, switches={"softmax": 0}).total() == records.layer(fields, switches={"softmax": False}).total()


def test_hf_micro_factor_must_be_a_number() -> None:
    for bad in ("x", None):
        with pytest.raises(TypeError, match="micro_factor: expected a number"):
            oprec.hf.layer(str(LLAMA_HF), micro_factor=bad)


def test_a_layers_field_or_context_value_is_a_finite_number() -> None:
    # nan and inf were taken and priced as nan (or a finite nonsense), where `eval --set` refuses them.
    layer = oprec.Records().layer_file(ROOT / "examples" / "llama2-7b.json")
    for value in (float("nan"), float("inf"), -float("inf"), decimal.Decimal("NaN")):
        with pytest.raises(oprec.LayerError, match="is not a finite number"):
            layer["t"] = value
        with pytest.raises(oprec.LayerError, match="is not a finite number"):
            layer.grid({"t": [1, value]})
        with pytest.raises(oprec.LayerError, match="field `micro_factor`: .* is not a finite number"):
            oprec.Records().layer(dict(layer), context={"node": "selective", "micro_factor": value})
    assert layer["t"] == 4  # unchanged by what was refused


def test_hf_layer_takes_no_bool_for_an_int_nor_an_int_for_a_bool() -> None:
    config = ROOT / "examples" / "hf" / "llama-2-7b.json"
    for options, said in (({"tp": True}, "`tp` needs an int, got bool True"),
                          ({"index": False}, "`index` needs an int, got bool False"),
                          ({"sp": 0}, "`sp` needs True or False, got int 0"),
                          ({"tp": 2 ** 63}, "`tp` needs an int, got int 9223372036854775808 (past 64 bits)"),
                          ({"index": 2 ** 63}, "`index` needs an int or None, got int 9223372036854775808 (past 64 bits)")):
        with pytest.raises(TypeError, match=re.escape(said)):
            oprec.hf.layer(config, **options)
    with pytest.raises(TypeError, match="`tp` needs an int, got bool"):
        oprec.sweep(config, tp=[1, True])
    numpy = pytest.importorskip("numpy")
    assert [r["sp"] for r in oprec.sweep(config, sp=numpy.array([True, False]))] == [True, False]


def test_hf_layer_names_its_options_in_pythons_words() -> None:
    # It said "--tp 0", the command's option, where fit() already said "tp".
    with pytest.raises(oprec.LayerError) as e:
        oprec.hf.layer(ROOT / "examples" / "hf" / "llama-2-7b.json", tp=0)
    assert str(e.value) == "tp 0: it must be at least 1"
    rows = oprec.sweep(ROOT / "examples" / "hf" / "llama-2-7b.json", tp=[3])
    assert "--" not in rows[0]["error"] and rows[0]["error"].startswith("tp 3:")
    # A switch the command turns off with --no-sp is the keyword sp=False.
    with pytest.raises(oprec.LayerError) as e:
        oprec.hf.layer(ROOT / "examples" / "hf" / "llama-2-7b.json", tp=8, seq=4100)
    assert str(e.value) == ("sequence parallelism splits the sequence over tp: seq 4100 does not split evenly over "
                            "tp 8 (sp=False keeps it whole)")
    assert oprec.hf.layer(ROOT / "examples" / "hf" / "llama-2-7b.json", tp=8, seq=4100, sp=False).layer.total() > 0


def test_a_grid_or_batch_error_names_the_point_it_arose_at() -> None:
    # Over 100k points the message alone did not say which to look at.
    layer = oprec.Records().layer_file(ROOT / "examples" / "llama2-7b.json")
    with pytest.raises(oprec.DivisionByZero) as e:
        layer.grid({"t": [1, 2, 0, 4], "cp": [1, 2]})
    assert str(e.value).startswith("grid point 4 (t=0, cp=1): ")
    assert e.value.file.endswith("op_records.rec") and e.value.line > 0  # the formula's place is kept
    broken = layer.copy()
    broken["t"] = 0
    with pytest.raises(oprec.DivisionByZero, match=r"^item 2: "):
        oprec.price_many([layer, layer, broken])


def test_sweep_takes_any_iterable_and_refuses_what_it_would_ignore() -> None:
    config = ROOT / "examples" / "hf" / "llama-2-7b.json"
    assert [r["tp"] for r in oprec.sweep(config, tp=(t for t in (1, 2)))] == [1, 2]
    with pytest.raises(TypeError, match="`switches` is not an option of a sweep"):
        oprec.sweep(config, switches={"softmax": False})  # once ignored: every row priced every setting
    with pytest.raises(TypeError, match=r"oprec.sweep\(\): no option `tpp`"):
        oprec.sweep(config, tpp=2)
