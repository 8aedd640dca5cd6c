"""README's Python section, run as written: each `print(...)  # value` line
prints that value."""
from __future__ import annotations

import contextlib
import io
import os
import re

from conftest import ROOT


def python_snippet() -> str:
    text = (ROOT / "README.md").read_text()
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "README has no Python snippet under '## From Python'"
    return match.group(1)


def test_readme_python_snippet_runs_as_written() -> None:
    snippet = python_snippet()
    expected = [line.split("#", 1)[1].strip() for line in snippet.splitlines() if line.startswith("print(")]
    assert expected, "the snippet prints nothing to check"
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(snippet, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue().splitlines() == expected
