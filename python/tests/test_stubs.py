"""The stubs (_oprec.pyi) name what the compiled module has: every class, function and method."""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Dict, List, Optional, Set

import oprec._oprec as compiled

STUB = Path(__file__).resolve().parents[1] / "oprec" / "_oprec.pyi"


def stub_names() -> Dict[str, Set[str]]:
    """Top-level names and, for each class, its members."""
    tree = ast.parse(STUB.read_text())
    out: Dict[str, Set[str]] = {"": set()}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out[""].add(node.name)
        if isinstance(node, ast.AnnAssign):  # a module constant (CONTEXT_NAMES)
            out[""].add(node.target.id)  # type: ignore[union-attr]
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id  # type: ignore[union-attr]
                              for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
    return out


DUNDERS = ("__init__", "__getitem__", "__setitem__", "__delitem__", "__contains__", "__len__", "__iter__",
           "__copy__", "__deepcopy__")


def public(obj: object) -> Set[str]:
    return {n for n in vars(obj) if not n.startswith("_") or n in DUNDERS}


def test_stubs_name_every_class_and_function() -> None:
    stubs = stub_names()
    module = {n for n in vars(compiled) if not n.startswith("_")}
    assert stubs[""] == module
    for name in module:
        if isinstance(getattr(compiled, name), type):
            assert stubs[name] - {"__init__"} == public(getattr(compiled, name)) - {"__init__"}, name


def stub_signatures() -> Dict[str, List[str]]:
    """Each stubbed function's and method's parameter names (self aside), keyed "Class.name" or "name"."""
    tree = ast.parse(STUB.read_text())
    out: Dict[str, List[str]] = {}

    def params(f: ast.FunctionDef) -> List[str]:
        a = f.args
        names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        return names[1:] if names and names[0] == "self" else names

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = params(node)
        elif isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and not f.decorator_list:
                    out[f"{node.name}.{f.name}"] = params(f)
    return out


def compiled_signature(obj: object) -> Optional[List[str]]:
    """The parameter names pybind11 writes into the docstring's first line (self aside);
    None where it has none or names them only arg0, arg1, ... (a lambda's)."""
    doc = getattr(obj, "__doc__", None) or ""
    m = re.match(r"\w+\((.*)\) ->", doc.splitlines()[0] if doc else "")
    if not m:
        return None
    names = []
    depth, current = 0, ""
    for ch in m.group(1) + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            name = current.strip().split(":")[0].strip()
            if name and name != "self" and not name.startswith("*"):  # *args, **kwargs aside
                names.append(name)
            current = ""
        else:
            current += ch
    if any(re.fullmatch(r"arg\d+", n) for n in names):
        return None
    return names


def test_stub_signatures_name_the_modules_parameters() -> None:
    compared = 0
    for key, stubbed in stub_signatures().items():
        owner, _, name = key.rpartition(".")
        obj = getattr(getattr(compiled, owner) if owner else compiled, name)
        got = compiled_signature(obj)
        if got is None:
            continue
        assert got == stubbed, key
        compared += 1
    assert compared > 20
