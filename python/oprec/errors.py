"""oprec's exceptions.

Each subclasses the Python exception the reference's code would raise for
the same fault, so ``except ZeroDivisionError`` or ``except KeyError`` in a
caller keeps working. A pricing error carries ``kind`` (``"division-by-zero"``,
...) and where in the records the formula is (``file``, ``line``, ``col``);
a records error carries every ``problems`` entry, each with its position.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List


class Error(Exception):
    """Every error oprec raises."""


class RecordsError(Error, ValueError):
    """Records that do not load or check; ``str()`` is the rendered diagnostics.

    ``problems`` lists each diagnostic as a dict: ``severity``, ``code``,
    ``message``, ``file``, ``line``, ``col``, ``rendered``.
    """

    problems: List[Dict[str, Any]] = []


class LayerError(Error, ValueError):
    """A layer document, field value or name that cannot be taken; says where and what."""


def in_python_words(e: LayerError) -> LayerError:
    """The engine names options as the command does (--first-stage-layers); say first_stage_layers,
    and a switch turned off (--no-sp) as its keyword is (sp=False)."""
    text = re.sub(r"(?<![\w/.-])--no-([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_") + "=False", str(e))
    return LayerError(re.sub(r"(?<![\w/.-])--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), text))


class PricingError(Error):
    """A pricing that raises as the reference's Python would.

    ``kind`` names the fault; ``file``, ``line``, ``col`` place the formula
    in the records (empty, 0 where unknown).
    """

    kind: str = ""
    file: str = ""
    line: int = 0
    col: int = 0

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DivisionByZero(PricingError, ZeroDivisionError):
    """A formula divides by zero (ZeroDivisionError)."""


class UnboundName(PricingError, NameError):
    """A name with no field, default or context value (NameError)."""


class MissingField(PricingError, AttributeError):
    """A formula reads a field the layer does not state (AttributeError, as reading a config would)."""


class PricingOverflow(PricingError, OverflowError):
    """An int past 64 bits or a float past its range (OverflowError)."""


class PricingTypeError(PricingError, TypeError):
    """Arithmetic on None, a string, ... (TypeError)."""


class UnknownSlot(PricingError, KeyError):
    """No such slot in the records (KeyError)."""


class UnknownOp(PricingError, KeyError):
    """No such op or part in the records (KeyError)."""
