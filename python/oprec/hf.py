"""Layers from Hugging Face configs, as the reference's HyperParallel parser derives them.

``layer(config, tp=8, seq=4096)`` gives an :class:`HfLayer` whose ``layer``
is a bound :class:`oprec.Layer`; ``sweep(config, tp=[1, 2, 4, 8])`` prices
the product of strategy options under every recompute setting.
"""
from __future__ import annotations

import itertools
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from ._oprec import Layer, Records, hf_layer
from .errors import LayerError

ConfigLike = Union[str, "os.PathLike[str]", Mapping[str, Any]]

_records_with_profiles: Optional[Records] = None


def records() -> Records:
    """The shipped records with the op profiles the front end needs, loaded once."""
    global _records_with_profiles
    if _records_with_profiles is None:
        _records_with_profiles = Records(profiles="profiles.rec")
    return _records_with_profiles


@dataclass
class HfLayer:
    """A layer derived from a config: the bound layer and what the derivation settled."""

    layer: Layer
    model_type: str
    family: str
    kind: str
    index: int
    layers: int
    strategy: str
    full_recompute_input: Optional[float]


def layer(config: ConfigLike, *, tp: int = 1, cp: int = 1, cp_algo: str = "ring", sp: bool = True,
          ep: int = 1, etp: int = 1, mbs: int = 1, seq: Optional[int] = None, dtype: Optional[str] = None,
          flash_attention: bool = True, param_casts: bool = False, recompute: str = "selective",
          switches: Optional[Mapping[str, bool]] = None, micro_factor: Union[int, float] = 1,
          family: Optional[str] = None, index: Optional[int] = None, kind: Optional[str] = None,
          records: Optional[Records] = None) -> HfLayer:
    """One layer of the model in ``config`` (a config.json path, or its content as a dict).

    The strategy options are ``oprec eval --hf``'s (docs/hf.md); ``index``
    or ``kind`` choose the layer (default: the first of the family's default
    kind). Raises :class:`oprec.LayerError` naming the key or option at fault.
    """
    recs = records if records is not None else globals()["records"]()
    options = dict(tp=tp, cp=cp, cp_algo=cp_algo, sp=sp, ep=ep, etp=etp, mbs=mbs, seq=seq, dtype=dtype,
                   flash_attention=flash_attention, param_casts=param_casts, recompute=recompute,
                   switches=switches, micro_factor=micro_factor, family=family, index=index, kind=kind)
    if isinstance(config, Mapping):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(dict(config), f)
        try:
            return HfLayer(**hf_layer(recs, f.name, **options))
        finally:
            os.unlink(f.name)
    return HfLayer(**hf_layer(recs, os.fspath(config), **options))


_SWEPT = ("tp", "cp", "cp_algo", "sp", "ep", "etp", "mbs", "seq", "dtype", "micro_factor")


def sweep(config: ConfigLike, **options: Union[Any, Iterable[Any]]) -> List[Dict[str, Any]]:
    """Price the product of strategy options, one row per strategy.

    Each of ``tp cp cp_algo sp ep etp mbs seq dtype micro_factor`` takes a
    value or a list of values (the first varying slowest); other keywords go
    to :func:`layer` unchanged. A row holds the strategy's options,
    ``strategy`` (its settled text), ``none`` (the layer kept plainly),
    ``full`` (what a fully recomputed layer keeps) and ``settings`` (every
    selective switch setting: ``switches``, ``parts``, ``total``); a
    strategy the model cannot take has ``error`` instead.
    """
    axes = {k: list(v) if isinstance(v, (list, tuple, range)) else [v]
            for k, v in options.items() if k in _SWEPT}
    fixed = {k: v for k, v in options.items() if k not in _SWEPT}
    fixed["recompute"] = "none"
    rows: List[Dict[str, Any]] = []
    for values in itertools.product(*axes.values()):
        strategy = dict(zip(axes.keys(), values))
        row: Dict[str, Any] = dict(strategy)
        try:
            h = layer(config, **strategy, **fixed)
        except LayerError as e:
            row["error"] = str(e)
            rows.append(row)
            continue
        row.update(strategy=h.strategy, none=h.layer.total(), full=h.full_recompute_input,
                   settings=h.layer.settings())
        rows.append(row)
    return rows
