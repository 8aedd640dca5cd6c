"""Drop-in for the reference's op records module (``_op_records``): its constants,
its error, and ``load_op_records`` giving the records oprec prices with.

The records' expressions are not exposed as Python objects here
(``Expression``, ``Slot.holds``, ``OpRecords.evaluate``, ``keeps``): the
evaluators of :mod:`oprec.compat.layer_block` price through oprec instead.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Dict, Mapping, Tuple, Union

from .._oprec import Records

PARTS: Tuple[str, ...] = ("attention", "ffn", "norm")
SWITCHES: Tuple[str, ...] = ("attBMM", "headCast", "dropout", "softmax", "normOp", "gather", "ffAct", "attUp")
# The op vector, in order (an older version named it OPS).
OP_VECTOR: Tuple[str, ...] = ("attMM", "attBMM", "ffMM", "softmax", "dropout", "normOp", "gather", "headCast",
                              "ffAct", "linrec")
OPS = OP_VECTOR


class ModelSpecError(ValueError):
    """Records (or a name asked of them) that the reference refuses."""


def _shipped_path() -> str:
    return Records().source


RECORDS_PATH: str = _shipped_path()


@dataclass(frozen=True)
class OpRecords:
    """Loaded records: the oprec handle, with the reference's ``defaults``, ``parts`` and slot names."""

    records: Records
    defaults: Mapping[str, Union[int, float]]
    parts: Tuple[str, ...]
    slots: Tuple[str, ...]
    ops: Tuple[str, ...]


@functools.lru_cache(maxsize=None)
def _load(path: str) -> OpRecords:
    try:
        records = Records(path)
    except ValueError as e:  # oprec.RecordsError: every diagnostic, with file:line:col
        raise ModelSpecError(str(e)) from e
    return OpRecords(records, dict(records.defaults), tuple(records.parts), tuple(records.slots),
                     tuple(records.ops))


def load_op_records(path: Union[str, "os.PathLike[str]"] = RECORDS_PATH) -> OpRecords:
    """The records at ``path`` (a ``.rec`` or the reference's YAML), checked once per path."""
    return _load(os.fspath(path))
