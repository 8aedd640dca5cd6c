#!/usr/bin/env python3
"""The stages reach only backwards: each folder of src/ may include its own
headers and those of the stages before it (CMakeLists.txt builds them in
this order), never a later stage's. Exits 1 naming each include that
reaches forward."""
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



def main(src):
    bad = []
    for stage in ORDER:
        for path in sorted((src / stage).glob("*.[hc]*")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = re.match(r'#include "([a-z_]+)/', line)
                if m and m.group(1) in ORDER and m.group(1) not in ALLOWED[stage]:
                    bad.append(f"{path}:{number}: {stage} includes {m.group(1)}/, a later stage")
    print("\n".join(bad) if bad else f"layering: ok ({len(ORDER)} stages)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "src")))
