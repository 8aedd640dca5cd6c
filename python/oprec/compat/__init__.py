"""Drop-ins for the reference's modules (hyper_parallel's op records and layer evaluators).

``oprec.compat.op_records`` stands for ``hyper_parallel.auto_parallel._op_records``
and ``oprec.compat.layer_block`` for the evaluators' ``layer_block``: the same
names, signatures and behaviour (docs/python.md), computing through oprec.
:func:`install` puts them in the reference's place, so that its callers'
imports find them unchanged.
"""
from __future__ import annotations

import importlib
import sys
import types
from typing import Dict

# The reference's module names, and the drop-in standing for each.
REFERENCE_MODULES: Dict[str, str] = {
    "hyper_parallel.auto_parallel._op_records": "oprec.compat.op_records",
    "hyper_parallel.auto_parallel.sapp_nd.memory_estimation.evaluators.layer_block": "oprec.compat.layer_block",
}


def install() -> None:
    """Make ``import hyper_parallel...._op_records`` (and ``...layer_block``) give the drop-ins.

    The reference's other modules are left as they are: where hyper_parallel
    is installed its packages are imported; where it is not, empty packages
    stand for the two modules' parents.
    """
    for name, drop_in in REFERENCE_MODULES.items():
        module = importlib.import_module(drop_in)
        parent = None
        parts = name.split(".")
        for depth in range(1, len(parts)):
            package = ".".join(parts[:depth])
            if package not in sys.modules:
                try:
                    importlib.import_module(package)
                except ImportError:
                    placeholder = types.ModuleType(package)
                    placeholder.__path__ = []  # a package, so that submodules resolve
                    sys.modules[package] = placeholder
                    if parent is not None:
                        setattr(parent, parts[depth - 1], placeholder)
            parent = sys.modules[package]
        sys.modules[name] = module
        setattr(parent, parts[-1], module)
    _model_spec()


# The reference's module its ModelSpecError and op counts come from.
MODEL_SPEC = "hyper_parallel.auto_parallel._model_spec"


def _model_spec() -> None:
    """Where hyper_parallel is installed, the drop-ins raise a ``ModelSpecError`` that is
    also the reference's, so that an ``except`` written for either catches it; where it is
    not, ``oprec.compat.model_spec`` stands for the module."""
    from . import layer_block, op_records

    try:
        reference = importlib.import_module(MODEL_SPEC)
    except ImportError:
        module = importlib.import_module("oprec.compat.model_spec")
        sys.modules[MODEL_SPEC] = module
        setattr(sys.modules[MODEL_SPEC.rsplit(".", 1)[0]], "_model_spec", module)
        return
    theirs = getattr(reference, "ModelSpecError", None)
    ours = op_records.ModelSpecError
    if isinstance(theirs, type) and issubclass(theirs, ValueError) and not issubclass(ours, theirs):
        both = type("ModelSpecError", (ours, theirs), {"__module__": ours.__module__, "__doc__": ours.__doc__})
        for module in (op_records, layer_block):
            if getattr(module, "ModelSpecError", None) is ours:
                module.ModelSpecError = both
