"""Argument errors in the package's words.

pybind11 refuses a call whose arguments do not convert with its own text
("incompatible function arguments. The following argument types are
supported: ...", C++ type names and all). Each public callable of the
compiled module is wrapped here: when pybind11 refuses a call, the wrapper
raises a TypeError naming the argument at fault and what it needs, from the
signature pybind11 writes into the docstring. A call that converts pays one
Python frame; nothing else changes.
"""
from __future__ import annotations

import functools
import numbers
import operator
import os
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

_REFUSED = ("incompatible function arguments", "incompatible constructor arguments")

# Words for the types pybind11 writes into signatures.
_WORDS = {
    "str": "a str",
    "int": "an int",
    "bool": "True or False",
    "float": "a number",
    "os.PathLike": "a path (a str or an os.PathLike)",
    "oprec._oprec.Records": "an oprec.Records",
    "oprec._oprec.Layer": "an oprec.Layer",
}


class _Param:
    def __init__(self, name: str, type_text: str, has_default: bool, keyword_only: bool) -> None:
        self.name, self.type_text, self.has_default, self.keyword_only = name, type_text, has_default, keyword_only


def _split(text: str) -> List[str]:
    """Top-level comma-separated pieces of a parameter list."""
    out, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        out.append(current.strip())
    return out


def _signature(doc: Optional[str]) -> Optional[List[_Param]]:
    m = re.match(r"(?:[\w.]+)?\((.*)\)( ->|$)", (doc or "").splitlines()[0] if doc else "")
    if not m:
        return None
    params: List[_Param] = []
    keyword_only = False
    for piece in _split(m.group(1)):
        if piece == "*":
            keyword_only = True
            continue
        if piece.startswith("**"):
            params.append(_Param("**", "", True, True))  # any keyword: only the positional count is checked
            continue
        if piece.startswith("*"):
            return None  # *args: nothing to check by position
        name, _, rest = piece.partition(":")
        type_text, eq, _default = rest.partition("=")
        params.append(_Param(name.strip(), type_text.strip(), bool(eq), keyword_only))
    return params


def _words(type_text: str) -> Optional[str]:
    if type_text.startswith("Optional[") and type_text.endswith("]"):
        inner = _words(type_text[len("Optional["):-1])
        return f"{inner} or None" if inner else None
    if type_text.startswith(("List[", "list[")):
        inner = _words(type_text[5:-1])
        return f"a list of {inner.split(' ', 1)[1]}s" if inner and " " in inner else "a list"
    return _WORDS.get(type_text)


def _fits(value: Any, type_text: str) -> bool:
    if type_text.startswith("Optional[") and type_text.endswith("]"):
        return value is None or _fits(value, type_text[len("Optional["):-1])
    if type_text.startswith(("List[", "list[")):
        return isinstance(value, (list, tuple)) and all(_fits(v, type_text[5:-1]) for v in value)
    if type_text == "str":
        return isinstance(value, str)
    if type_text == "int":  # what converts to a C++ int64_t: not a bool, not past 64 bits
        return (not isinstance(value, (float, bool)) and hasattr(value, "__index__")
                and -2 ** 63 <= operator.index(value) < 2 ** 63)
    if type_text == "bool":
        return isinstance(value, bool)
    if type_text == "float":
        return isinstance(value, numbers.Real)
    if type_text == "os.PathLike":
        return isinstance(value, (str, os.PathLike))
    if type_text.startswith("oprec._oprec."):
        return type(value).__name__ == type_text.rsplit(".", 1)[1]
    return True  # object, a mapping, a callable: the body checks it


def _got(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def explain(title: str, doc: Optional[str], args: Tuple[Any, ...], kwargs: Dict[str, Any], method: bool) -> str:
    """What is wrong with a call pybind11 refused, in our words."""
    params = _signature(doc)
    if params is None:
        return f"{title}: arguments not as it takes them"
    if method and params and params[0].name == "self":
        params, args = params[1:], args[1:]
    positional = [p for p in params if not p.keyword_only]
    if len(args) > len(positional):
        return f"{title}: takes at most {len(positional)} positional argument{'s' if len(positional) != 1 else ''}, got {len(args)}"
    if params and params[-1].name == "**":
        return f"{title}: arguments not as it takes them ({', '.join(p.name for p in params[:-1])}, **fields)"
    names = [p.name for p in params]
    for key in kwargs:
        if key not in names:
            return f"{title}: no argument `{key}` (it takes {', '.join(names) or 'none'})"
    given = {p.name: a for p, a in zip(positional, args)}
    for key, value in kwargs.items():
        if key in given:
            return f"{title}: `{key}` given twice"
        given[key] = value
    for p in params:
        if p.name not in given:
            if not p.has_default:
                return f"{title}: `{p.name}` is required"
            continue
        if not _fits(given[p.name], p.type_text):
            words = _words(p.type_text) or p.type_text

            label = ("the value" if not title.endswith(")")  # a property's setter
                     else f"argument {int(p.name[3:]) + 1}" if re.fullmatch(r"arg\d+", p.name) else f"`{p.name}`")
            value = given[p.name]
            past = isinstance(value, int) and not isinstance(value, bool) and not -2 ** 63 <= value < 2 ** 63
            return f"{title}: {label} needs {words}, got {_got(value)}{' (past 64 bits)' if past else ''}"
    return f"{title}: arguments not as it takes them ({', '.join(names)})"


def _wrap(function: Callable[..., Any], title: str, method: bool) -> Callable[..., Any]:
    doc = function.__doc__

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except TypeError as e:
            # Only this call's own refusal: raised by the compiled function
            # itself, no frame below this one. A TypeError from the caller's
            # code it ran (a config's property, a lookup) keeps its words.
            below = e.__traceback__.tb_next if e.__traceback__ is not None else None
            if below is not None or not any(r in str(e) for r in _REFUSED):
                raise
            message = explain(title, doc, args, kwargs, method)
        raise TypeError(message) from None

    return call


def wrap_function(function: Callable[..., Any], title: str) -> Callable[..., Any]:
    return _wrap(function, title, method=False)


def wrap_class(cls: type, public_name: str) -> None:
    """Every method, static method and property setter of a compiled class, wrapped."""
    for name, member in list(vars(cls).items()):
        if name.startswith("_") and name not in ("__init__", "__getitem__", "__setitem__", "__delitem__",
                                                 "__contains__", "__deepcopy__"):
            continue
        title = f"{public_name}()" if name == "__init__" else f"{public_name}.{name}()"
        if isinstance(member, staticmethod):
            setattr(cls, name, staticmethod(_wrap(member.__func__, title, method=False)))
        elif isinstance(member, property):
            if member.fset is not None:
                setattr(cls, name, property(member.fget, _wrap(member.fset, f"{public_name}.{name}", method=True),
                                            member.fdel, member.__doc__))
        elif callable(member):
            setattr(cls, name, _wrap(member, title, method=True))
