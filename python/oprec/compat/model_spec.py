"""Stands for the reference's ``hyper_parallel.auto_parallel._model_spec`` where
hyper_parallel is not installed (:func:`oprec.compat.install`): what its op
records tests import from it, ``ModelSpecError`` (the drop-in's, a
``ValueError`` as the reference's is) and ``OpCounts``, a layer kind's count of
each op of the op vector, in its order."""
from __future__ import annotations

from dataclasses import make_dataclass

from .op_records import OP_VECTOR, ModelSpecError

OpCounts = make_dataclass("OpCounts", [(op, int) for op in OP_VECTOR], frozen=True)
OpCounts.__doc__ = "How many times one layer kind runs each op of the op vector."
OpCounts.__module__ = __name__

__all__ = ["ModelSpecError", "OpCounts"]
