"""Will it fit: every byte a rank holds, per pipeline stage (docs/fit.md).

``oprec.fit(config, gpus=8, tp=2, pp=2, gbs=64)`` gives the dict
``oprec fit ... --format json`` prints; ``oprec.fit_megatron(text)`` reads a
Megatron-LM launch command as ``oprec fit --megatron-args`` does.
"""
from __future__ import annotations

import json
import math
import operator
import os
import re
import warnings
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from ._oprec import Records, fit_json, fit_megatron_json
from ._plot import FitResult
from .errors import LayerError, in_python_words

ConfigLike = Union[str, "os.PathLike[str]", Mapping[str, Any]]
RecordsLike = Union[str, "os.PathLike[str]", Records]

_records: Dict[str, Tuple[Optional[Tuple[int, int]], Records]] = {}


def fit_records(name: Union[str, "os.PathLike[str]"] = "calibrated") -> Records:
    """The whole-rank records a name chooses, loaded with the op profiles: ``calibrated`` and
    ``reference`` are records/rank_<name>.rec, anything else a ``.rec`` path. Loaded once per
    file: a path is the file it names from the current folder, read again when it changes
    (not when only a file it imports does)."""
    if not isinstance(name, (str, os.PathLike)):
        raise ValueError(f"records={name!r}: expected 'calibrated', 'reference', a .rec path or Records")
    path = os.fspath(name)
    key, stamp = path, None
    if path in ("calibrated", "reference"):
        path = f"rank_{path}"
    elif os.path.isfile(path):
        stat = os.stat(path)
        key, stamp = os.path.realpath(path), (stat.st_mtime_ns, stat.st_size)
    held = _records.get(key)
    if held is None or held[0] != stamp:  # one entry a file: an edit replaces it
        held = _records[key] = (stamp, Records(path, profiles="profiles.rec"))
    return held[1]


def _fit_records(records: RecordsLike) -> Records:
    if not isinstance(records, Records):
        return fit_records(records)
    if not records.has_profiles:  # the engine's words name its C++ option
        raise LayerError(f"records={records!r}: loaded without op profiles; load them with "
                         "oprec.Records(path, profiles='profiles.rec'), or pass the path")
    return records


# As `oprec fit --device-memory` reads a size: binary units (K M G T, KiB ...)
# are powers of 1024, decimal ones (kB MB GB TB) powers of 1000.
_UNITS = {"": 1, "b": 1, "k": 1024, "kib": 1024, "kb": 1e3, "m": 1024 ** 2, "mib": 1024 ** 2, "mb": 1e6,
          "g": 1024 ** 3, "gib": 1024 ** 3, "gb": 1e9, "t": 1024 ** 4, "tib": 1024 ** 4, "tb": 1e12}


def device_bytes(size: Union[str, int, float]) -> float:
    """A device's memory in bytes: a number, or text such as "80GiB", "141GB", "512M"."""
    if isinstance(size, bool) or not isinstance(size, (str, int, float)):
        raise ValueError(f"device_memory={size!r}: expected bytes, e.g. 80 * 2**30 or '80GiB'")
    if isinstance(size, str):
        m = re.fullmatch(r"\s*([\d_.]+(?:[eE][+-]?\d+)?)\s*([A-Za-z]*)\s*", size)
        if m and re.search(r"(^|\D)_|_(\D|$)", m.group(1)):  # "_80GiB", "8__0": a slip, not a size
            m = None
        unit = m and _UNITS.get(m.group(2).lower())
        try:
            value = float(m.group(1).replace("_", "")) * unit if m and unit else math.nan
        except ValueError:
            value = math.nan
    else:
        value = float(size)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"device_memory={size!r}: expected bytes, e.g. 80 * 2**30, '80GiB', '141GB'")
    if value < 2 ** 20:  # as the command: 80 is 80 bytes, not a GPU
        raise ValueError(f"device_memory={size!r}: expected a size with its unit: a bare number counts bytes, "
                         "and a device's memory is more than a MiB")
    return value


