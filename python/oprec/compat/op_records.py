"""Drop-in for the reference's op records module (``_op_records``): its constants,
``ModelSpecError``, ``Expression``, ``OpRecord``, ``Slot``, ``OpRecords`` and
``load_op_records``, with the names, shapes and behaviour the reference has.

Records load and check through oprec (a ``.rec`` or the reference's YAML:
every refusal a ``ModelSpecError`` carrying oprec's diagnostics, each with
file:line:col) and are taken in as the reference's YAML shape
(``Records.to_yaml``); each expression is parsed and evaluated by oprec's
interpreter, with Python's semantics, names looked up lazily.
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Dict, FrozenSet, Mapping, Optional, Tuple, Union

from .._oprec import Expression as _Compiled
from .._oprec import Records
from ..errors import RecordsError
from . import refusals

PARTS: Tuple[str, ...] = ("attention", "ffn", "norm")
SWITCHES: Tuple[str, ...] = ("attBMM", "headCast", "dropout", "softmax", "normOp", "gather", "ffAct", "attUp")
# The op vector, in order (an older version named it OPS).
OP_VECTOR: Tuple[str, ...] = ("attMM", "attBMM", "ffMM", "softmax", "dropout", "normOp", "gather", "headCast",
                              "ffAct", "linrec")
OPS = OP_VECTOR

# The shipped records (oprec's records/op_records.rec).
RECORDS_PATH: str = Records().source


class ModelSpecError(ValueError):
    """A record, file or name the op records refuse: the reference's words for
    each refusal (refusals.py), then oprec's diagnostics with file:line:col and code."""


def _refused(e: RecordsError, expression: Optional[str] = None, where: Optional[str] = None) -> ModelSpecError:
    return ModelSpecError(refusals.message(str(e), getattr(e, "problems", []), OP_VECTOR, SWITCHES, PARTS,
                                           expression, where))


class _Names(dict):
    """Names looked up through ``value`` at most once, and only when read."""

    def __init__(self, value: Callable[[str], Any]) -> None:
        super().__init__()
        self._value = value

    def __missing__(self, name: str) -> Any:
        v = self[name] = self._value(name)
        return v


