#!/usr/bin/env python3
"""The stages reach only backwards: each folder of src/ may include its own
headers and those of the stages before it (CMakeLists.txt builds them in
this order), never a later stage's. And the front doors stand on the public
API: the command (src/cli) and the Python module (python/src) include no
header of the engine's stages, but for the exceptions named below. Exits 1
naming each include that breaks either rule."""
import pathlib
import re
import sys

ORDER = ["diag", "value", "syntax", "format", "yaml", "code", "check", "convert", "eval", "model", "hf", "rank", "api",
         "lint", "repl", "lsp", "serve", "cli"]
# lint needs the loader and the linter's own analyses, not the evaluator.
ALLOWED = {stage: set(ORDER[: i + 1]) for i, stage in enumerate(ORDER)}
ALLOWED["lint"] = {"diag", "value", "syntax", "format", "yaml", "code", "check", "lint"}
# The web page's server stands on the public API (include/oprec) alone.
ALLOWED["serve"] = {"serve"}

# The engine: what the public API (include/oprec, built from src/api) wraps.
ENGINE = {"syntax", "code", "check", "eval", "model", "hf", "rank", "api"}
# Where a front door may reach past the API, and why.
FRONT_DOOR_EXCEPTIONS = {
    # The debug switches (--tier, --dump): not for embedders, so not in include/oprec.
    "cli/cmd_eval.cpp": {"api/debug.h"},
    "cli/cmd_calc.cpp": {"api/debug.h"},
    # The tools that stand on the checker load records through it: the
    # linter, the language server, the REPL (src/repl), import and export.
    "cli/load_options.h": {"check/loader.h"},
    "cli/cmd_convert.cpp": {"check/loader.h"},
}


def front_doors(root):
    """Includes of the engine from src/cli and python/src, past the exceptions."""
    bad = []
    for folder in (root / "src" / "cli", root / "python" / "src"):
        for path in sorted(folder.glob("*.[hc]*")):
            allowed = FRONT_DOOR_EXCEPTIONS.get(f"{folder.name}/{path.name}", set())
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = re.match(r'#include "(([a-z_]+)/[^"]+)"', line)
                if m and m.group(2) in ENGINE and m.group(1) not in allowed:
                    bad.append(f"{path}:{number}: a front door includes {m.group(1)}: use include/oprec")
    return bad


def main(src):
    bad = front_doors(src.resolve().parent)
    for stage in ORDER:
        for path in sorted((src / stage).glob("*.[hc]*")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = re.match(r'#include "([a-z_]+)/', line)
                if m and m.group(1) in ORDER and m.group(1) not in ALLOWED[stage]:
                    bad.append(f"{path}:{number}: {stage} includes {m.group(1)}/, a later stage")
    print("\n".join(bad) if bad else f"layering: ok ({len(ORDER)} stages, the front doors on the API)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")))
