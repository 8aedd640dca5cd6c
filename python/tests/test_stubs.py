"""The stubs (_oprec.pyi) name what the compiled module has: every class, function and method."""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Set

import oprec._oprec as compiled

STUB = Path(__file__).resolve().parents[1] / "oprec" / "_oprec.pyi"


def stub_names() -> Dict[str, Set[str]]:
    """Top-level names and, for each class, its members."""
    tree = ast.parse(STUB.read_text())
    out: Dict[str, Set[str]] = {"": set()}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            out[""].add(node.name)
        if isinstance(node, ast.ClassDef):
            out[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id  # type: ignore[union-attr]
                              for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
    return out


def public(obj: object) -> Set[str]:
    return {n for n in vars(obj) if not n.startswith("_") or n in ("__init__", "__getitem__", "__setitem__",
                                                                    "__delitem__", "__contains__", "__len__", "__iter__",
                                                                    "__copy__",
                                                                    "__deepcopy__")}


def test_stubs_name_every_class_and_function() -> None:
    stubs = stub_names()
    module = {n for n in vars(compiled) if not n.startswith("_")}
    assert stubs[""] == module
    for name in module:
        if isinstance(getattr(compiled, name), type):
            assert stubs[name] - {"__init__"} == public(getattr(compiled, name)) - {"__init__"}, name
