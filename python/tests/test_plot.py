"""fit(...).plot() and sweep(...).plot(): matplotlib draws what the results hold (skipped without matplotlib)."""
from __future__ import annotations

import os
import tempfile

import pytest

import oprec
from conftest import ROOT

LLAMA = ROOT / "examples" / "hf" / "llama-2-7b.json"
GiB = 1024 ** 3


def test_results_stay_a_dict_and_a_list() -> None:
    fit = oprec.fit(LLAMA, pp=2)
    assert isinstance(fit, dict) and isinstance(fit, oprec.FitResult)
    rows = oprec.sweep(LLAMA, tp=[1, 2])
    assert isinstance(rows, list) and isinstance(rows, oprec.SweepResult)


def test_fit_plot_stacks_each_stage_to_its_total() -> None:
    pytest.importorskip("matplotlib")
    fit = oprec.fit(LLAMA, gpus=8, tp=2, pp=2)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fit.png")
        ax = fit.plot(path=path)
        assert os.path.getsize(path) > 1000
    # The bars of each stage reach its total (in GiB); the device line at its memory.
    tops = {}
    for patch in ax.patches:
        x = round(patch.get_x() + patch.get_width() / 2)
        tops[x] = max(tops.get(x, 0.0), patch.get_y() + patch.get_height())
    for stage in fit["stages"]:
        assert tops[stage["stage"]] == pytest.approx(stage["total_bytes"] / GiB)
    assert ax.lines[0].get_ydata()[0] == pytest.approx(fit["device_bytes"] / GiB)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "weights" in labels and "device" in labels
    assert "activations_mtp" not in labels  # a term no stage holds is left out


def test_sweep_plot_draws_each_strategy_the_model_can_take() -> None:
    pytest.importorskip("matplotlib")
    rows = oprec.sweep(LLAMA, tp=[1, 2, 3, 4])  # tp=3 does not divide 32 heads
    ax = rows.plot()
    taken = [r for r in rows if "error" not in r]
    assert len(taken) == 3
    none, _least, full = ax.lines
    assert list(none.get_ydata()) == pytest.approx([r["none"] / 1024 ** 2 for r in taken])
    assert list(full.get_ydata()) == pytest.approx([r["full"] / 1024 ** 2 for r in taken])
    assert [t.get_text() for t in ax.get_xticklabels()] == [r["strategy"] for r in taken]
