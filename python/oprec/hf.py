"""Layers from Hugging Face configs, as the reference's HyperParallel parser derives them.

``layer(config, tp=8, seq=4096)`` gives an :class:`HfLayer` whose ``layer``
is a bound :class:`oprec.Layer`; ``sweep(config, tp=[1, 2, 4, 8])`` prices
the product of strategy options under every recompute setting.
"""
from __future__ import annotations

import contextlib
import inspect
import itertools
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Union

from . import _args
from ._oprec import Layer, Records, hf_layer as _hf_layer
from ._plot import SweepResult
from .errors import Error, LayerError, in_python_words

# The compiled function's argument errors, named as the caller called it.
hf_layer = _args.wrap_function(_hf_layer, "oprec.hf.layer()")

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
    # pybind11 takes True for 1 and 0 for False: said here, as oprec.fit says it.
    for name in ("tp", "cp", "ep", "etp", "mbs", "seq", "index"):
        if isinstance(options[name], bool):
            raise TypeError(f"oprec.hf.layer(): `{name}` needs an int, got bool {options[name]!r}")
    for name in ("sp", "flash_attention", "param_casts"):
        if type(options[name]).__module__ == "numpy" and type(options[name]).__name__ in ("bool_", "bool"):
            options[name] = bool(options[name])  # an element of a numpy array of bools
        if not isinstance(options[name], bool):
            raise TypeError(f"oprec.hf.layer(): `{name}` needs True or False, got {type(options[name]).__name__} "
                            f"{options[name]!r}")
    with _config_path(config, "oprec.hf.layer()") as path:
        try:
            return HfLayer(**hf_layer(recs, path, **options))
        except LayerError as e:  # the engine says --tp, as the command's option
            raise in_python_words(e) from None


_MAPPING = "<config mapping>"


@contextlib.contextmanager
def _config_path(config: ConfigLike, caller: str) -> Iterator[str]:
    """A path the front end reads: the config's own, or a temporary file
    holding a mapping, removed whatever happens; an error names the mapping,
    never the temporary file."""
    if not isinstance(config, Mapping):
        if not isinstance(config, (str, os.PathLike)):
            raise TypeError(f"{caller}: `config` needs a config.json path or its content as a dict, "
                            f"got {type(config).__name__}")
        yield os.fspath(config)
        return
    try:
        text = json.dumps(dict(config), allow_nan=False)
    except (TypeError, ValueError) as e:
        raise LayerError(f"config: the mapping is not a JSON document ({e})") from None
    fd, path = tempfile.mkstemp(prefix="oprec-config-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            yield path
        except Error as e:
            raise _renamed(e, path) from None
    finally:
        os.unlink(path)


def _renamed(e: Error, path: str) -> Error:
    """The same error with the temporary file's path said as the mapping."""
    if path not in str(e):
        return e
    out = type(e)(str(e).replace(path, _MAPPING))
    out.__dict__.update({k: (v.replace(path, _MAPPING) if isinstance(v, str) else v) for k, v in vars(e).items()})
    return out


_SWEPT = ("tp", "cp", "cp_algo", "sp", "ep", "etp", "mbs", "seq", "dtype", "micro_factor")


def sweep(config: ConfigLike, **options: Union[Any, Iterable[Any]]) -> SweepResult:
    """Price the product of strategy options, one row per strategy.

    Each of ``tp cp cp_algo sp ep etp mbs seq dtype micro_factor`` takes a
    value or a list of values (the first varying slowest); other keywords go
    to :func:`layer` unchanged. A row holds the strategy's options,
    ``strategy`` (its settled text), ``none`` (the layer kept plainly),
    ``full`` (what a fully recomputed layer keeps) and ``settings`` (every
    selective switch setting: ``switches``, ``parts``, ``total``); a
    strategy the model cannot take has ``error`` instead. The list's ``plot()``
    draws the rows (matplotlib).
    """
    # A value or any iterable of values but a str (a set, a generator, numpy's array).
    axes = {k: [v] if isinstance(v, (str, bytes)) or not isinstance(v, Iterable) else list(v)
            for k, v in options.items() if k in _SWEPT}
    fixed = {k: v for k, v in options.items() if k not in _SWEPT}
    for name in ("recompute", "switches"):
        if name in fixed:
            raise TypeError(f"oprec.sweep(): `{name}` is not an option of a sweep: each row prices every setting "
                            "(none, full and each selective setting)")
    taken = set(inspect.signature(layer).parameters) - {"config", "recompute", "switches"}
    for name in fixed:
        if name not in taken:
            raise TypeError(f"oprec.sweep(): no option `{name}` (it takes {', '.join(sorted(taken))})")
    fixed["recompute"] = "none"
    with _config_path(config, "oprec.sweep()") as path:
        rows = _sweep(path, axes, fixed)
        if isinstance(config, Mapping):
            for row in rows:
                if "error" in row:
                    row["error"] = row["error"].replace(path, _MAPPING)
        return SweepResult(rows)


def _sweep(config: ConfigLike, axes: Dict[str, List[Any]], fixed: Dict[str, Any]) -> List[Dict[str, Any]]:
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
        # What a fully recomputed layer keeps: the same layer derived under
        # full recompute (as `oprec sweep` prices its `full` column).
        full = layer(config, **strategy, **{**fixed, "recompute": "full"})
        row.update(strategy=h.strategy, none=h.layer.total(), full=full.full_recompute_input,
                   settings=h.layer.settings())
        rows.append(row)
    return rows
