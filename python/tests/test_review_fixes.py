"""Fixes from the review of the Python package: each test failed before its fix."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "llama2-7b.json"


@pytest.fixture(scope="module")
def records() -> oprec.Records:
    return oprec.Records()


# 1. price_many: None or a non-layer is a TypeError naming its index (it
# segfaulted), and the caller's layers are priced as copies.
def test_price_many_refuses_none_and_non_layers_by_index() -> None:
    code = textwrap.dedent("""
        import oprec
        layer = oprec.Records().layer_file(%r)
        for bad in ([layer, None], [layer, layer, 3]):
            try:
                oprec.price_many(bad)
            except TypeError as e:
                print("TypeError", e)
    """ % str(LLAMA))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("TypeError") and "1" in lines[0] and "None" in lines[0]
    assert lines[1].startswith("TypeError") and "2" in lines[1] and "int" in lines[1]


def test_price_many_prices_copies(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    before = layer.total()
    assert oprec.price_many((layer, layer)) == [before, before]
    assert oprec.price_many(iter([layer])) == [before]
    assert layer.total() == before


# 2. A context whose switches are None states none: the layer's own apply.
def test_context_switches_of_none_leave_the_switches_argument(records: oprec.Records) -> None:
    fields = oprec.Records().layer_file(LLAMA).fields()
    ctx = {"node": "selective", "micro_factor": 1, "dropless_tok_factor": 1}
    off = {s: False for s in records.switches}
    with_none = records.layer(fields, context={**ctx, "switches": None}, switches=off)
    plain = records.layer(fields, context=ctx, switches=off)
    kept = records.layer(fields, context=ctx)
    assert with_none.total() == plain.total()
    assert plain.total() != kept.total()


# 3. The drop-in prices on one pricer per thread: a config whose reads
# release the GIL mid-bind gives each thread its own numbers.
def test_drop_in_is_right_under_threads() -> None:
    import json
    import threading
    import time
    from types import SimpleNamespace

    from oprec.compat import layer_block as lb

    class Config(SimpleNamespace):
        def __getattribute__(self, name: str):  # every read lets another thread in
            if not name.startswith("_"):
                time.sleep(0)
            return super().__getattribute__(name)

    document = json.loads(LLAMA.read_text())
    ctx = SimpleNamespace(current_node=lb.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    configs = {t: Config(**{**document["fields"], "t": t}, rec_op=None) for t in (2, 4, 8)}
    expected = {t: lb.EvalRecords.layer_bytes(c, ctx) for t, c in configs.items()}
    assert len({repr(v) for v in expected.values()}) == 3
    wrong = []
    start = threading.Barrier(len(configs))

    def work(t: int) -> None:
        start.wait()
        for _ in range(60):
            got = lb.EvalRecords.layer_bytes(configs[t], ctx)
            if got != expected[t]:
                wrong.append((t, got))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(t,)) for t in configs]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert wrong == []


def _llama_ccfg():
    import json
    from types import SimpleNamespace

    from oprec.compat import layer_block as lb

    document = json.loads(LLAMA.read_text())
    ctx = SimpleNamespace(current_node=lb.LayerType.SEL_REC_LAYER, micro_factor=1, dropless_tok_factor=1)
    return SimpleNamespace(**document["fields"], rec_op=None), ctx


# 4. ObjectPricer.bind hands out a copy; an override the pricer does not
# bind sends the drop-in the reference's way, which honours it.
def test_object_pricer_bind_returns_a_copy(records: oprec.Records) -> None:
    ccfg, ctx = _llama_ccfg()
    pricer = oprec.ObjectPricer(records)
    before = pricer.layer_bytes(ccfg, ctx)
    bound = pricer.bind(ccfg, ctx)
    bound["t"] = bound["t"] * 2
    assert bound.parts() != before
    assert pricer.layer_bytes(ccfg, ctx) == before


def test_overrides_of_unbound_names_are_honoured(records: oprec.Records) -> None:
    from oprec.compat import layer_block as lb

    ccfg, ctx = _llama_ccfg()
    plain = lb.EvalRecords.slot_bytes(ccfg, ctx, "qkv")
    shards = lb.EvalRecords.slot_bytes(ccfg, ctx, "qkv", overrides={"kv_shards": 8})
    assert shards != plain
    assert shards == lb.reference_slot_bytes(ccfg, ctx, "qkv", overrides={"kv_shards": 8})
    with pytest.raises(oprec.LayerError):
        oprec.ObjectPricer(records).slot_bytes(ccfg, ctx, "qkv", overrides={"kv_shards": 8})


# 5. A layer is a mapping of its stated fields, in order.
def test_layer_is_a_full_mapping(records: oprec.Records) -> None:
    layer = records.layer_file(LLAMA)
    fields = layer.fields()
    assert len(layer) == len(fields)
    assert list(layer) == list(fields) == layer.keys()
    assert layer.values() == list(fields.values())
    assert layer.items() == list(fields.items())
    assert dict(layer) == fields
    assert 5 not in layer and None not in layer and "t" in layer
    del layer["t"]
    assert len(layer) == len(fields) - 1 and "t" not in list(layer)


# 6. Real numbers other than int and float are taken by their float value;
# bools stay bools.
def test_other_real_numbers_are_taken_by_value(records: oprec.Records) -> None:
    import decimal
    import fractions

    layer = records.layer_file(LLAMA)
    for value in (fractions.Fraction(1, 2), decimal.Decimal("0.5")):
        layer["s_fa"] = value
        assert type(layer["s_fa"]) is float and layer["s_fa"] == 0.5
    layer.set(gmm=True)
    assert layer["gmm"] is True
    with pytest.raises(oprec.LayerError):
        layer["s_fa"] = object()


def test_numpy_numbers_are_taken_by_value(records: oprec.Records) -> None:
    np = pytest.importorskip("numpy")
    layer = records.layer_file(LLAMA)
    layer["s_fa"] = np.float32(0.5)
    assert type(layer["s_fa"]) is float and layer["s_fa"] == 0.5
    layer["t"] = np.int64(8)
    assert type(layer["t"]) is int and layer["t"] == 8
    layer["gmm"] = np.bool_(True)
    assert layer["gmm"] is True


# 7. A name whose value is None is a TypeError, as Python's would be; the
# caller's own exceptions pass through as eval lets them.
def test_expression_tells_none_from_missing() -> None:
    from oprec.compat import op_records as m

    expr = m.Expression.parse("a + 1")
    with pytest.raises(TypeError):
        eval("a + 1", {"__builtins__": {}}, {"a": None})
    with pytest.raises(TypeError):
        expr.expr({"a": None})
    with pytest.raises(NameError):
        expr.expr({})

    class Raising(dict):
        def __missing__(self, name: str):
            raise LookupError(name)

    with pytest.raises(LookupError) as info:
        expr.expr(Raising())
    assert type(info.value) is LookupError
    assert m.Expression.parse("1 if c else a").expr({"c": 1, "a": None}) == 1  # only where read


# 8. Expression(source, names), as the spec's frozen dataclass allows.
def test_expression_from_its_fields() -> None:
    from oprec.compat import op_records as m

    expr = m.Expression("a * 2", frozenset({"a"}))
    assert expr.expr({"a": 3}) == 6 and expr(dict(a=4)) == 8
    assert expr == m.Expression.parse("a * 2") and hash(expr) == hash(m.Expression.parse("a * 2"))
    with pytest.raises(m.ModelSpecError):
        m.Expression("a +", frozenset({"a"}))


# 9. grid takes any mapping of axes, as stubbed.
def test_grid_takes_any_mapping(records: oprec.Records) -> None:
    from collections import OrderedDict
    from types import MappingProxyType

    layer = records.layer_file(LLAMA)
    axes = {"t": [1, 2], "cp": [1, 2]}
    expected = layer.grid(axes)
    assert layer.grid(MappingProxyType(axes)) == expected
    assert layer.grid(OrderedDict(axes)) == expected