def _int(name: str, value: Any, least: int, optional: bool = False) -> Optional[int]:
    """The value as an int (a numpy int too, as hf.layer takes it), else ValueError naming it."""
    if optional and value is None:
        return None
    number: Optional[int] = None
    if not isinstance(value, bool):
        try:
            number = operator.index(value)
        except TypeError:
            number = None
    if number is None or not least <= number < 2**63:
        want = "a positive integer" if least == 1 else f"an integer of at least {least}"
        raise ValueError(f"{name}={value!r}: expected {want} below 2**63{' or None' if optional else ''}")
    return number


def _choice(name: str, value: Any, choices: Tuple[str, ...], optional: bool = False) -> None:
    if optional and value is None:
        return
    if value not in choices:
        raise ValueError(f"{name}={value!r}: expected {', '.join(choices[:-1])} or {choices[-1]}"
                         f"{' (or None)' if optional else ''}")


def _bool(name: str, value: Any, optional: bool = False) -> None:
    if not (isinstance(value, bool) or (optional and value is None)):
        raise ValueError(f"{name}={value!r}: expected True or False{' or None' if optional else ''}")


def _str(name: str, value: Any) -> None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name}={value!r}: expected a string or None")


def fit(config: ConfigLike, *, records: RecordsLike = "calibrated", gpus: int = 8, tp: int = 1, pp: int = 1,
        vpp: int = 1, cp: int = 1, cp_algo: str = "ring", sp: bool = True, ep: int = 1, etp: int = 1,
        mbs: int = 1, gbs: Optional[int] = None, seq: Optional[int] = None, dtype: Optional[str] = None,
        flash_attention: bool = True, recompute: str = "none", recompute_method: str = "uniform",
        recompute_layers: Optional[int] = None, zero: int = 1, schedule: Optional[str] = None,
        optimizer: str = "adam", first_stage_layers: Optional[int] = None,
        last_stage_layers: Optional[int] = None, stage_layers: Optional[Sequence[int]] = None,
        untied: Optional[bool] = None, vocab: Optional[int] = None,
        device_memory: Union[str, int, float] = "80GiB", family: Optional[str] = None) -> FitResult:
    """Every byte a rank holds per pipeline stage for the model in ``config`` (a config.json
    path, or its content as a dict) under a strategy: the dict ``oprec fit --format json``
    prints (docs/fit.md), ``fits`` saying whether the busiest stage fits ``device_memory``;
    its ``plot()`` draws the stages (matplotlib).

    The options are ``oprec fit``'s, in Python's words (``no_sp`` is ``sp=False``,
    ``--untie-embeddings`` is ``untied=True``). ``records`` is ``"calibrated"``,
    ``"reference"``, a ``.rec`` path or loaded :class:`Records`. Raises ValueError
    (:class:`oprec.LayerError` for a strategy the model cannot take) naming the option.
    """
    gpus, tp, pp, vpp = _int("gpus", gpus, 1), _int("tp", tp, 1), _int("pp", pp, 1), _int("vpp", vpp, 1)
    cp, ep, etp, mbs = _int("cp", cp, 1), _int("ep", ep, 1), _int("etp", etp, 1), _int("mbs", mbs, 1)
    gbs, seq = _int("gbs", gbs, 1, optional=True), _int("seq", seq, 1, optional=True)
    recompute_layers = _int("recompute_layers", recompute_layers, 1, optional=True)
    vocab = _int("vocab", vocab, 1, optional=True)
    first_stage_layers = _int("first_stage_layers", first_stage_layers, 1, optional=True)
    last_stage_layers = _int("last_stage_layers", last_stage_layers, 1, optional=True)
    # Every virtual stage's layers (pp * vpp of them), as a sweep --budget row's stage-layers= states them.
    if stage_layers is None:
        layers_each: List[int] = []
    elif isinstance(stage_layers, (str, bytes)) or not isinstance(stage_layers, Iterable):
        raise ValueError(f"stage_layers={stage_layers!r}: expected a list of layer counts, one each virtual stage")
    else:
        layers_each = [_int("stage_layers", n, 0) for n in stage_layers]
    stage: Optional[int]
    try:
        stage = _int("zero", zero, 0)
    except ValueError:
        stage = None
    if stage not in (0, 1, 2, 3):  # 1.0 once reached the compiled call, which named its C++ types
        raise ValueError(f"zero={zero!r}: expected 0, 1, 2 or 3 (the ZeRO stage)")
    zero = stage
    _choice("cp_algo", cp_algo, ("ring", "ulysses", "hybrid"))
    _choice("dtype", dtype, ("bf16", "fp16", "fp32"), optional=True)
    _choice("recompute", recompute, ("none", "selective", "full"))
    _choice("recompute_method", recompute_method, ("uniform", "block"))
    if recompute != "full" and (recompute_layers is not None or recompute_method != "uniform"):
        # As `oprec fit` refuses them: read otherwise, they would be dropped without a word.
        raise ValueError(f"recompute_method and recompute_layers go with recompute='full', not {recompute!r}")
    _choice("schedule", schedule, ("1f1b", "interleaved", "gpipe", "dualpipev", "zero-bubble"), optional=True)
    _choice("optimizer", optimizer, ("adam", "sgd"))
    _bool("sp", sp)
    _bool("flash_attention", flash_attention)
    _bool("untied", untied, optional=True)
    _str("family", family)
    device = device_bytes(device_memory)
    recs = _fit_records(records)
    if isinstance(config, Mapping):
        try:
            source, text = "<config>", json.dumps(dict(config), allow_nan=False)
        except (TypeError, ValueError) as e:  # a numpy value, nan: as hf.layer says it
            raise LayerError(f"config: the mapping is not a JSON document ({e})") from None
    elif isinstance(config, (str, os.PathLike)):
        source, text = os.fspath(config), None
    else:
        raise ValueError(f"config={config!r}: expected a config.json path or its content as a dict")
    try:
        out = fit_json(recs, source, config_text=text, family=family, gpus=gpus, tp=tp, pp=pp, vpp=vpp, cp=cp,
                       cp_algo=cp_algo, sp=sp, ep=ep, etp=etp, mbs=mbs, gbs=gbs, seq=seq, dtype=dtype,
                       flash_attention=flash_attention, recompute=recompute, recompute_method=recompute_method,
                       recompute_layers=recompute_layers, zero=zero, schedule=schedule, optimizer=optimizer,
                       first_stage_layers=first_stage_layers, last_stage_layers=last_stage_layers,
                       untied=untied, vocab=vocab, device_bytes=device, stage_layers=layers_each)
    except LayerError as e:
        raise in_python_words(e) from None
    result = FitResult(json.loads(out))
    for note in result.get("notes", ()):  # what the config states that nothing prices
        warnings.warn(note, stacklevel=2)
    return result


