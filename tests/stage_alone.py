#!/usr/bin/env python3
"""Compiles each header of src/ alone, against only the stages before its
own: checked (-fsyntax-only) with the build's own flags
(compile_commands.json) but with src/ replaced by a folder that holds only
the stages it may use (layering.ALLOWED). A header that reaches a later
stage, even through another header, then fails to compile, as does one that
does not stand alone. Source files are not compiled again: the build
compiles each, and what one includes directly is held by layering.py, what
it includes through a header by this check. Exits 1 naming each header that
does not compile."""
import concurrent.futures
import json
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from layering import ALLOWED, ORDER  # noqa: E402


def main(compile_commands, src, jobs):
    src = pathlib.Path(src).resolve()
    entries = json.load(open(compile_commands))
    # Each source file's own command line; a header takes the first of its stage's.
    flags, own = {}, {}
    for e in entries:
        path = pathlib.Path(e["file"]).resolve()
        if path.parent.parent != src or path.parent.name not in ORDER:
            continue
        args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
        kept, skip = [], False
        for a in args[1:]:
            if skip:
                skip = False
            elif a in ("-o", "-c"):
                skip = True
            elif a != str(path):
                kept.append(a)
        flags.setdefault(path.parent.name, (args[0], kept, e["directory"]))
        own[path] = (args[0], kept, e["directory"])
    with tempfile.TemporaryDirectory() as tmp:
        jobs_list = []
        for stage in ORDER:
            if stage not in flags:
                continue
            root = pathlib.Path(tmp) / stage
            root.mkdir()
            for allowed in ALLOWED[stage]:
                os.symlink(src / allowed, root / allowed)
            for path in sorted((src / stage).glob("*.h")):
                compiler, args, directory = own.get(path.resolve(), flags[stage])
                args = [f"-I{root}" if a == f"-I{src}" else a for a in args]
                jobs_list.append((stage, path, [compiler, *args, "-fsyntax-only", "-x", "c++", str(root / stage / path.name)], directory))

        def run(job):
            stage, path, command, directory = job
            r = subprocess.run(command, cwd=directory, capture_output=True, text=True)
            return stage, path, r.returncode, r.stderr

        failed = []
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for stage, path, code, err in pool.map(run, jobs_list):
                if code != 0:
                    failed.append(f"{path.relative_to(src.parent)} ({stage} alone):\n{err.strip()[:2000]}")
    print("\n".join(failed) if failed else f"stage_alone: ok ({len(jobs_list)} headers, {len(flags)} stages)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count()))
