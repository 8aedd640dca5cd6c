"""oprec: the activation bytes a transformer layer keeps for backward, from op records.

>>> import oprec
>>> records = oprec.Records()                 # the shipped records
>>> layer = records.layer_file("examples/llama2-7b.json")
>>> layer["t"] = 8                            # set a field, price again
>>> layer.total()

``Records(path)`` also loads a ``.rec`` or the reference's YAML;
``records.layer(fields, context, switches)`` binds a layer from mappings;
``layer.grid({...})`` and ``price_many(layers)`` price many layers in one
call; ``oprec.hf.layer(config, tp=...)`` derives a layer from a Hugging Face
config; ``oprec.fit(config, tp=..., pp=...)`` says what each pipeline
stage holds and whether it fits the device; ``oprec.compat`` is a drop-in
for the reference's modules.
"""
from __future__ import annotations

from . import _args, _oprec, errors
from ._oprec import Layer, ObjectPricer, Records, SlotBytes

# pybind11's refusals of arguments, said in the package's words (_args.py).
for _cls in (Records, Layer, ObjectPricer, _oprec.Expression):
    _args.wrap_class(_cls, f"oprec.{_cls.__name__}")
price_many = _args.wrap_function(_oprec.price_many, "oprec.price_many()")
from .errors import (DivisionByZero, Error, LayerError, MissingField, PricingError, PricingOverflow,
                     PricingTypeError, RecordsError, UnboundName, UnknownOp, UnknownSlot)
from . import hf
from .hf import sweep
from ._fit import fit, fit_megatron
from ._plot import FitResult, SweepResult

__all__ = [
    "Records", "Layer", "SlotBytes", "ObjectPricer", "price_many", "sweep", "fit", "fit_megatron", "FitResult", "SweepResult", "hf", "errors",
    "Error", "RecordsError", "LayerError", "PricingError", "DivisionByZero", "UnboundName",
    "MissingField", "PricingOverflow", "PricingTypeError", "UnknownSlot", "UnknownOp",
]
__version__ = "0.1.0"