@dataclass(frozen=True)
class Expression:
    """One expression of the records: its text and the names it reads (``max``/``min`` aside)."""

    source: str
    names: FrozenSet[str]
    _compiled: Optional[_Compiled] = field(default=None, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        """``Expression(source, names)`` as the reference builds it: ``source`` compiled here."""
        if self._compiled is None:
            try:
                compiled = _Compiled(self.source, "expr")
            except RecordsError as e:
                raise _refused(e, self.source, "expr") from e
            object.__setattr__(self, "_compiled", compiled)

    @staticmethod
    def parse(source: Union[str, int, float], where: str = "expr") -> "Expression":
        """Parse ``source`` (a str, or a YAML number standing for itself); ``ModelSpecError`` naming ``where``."""
        if isinstance(source, bool) or not isinstance(source, (str, int, float)):
            raise ModelSpecError(f"{where} must be an expression, got {source!r}")
        text = source.strip() if isinstance(source, str) else repr(source)
        try:
            compiled = _Compiled(text, where)
        except RecordsError as e:
            raise _refused(e, text, where) from e
        return Expression(text, frozenset(compiled.names), compiled)

    def __call__(self, names: Mapping[str, Any]) -> Any:
        return self.expr(names)

    def expr(self, names: Mapping[str, Any]) -> Any:
        """The value, Python's semantics; a name ``names`` lacks is asked of it by subscript
        (so a dict subclass's ``__missing__`` supplies it), ``NameError`` where none does.

        As ``eval`` with ``names`` for its locals: a ``KeyError`` from the lookup
        (``__missing__`` included) leaves the name unbound (``NameError``), any
        other exception passes through, and a name whose value is ``None`` is a
        ``TypeError`` (the language computes with numbers only)."""

        def lookup(name: str) -> Any:
            try:
                value = names[name]
            except KeyError:
                return None  # unbound: the interpreter raises NameError
            if value is None:
                raise TypeError(f"name {name!r} is None, not a number")
            return value

        return self._compiled.evaluate(lookup)


@dataclass(frozen=True)
class OpRecord:
    """An op (or a part of one): its recompute switch, the ops it needs, whether it communicates."""

    name: str
    switch: Optional[str]
    needs: Tuple[str, ...]
    comm: bool
    part_of: Optional[str] = None


@dataclass(frozen=True)
class Slot:
    """A slot: its part, its formula over ``total``, its entries in order, what it reads, its ``when``."""

    name: str
    part: str
    formula: Expression
    ops: Tuple[Tuple[str, Expression], ...]
    reads: FrozenSet[str]
    when: Optional[Expression] = None

    def holds(self, value: Callable[[str], Any]) -> bool:
        """Whether the slot is part of a layer whose names ``value`` gives."""
        return True if self.when is None else bool(self.when.expr(_Names(value)))


@dataclass(frozen=True)
class OpRecords:
    """The records: ``ops`` (op-vector order), ``slots`` (file order), ``defaults``, ``parts`` (part records)."""

    ops: Mapping[str, OpRecord]
    slots: Mapping[str, Slot]
    defaults: Mapping[str, Union[int, float]]
    parts: Mapping[str, OpRecord]

    def record(self, name: str) -> OpRecord:
        """An op's or a part's record; ``ModelSpecError`` for any other name."""
        found = self.ops.get(name) or self.parts.get(name)
        if found is None:
            raise ModelSpecError(f"no op {name!r}; the ops are {sorted(self.ops)}, the parts {sorted(self.parts)}")
        return found

    def _counts(self, entry: str, only: str) -> bool:
        return entry == only or self.record(entry).part_of == only

    def keeps(self, op: str) -> Dict[str, Expression]:
        """The slots where ``op`` (with its parts; a part alone) keeps anything: each slot's first such entry."""
        self.record(op)
        out: Dict[str, Expression] = {}
        for name, slot in self.slots.items():
            for entry, expr in slot.ops:
                if self._counts(entry, op):
                    out[name] = expr
                    break
        return out

    def evaluate(self, slot: str, value: Callable[[str], Any], keep: Callable[[str], Any],
                 only: Optional[str] = None) -> Any:
        """A slot's bytes: ``total`` from int 0 adds each entry's elements times its keep
        factor (``keep(name)``, or with ``only`` 1 where the entry is ``only`` or a part of
        it), a falsy factor skipping the entry unevaluated; then the formula over it."""
        s = self.slots[slot]
        names = _Names(value)
        total: Any = 0
        for entry, expr in s.ops:
            factor = (1 if self._counts(entry, only) else 0) if only is not None else keep(entry)
            if not factor:
                continue
            total += factor * expr.expr(names)
        names["total"] = total
        return s.formula.expr(names)


def _record(name: str, doc: Mapping[str, Any]) -> OpRecord:
    return OpRecord(name, doc.get("switch"), tuple(doc.get("needs") or ()), bool(doc.get("comm", False)),
                    doc.get("part_of"))


def _slot(name: str, doc: Mapping[str, Any]) -> Slot:
    where = f"op_records.slots.{name}"
    formula = Expression.parse(doc["formula"], f"{where}.formula")
    ops = tuple((op, Expression.parse(src, f"{where}.ops.{op}")) for op, src in (doc.get("ops") or {}).items())
    when = Expression.parse(doc["when"], f"{where}.when") if "when" in doc else None
    reads = (formula.names - {"total"}).union(*(e.names for _, e in ops))
    return Slot(name, doc["part"], formula, ops, frozenset(reads), when)


@functools.lru_cache(maxsize=None)
def _load(path: str) -> OpRecords:
    try:
        records = Records(path)
    except RecordsError as e:  # every diagnostic, each with file:line:col
        raise _refused(e) from e
    import yaml  # python3-yaml; only loading records needs it

    doc = yaml.safe_load(records.to_yaml())
    order = {name: i for i, name in enumerate(OP_VECTOR)}
    ops = sorted((doc.get("ops") or {}).items(), key=lambda kv: order.get(kv[0], len(order)))
    return OpRecords(
        ops=MappingProxyType({name: _record(name, d or {}) for name, d in ops}),
        slots=MappingProxyType({name: _slot(name, d) for name, d in (doc.get("slots") or {}).items()}),
        defaults=MappingProxyType(dict(doc.get("defaults") or {})),
        parts=MappingProxyType({name: _record(name, d or {}) for name, d in (doc.get("parts") or {}).items()}),
    )


def load_op_records(path: Union[str, "os.PathLike[str]"] = RECORDS_PATH) -> OpRecords:
    """The records at ``path`` (a ``.rec`` or the reference's YAML), loaded and checked once per path."""
    return _load(os.fspath(path))
