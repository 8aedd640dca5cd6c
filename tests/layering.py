#!/usr/bin/env python3
"""The stages reach only backwards: each folder of src/ may include its own
headers and those of the stages before it (CMakeLists.txt builds them in
this order), never a later stage's. And the front doors stand on the public
API: the command (src/cli), the REPL (src/repl) and the Python module
(python/src) include no header of the engine's stages, but for the
exceptions named below. Exits 1
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
    # linter, the language server, import and export.
    "cli/load_options.h": {"check/loader.h"},
    "cli/cmd_convert.cpp": {"check/loader.h"},
}


SOURCE_SUFFIXES = {".h", ".hpp", ".cpp", ".cc", ".inl", ".ipp"}
INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]')


def includes(path, src):
    """(line number, header as a path under src/) for each #include in `path`,
    however it is spelt: <> or "", spaces after #, a path through `..`."""
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        header = m.group(1)
        if header.startswith("."):  # relative to the including file
            resolved = (path.parent / header).resolve()
            try:
                header = resolved.relative_to(src.resolve()).as_posix()
            except ValueError:
                continue  # outside src/
        out.append((number, header))
    return out


def sources(folder):
    return sorted(p for p in folder.rglob("*") if p.suffix in SOURCE_SUFFIXES)


def front_doors(root):
    """Includes of the engine from src/cli, src/repl and python/src, past
    the exceptions; and exceptions no longer used. Direct includes only:
    the tools the command runs (src/lint, src/lsp) stand on the checker."""
    bad = []
    src = root / "src"
    used = set()
    for folder in (src / "cli", src / "repl", root / "python" / "src"):
        for path in sources(folder):
            key = f"{folder.name}/{path.relative_to(folder).as_posix()}"
            allowed = FRONT_DOOR_EXCEPTIONS.get(key, set())
            for number, header in includes(path, src):
                if header.split("/")[0] not in ENGINE:
                    continue
                if header in allowed:
                    used.add((key, header))
                else:
                    bad.append(f"{path}:{number}: a front door includes {header}: use include/oprec")
    for key, headers in FRONT_DOOR_EXCEPTIONS.items():
        for header in sorted(headers):
            if (key, header) not in used:
                bad.append(f"tests/layering.py: the exception for {key} including {header} is no longer used")
    return bad


def main(src):
    bad = front_doors(src.resolve().parent)
    for stage in ORDER:
        for path in sources(src / stage):
            for number, header in includes(path, src):
                first = header.split("/")[0]
                if "/" in header and first in ORDER and first not in ALLOWED[stage]:
                    bad.append(f"{path}:{number}: {stage} includes {first}/, a later stage")
    print("\n".join(bad) if bad else f"layering: ok ({len(ORDER)} stages, the front doors on the API)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")))
