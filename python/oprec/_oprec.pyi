"""Type stubs of oprec's compiled core (python/src/); use it through ``oprec``."""
from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple, Union

Number = Union[bool, int, float]
FieldValue = Union[Number, str, None]
PathLike = Union[str, "os.PathLike[str]"]
OnError = Literal["raise", "none"]
RecomputeName = Literal["none", "selective", "full"]

# The context's values a formula may read (micro_factor, dropless_tok_factor),
# as a layer document's "context" states them: the one list of them.
CONTEXT_NAMES: Tuple[str, ...]

class Records:
    """Op records, loaded and checked once; bind layers with :meth:`layer`.

    ``path``: None for the shipped records, a shipped set's name
    (``"calibrated"``), a ``.rec`` file or the reference's YAML.
    ``profiles``: op profiles to load with them (``"profiles.rec"``), which
    the Hugging Face front end needs. Raises :class:`oprec.RecordsError`.
    """

    def __init__(self, path: Optional[PathLike] = None, *, profiles: Optional[PathLike] = None,
                 data_dir: Optional[PathLike] = None, search_path: Sequence[PathLike] = ()) -> None: ...
    @staticmethod
    def from_text(text: str, name: str = "<text>", *, profiles: Optional[PathLike] = None) -> Records:
        """Records from text; ``name`` stands for the file in diagnostics."""
    @staticmethod
    def default_data_dir() -> os.PathLike[str]:
        """Where the shipped records and the standard library are found."""
    @property
    def source(self) -> str: ...
    @property
    def slots(self) -> Tuple[str, ...]: ...
    @property
    def ops(self) -> Tuple[str, ...]:
        """The ops, then the parts."""
    @property
    def switches(self) -> Tuple[str, ...]: ...
    @property
    def parts(self) -> Tuple[str, ...]: ...
    @property
    def names(self) -> Tuple[str, ...]:
        """Every name the formulas read: fields, context values, kv_shards."""
    @property
    def defaults(self) -> Dict[str, Number]: ...
    @property
    def has_profiles(self) -> bool: ...
    def layer(self, fields: Optional[Mapping[str, FieldValue]] = None,
              context: Optional[Mapping[str, Any]] = None,
              switches: Optional[Mapping[str, Optional[bool]]] = None) -> Layer:
        """A layer from mappings: ``context`` holds ``micro_factor``,
        ``dropless_tok_factor``, ``node`` (``"none"``/``"selective"``/``"full"`` or
        ``NOT_REC_LAYER``...) and ``switches``, which stand for the layer's own.
        Raises :class:`oprec.LayerError`, also for a field name nothing reads."""
    def layer_json(self, text: str, name: str = "<layer>") -> Layer:
        """A layer from its JSON document (``{"fields", "switches", "context"}``);
        a ``UserWarning`` for each field nothing reads (priced as if absent)."""
    def layer_file(self, path: PathLike) -> Layer:
        """A layer from a JSON document file, warning as ``layer_json`` does."""
    def to_yaml(self) -> str:
        """The records as the reference's YAML, as ``oprec export`` writes it."""

class SlotBytes:
    """One slot of a layer."""

    slot: str
    part: str
    held: bool
    bytes: Number

class Layer:
    """A layer bound to its records: a mapping of its fields, priced again cheaply after each change.

    Pricing raises :class:`oprec.PricingError` subclasses (``ZeroDivisionError``,
    ``AttributeError`` for a missing field, ``KeyError`` for an unknown slot, ...).
    One layer is used by one thread at a time; copy it (:meth:`copy`) to price variants.
    """

    recompute: RecomputeName
    @property
    def records(self) -> Records: ...
    def __getitem__(self, name: str) -> FieldValue: ...
    def __setitem__(self, name: str, value: FieldValue) -> None: ...
    def __delitem__(self, name: str) -> None: ...
    def __contains__(self, name: object) -> bool:
        """Whether the layer states the field (False for anything but a str)."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]:
        """The stated fields' names, in order."""
    def keys(self) -> List[str]: ...
    def values(self) -> List[FieldValue]: ...
    def items(self) -> List[Tuple[str, FieldValue]]: ...
    def get(self, name: str, default: Any = None) -> Any: ...
    def set(self, mapping: Optional[Mapping[str, FieldValue]] = None, **fields: FieldValue) -> None:
        """Set several fields: ``layer.set(t=8, cp=2)``."""
    def fields(self) -> Dict[str, FieldValue]: ...
    def set_switch(self, name: str, keep: Optional[bool]) -> None:
        """A recompute switch (True keeps the op); None forgets it."""
    def parts(self) -> Dict[str, Number]:
        """Bytes by part (attention, ffn, norm)."""
    def total(self) -> Number:
        """The parts summed from 0.0, as the reference sums them."""
    def slot(self, slot: str, only: Optional[str] = None) -> Number:
        """One slot's bytes, with the layer's switches or one op (or part) alone."""
    def slots(self) -> List[SlotBytes]: ...
    def op(self, op: str) -> Dict[str, Number]:
        """An op's bytes in each held slot it keeps in."""
    def ops(self) -> Dict[str, Dict[str, Number]]:
        """:meth:`op` for each name of :attr:`Records.ops` (the ops, then the parts), in that order."""
    def settings(self) -> List[Dict[str, Any]]:
        """Every switch setting as a selective layer: ``switches``, ``parts``, ``total``."""
    def report(self, only: Optional[str] = None) -> Dict[str, Any]:
        """Everything, as ``oprec eval --format json`` prints it."""
    def document(self) -> Dict[str, Any]:
        """The layer document (fields, switches, context)."""
    def copy(self) -> Layer: ...
    def __copy__(self) -> Layer: ...
    def __deepcopy__(self, memo: Any) -> Layer: ...
    def grid(self, axes: Mapping[str, Iterable[FieldValue]], *, on_error: OnError = "raise") -> List[Optional[Number]]:
        """The total at every point of the product of ``axes`` (the last fastest),
        priced on a copy with the GIL released; ``on_error="none"`` gives None
        where a point raises."""

