"""Pictures of the answers, with matplotlib (optional: Debian's
python3-matplotlib, or ``pip install oprec[plot]``).

``oprec.fit(...)`` gives a :class:`FitResult` (a dict, as before) whose
``plot()`` draws each pipeline stage's terms as a stacked bar against the
device's memory; ``oprec.sweep(...)`` gives a :class:`SweepResult` (a
list) whose ``plot()`` draws each strategy's layer bytes, kept plainly and
fully recomputed. Each returns the matplotlib Axes; ``path=`` also saves
the figure.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Union

GiB = 1024 ** 3


def _pyplot() -> Any:
    try:
        import matplotlib

        if "MPLBACKEND" not in os.environ and not os.environ.get("DISPLAY"):
            matplotlib.use("Agg")  # no screen: draw to files
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plot() needs matplotlib: apt install python3-matplotlib, "
                          "or pip install 'oprec[plot]'") from None
    return plt


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    _, made = _pyplot().subplots(figsize=(8, 5))
    return made


def _save(ax: Any, path: Optional[Union[str, "os.PathLike[str]"]]) -> Any:
    if path is not None:
        ax.figure.tight_layout()
        ax.figure.savefig(os.fspath(path))
    return ax


class FitResult(Dict[str, Any]):
    """The dict ``oprec fit --format json`` prints, and a picture of it."""

    def plot(self, ax: Any = None, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Any:
        """Each stage's counted terms stacked, in GiB, the device's memory a
        dashed line and the peak stage labelled; returns the Axes."""
        ax = _axes(ax)
        stages: List[Dict[str, Any]] = self["stages"]
        names: List[str] = []
        for stage in stages:
            names += [n for n in stage["terms"] if n not in names]
        xs = [stage["stage"] for stage in stages]
        bottom = [0.0] * len(stages)
        for name in names:
            heights = [stage["terms"].get(name, 0) / GiB for stage in stages]
            if not any(heights):
                continue  # a term no stage holds stays out of the legend
            ax.bar(xs, heights, bottom=bottom, label=name)
            bottom = [b + h for b, h in zip(bottom, heights)]
        ax.axhline(self["device_bytes"] / GiB, color="firebrick", linestyle="--", label="device")
        peak = self["peak_stage"]
        ax.annotate(f"peak {self['peak_bytes'] / GiB:.2f} GiB", (xs[peak], bottom[peak]),
                    textcoords="offset points", xytext=(0, 4), ha="center")
        ax.set_xticks(xs)
        ax.set_xlabel("pipeline stage")
        ax.set_ylabel("GiB per GPU")
        ax.set_title(("fits: " if self["fits"] else "does not fit: ") + self["model"], fontsize="medium")
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
        return _save(ax, path)


class SweepResult(List[Dict[str, Any]]):
    """``oprec.sweep``'s rows, and a picture of them."""

    def plot(self, ax: Any = None, path: Optional[Union[str, "os.PathLike[str]"]] = None) -> Any:
        """Each strategy's layer activations in MiB: kept plainly (``none``)
        and fully recomputed (``full``), and the least a selective setting
        keeps; a strategy the model cannot take is left out. Returns the Axes."""
        ax = _axes(ax)
        rows = [r for r in self if "error" not in r]
        labels = [r["strategy"] for r in rows]
        xs = list(range(len(rows)))
        MiB = 1024 ** 2
        ax.plot(xs, [r["none"] / MiB for r in rows], "o", label="none")
        least = [min((s["total"] for s in r["settings"]), default=r["none"]) / MiB for r in rows]
        ax.plot(xs, least, "s", label="selective (least)")
        ax.plot(xs, [(r["full"] or 0) / MiB for r in rows], "^", label="full")
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, rotation=60, ha="right", fontsize="x-small")
        ax.set_ylabel("MiB a layer keeps")
        ax.legend(fontsize="small")
        return _save(ax, path)
