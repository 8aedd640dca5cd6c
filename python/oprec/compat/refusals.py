"""The reference's words for oprec's refusals, so that code matching them keeps working.

The reference's loader raises one ``ModelSpecError`` per refusal, worded its
own way ("op records have unknown keys ['extra']", "... uses Attribute, which
a record may not", "... names ['x'], which have no record"), and a caller may
match those words. The drop-in raises with oprec's diagnostics, each with
file:line:col and a code; :func:`message` puts the reference's words for each
diagnostic ahead of them: ``PLACE: WORDS [CODE]`` lines, then oprec's
rendering. The words follow docs/reference-python-api.md and
/work/shared/hp-api.md; tests: python/tests/test_compat_messages.py.
"""
from __future__ import annotations

import ast
import re
from typing import Any, Dict, Iterable, Optional, Sequence

# What a record's expression may hold (the reference's closed set).
_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name,
    ast.Constant, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
)
_CALLS = ("max", "min")
# A syntax error at one of these tokens is the node the reference names.
_TOKEN_NODES = {".": "Attribute", "[": "Subscript", "lambda": "Lambda", ":=": "NamedExpr", "{": "Dict",
                "await": "Await", "yield": "Yield", "*": "Starred", "is": "Is", "in": "In", "&": "BitAnd",
                "|": "BitOr", "^": "BitXor", "~": "Invert", "<<": "LShift", ">>": "RShift", "@": "MatMult"}


def expression_words(text: str) -> Optional[str]:
    """The reference's refusal of an expression's text, as Python's parser sees it;
    ``None`` where its closed set takes the text (oprec's refusal stands alone then)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        return f"{text!r} is not an expression: {e.msg}"
    for node in ast.walk(tree):  # the reference's order: breadth first
        if not isinstance(node, _NODES):
            return f"{text!r} uses {type(node).__name__}, which a record may not"
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in _CALLS or node.keywords:
                return f"{text!r} calls something other than max or min"
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            return f"{text!r} holds {node.value!r}, which is not a number"
    return None


def _names(message: str) -> Sequence[str]:
    return re.findall(r"`([^`]*)`", message)


def _first(message: str) -> str:
    found = _names(message)
    return found[0] if found else "?"


def problem_words(code: str, message: str, op_vector: Sequence[str], switches: Sequence[str],
                  parts: Sequence[str]) -> Optional[str]:
    """The reference's words for one of oprec's diagnostics, by its code; ``None`` where it has none."""
    names = _names(message)
    if code == "E0151":  # a key the reference's records do not have
        key = _first(message)
        if "defaults, ops, parts, slots" in message:
            return f"op records have unknown keys [{key!r}]"
        kind = "a slot" if "formula" in message else "a record"
        return f"{kind} has unknown keys [{key!r}]"
    if code == "E0104":
        return f"op records must state every op of {list(op_vector)}: missing [{_first(message)!r}]"
    if code == "E0103":
        if "needs" in message and len(names) >= 2:
            return f"op_records.ops.{names[0]}.needs must list ops of {tuple(op_vector)}, got [{names[1]!r}]"
        return f"op records must state every op of {list(op_vector)}: unknown [{_first(message)!r}]"
    if code == "E0105":
        return f"switch must be one of {list(switches)}, got {_first(message)!r}"
    if code == "E0106":
        return f"part must be one of {list(parts)}, got {_first(message)!r}"
    if code in ("E0101", "E0107") and names and names[0] in op_vector and message.startswith("part "):
        return f"op records' parts [{names[0]!r}] are named as ops"
    if code == "E0107":
        return (f"op_records.parts.{_first(message)} must name the op of {tuple(op_vector)} it is part of, "
                "and the switch that drops it")
    if code == "E0108" and len(names) >= 2:
        return f"op_records.slots.{names[0]}.ops names [{names[1]!r}], which have no record"
    if code == "E0109":
        return f"op_records.slots.{_first(message)}.formula must read total, what the slot's ops keep"
    if code == "E0110":
        return f"holds {message.split(' is not allowed', 1)[0]}, which is not a number"
    if code == "E0111":
        return f"calls {_first(message)}, something other than max or min"
    if code == "E0001":
        token = re.search(r"unexpected `([^`]*)`", message)
        node = _TOKEN_NODES.get(token.group(1)) if token else None
        if node:
            return f"uses {node}, which a record may not"
        return "is not an expression"
    if code == "E0115":
        return f"op records' defaults must map fields to numbers, got {_first(message)!r}"
    if code == "E0152":
        if "comm" in message:
            return "comm must be true or false"
        if "part_of" in message:
            return f"must name the op of {tuple(op_vector)} it is part of, and the switch that drops it"
        if "needs" in message:
            return f"needs must list ops of {tuple(op_vector)}"
        return None
    if code == "E0150":
        return "is not YAML"
    return None


def message(rendered: str, problems: Iterable[Dict[str, Any]], op_vector: Sequence[str],
            switches: Sequence[str], parts: Sequence[str], expression: Optional[str] = None,
            where: Optional[str] = None) -> str:
    """``PLACE: WORDS [CODE]`` for each error with the reference's words, then oprec's ``rendered``.

    For one expression (``expression``, named ``where``) the words are the
    reference's own message, as its parser would word it."""
    lines = []
    if expression is not None:
        words = expression_words(expression)
        codes = sorted({p["code"] for p in problems if p.get("severity") == "error"})
        if words:
            lines.append(f"{where or 'expr'}: {words}" + (f" [{', '.join(codes)}]" if codes else ""))
    else:
        for p in problems:
            if p.get("severity") != "error":
                continue
            words = problem_words(p["code"], p["message"], op_vector, switches, parts)
            if words:
                lines.append(f"{p['file']}:{p['line']}:{p['col']}: {words} [{p['code']}]")
    return "\n".join(lines + [rendered])