def price_many(layers: Iterable[Layer], *, on_error: OnError = "raise") -> List[Optional[Number]]:
    """Each layer's total, priced on copies with the GIL released; ``TypeError`` (naming its index) for an
    item that is not a :class:`Layer`."""

def hf_layer(records: Records, config: PathLike, *, tp: int = 1, cp: int = 1, cp_algo: str = "ring",
             sp: bool = True, ep: int = 1, etp: int = 1, mbs: int = 1, seq: Optional[int] = None,
             dtype: Optional[str] = None, flash_attention: bool = True, param_casts: bool = False,
             recompute: str = "selective", switches: Optional[Mapping[str, bool]] = None,
             micro_factor: Number = 1, family: Optional[str] = None, index: Optional[int] = None,
             kind: Optional[str] = None) -> Dict[str, Any]: ...

def fit_json(records: Records, config: str, *, config_text: Optional[str] = None, family: Optional[str] = None,
             gpus: int = 8, tp: int = 1, pp: int = 1, vpp: int = 1, cp: int = 1, cp_algo: str = "ring",
             sp: bool = True, ep: int = 1, etp: int = 1, mbs: int = 1, gbs: Optional[int] = None,
             seq: Optional[int] = None, dtype: Optional[str] = None, flash_attention: bool = True,
             recompute: RecomputeName = "none", recompute_method: str = "uniform",
             recompute_layers: Optional[int] = None, zero: int = 1, schedule: Optional[str] = None,
             optimizer: str = "adam", first_stage_layers: Optional[int] = None,
             last_stage_layers: Optional[int] = None, untied: Optional[bool] = None, vocab: Optional[int] = None,
             device_bytes: float = 85899345920.0, stage_layers: List[int] = ...) -> str: ...
def fit_megatron_json(records: Records, text: str, source_name: str = "<megatron-args>", *, gpus: Optional[int] = None,
                      device_bytes: float = 85899345920.0, family: Optional[str] = None) -> Dict[str, Any]: ...

class ObjectPricer:
    """Prices a config object read by attribute, as the reference's evaluators do (oprec.compat)."""

    def __init__(self, records: Records) -> None: ...
    def bind(self, ccfg: Any, ctx: Any, switches: Optional[Mapping[str, Any]] = None,
             overrides: Optional[Mapping[str, Any]] = None) -> Layer:
        """A copy of the layer for ``ccfg`` under ``ctx``; an override of a name the pricer does not
        bind (``kv_shards``, ``total``) raises :class:`oprec.LayerError`."""
    def layer_bytes(self, ccfg: Any, ctx: Any, switches: Optional[Mapping[str, Any]] = None) -> Dict[str, Number]: ...
    def slot_bytes(self, ccfg: Any, ctx: Any, slot: str, switches: Optional[Mapping[str, Any]] = None,
                   overrides: Optional[Mapping[str, Any]] = None, only: Optional[str] = None) -> Number: ...
    def layer_slots(self, ccfg: Any, ctx: Any) -> Dict[str, str]: ...
    def op_bytes(self, ccfg: Any, ctx: Any, op: str) -> Dict[str, Number]: ...

class Expression:
    """One expression of the records' language, Python's semantics (oprec.compat.op_records builds on it).

    Raises :class:`oprec.RecordsError` (with positions) for a source the language refuses.
    """

    def __init__(self, source: str, name: str = "<expr>") -> None: ...
    @property
    def source(self) -> str: ...
    @property
    def names(self) -> Tuple[str, ...]:
        """The names it reads (max and min are calls, not names)."""
    def evaluate(self, lookup: Callable[[str], Optional[Number]]) -> Number:
        """The value, each name asked of ``lookup`` at most once and only where read (None: no value)."""
