"""Shared helpers: the repository's paths and the golden data's encoding."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict

import pytest

ROOT = Path(os.environ.get("OPREC_SOURCE_DIR") or Path(__file__).resolve().parents[2])

# tests/pip_test.sh runs the suite against a pip-installed package: the one it names is imported.
if os.environ.get("OPREC_INSTALLED"):
    import oprec

    assert Path(oprec.__file__).parent == Path(os.environ["OPREC_INSTALLED"]), oprec.__file__
GOLDEN = ROOT / "tests" / "golden"


def load_golden(name: str) -> Dict[str, Any]:
    with open(GOLDEN / name) as f:
        return json.load(f)


def matches(expected: Dict[str, Any], got: Any) -> bool:
    """Whether a Python value is the golden encoding's, to the bit and the type."""
    t = expected.get("type")
    if t == "float":
        return type(got) is float and float.hex(got) == float.hex(float.fromhex(expected["hex"]))
    if t == "int":
        return type(got) is int and str(got) == expected["repr"]
    if t == "bool":
        return type(got) is bool and repr(got) == expected["repr"]
    if t == "str":
        return got == expected["repr"]
    if t == "dict":
        return (isinstance(got, dict) and list(got) == [k for k, _ in expected["items"]]
                and all(matches(v, got[k]) for k, v in expected["items"]))
    return False


def describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}" + (f" [{float.hex(value)}]" if type(value) is float else "")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