def fit_megatron(text: str, *, gpus: Optional[int] = None, records: RecordsLike = "calibrated",
                 device_memory: Union[str, int, float] = "80GiB", family: Optional[str] = None) -> FitResult:
    """The fit of a Megatron-LM launch command (the whole command or its flags, shell-quoted,
    as ``oprec fit --megatron-args`` reads a file): the dict ``--format json`` prints.
    Flags oprec does not know are ignored with a warning; a flag Megatron-LM would refuse
    raises :class:`oprec.LayerError` (a ValueError) naming it and its line:col in ``text``.
    ``gpus``: the job's GPU count; None: the launcher's (``torchrun --nnodes --nproc-per-node``)
    where the command states one, else 8.
    """
    if not isinstance(text, str):
        raise ValueError(f"text={text!r}: expected a launch command as a string")
    if "--" not in text and os.path.isfile(text):  # a path, where the command's text goes
        raise ValueError(f"text={text!r} names a file: pass its text, pathlib.Path({text!r}).read_text()")
    if gpus is not None:
        _int("gpus", gpus, 1)
    _str("family", family)
    device = device_bytes(device_memory)
    recs = _fit_records(records)
    got = fit_megatron_json(recs, text, "<megatron-args>", gpus=gpus, device_bytes=device, family=family)
    if got["unknown"]:
        warnings.warn("flags oprec does not know, ignored: " + " ".join(got["unknown"]), stacklevel=2)
    result = FitResult(json.loads(got["json"]))
    for note in result.get("notes", ()):  # what the command states that is priced otherwise
        warnings.warn(note, stacklevel=2)
    return result
