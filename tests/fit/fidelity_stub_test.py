#!/usr/bin/env python3
"""tools/fit/fidelity.py against a stand-in `oprec fit` (fake_oprec.py):
the last stage is compared, refusals are listed out of scope with their
message, --check passes on its own output and fails on a changed one, and
a binary without `fit` is skipped (77)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "fit", "fidelity.py")
FAKE = os.path.join(HERE, "fake_oprec.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, "--oprec", FAKE, *args], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        out, md = os.path.join(tmp, "f.json"), os.path.join(tmp, "f.md")
        with open(md, "w") as f:
            f.write("# doc\n\nkept text\n")
        r = run("--json", out, "--markdown", md)
        assert r.returncode == 0, r.stderr
        result = json.load(open(out))
        assert len(result["cases"]) == 77
        row = result["cases"][0]
        measured = row["measured_bytes"]
        assert row["reference"]["bytes"] == 2 * 1024 ** 3, row  # the LAST stage, not the peak (5 GiB)
        assert abs(row["reference"]["error"] - (2 * 1024 ** 3 - measured) / measured) < 1e-6
        assert row["calibrated"]["bytes"] == 3 * 1024 ** 3
        assert row["theoretical"]["bytes"] > 0
        refused = [o for o in result["out_of_scope"] if "fsdp" in o["case"]]
        assert {o["column"] for o in refused} == {"reference", "calibrated"}, refused
        assert "outside the model" in refused[0]["reason"]
        # Every case but the refused one and those the script lists out of scope itself.
        sys.path.insert(0, os.path.dirname(SCRIPT))
        from fidelity import OUT_OF_SCOPE  # noqa: E402
        assert result["summary"]["reference"]["cases"] == 76 - len(OUT_OF_SCOPE), result["summary"]
        doc = open(md).read()
        assert doc.startswith("# doc\n\nkept text\n") and "| case | GPUs | measured GiB |" in doc
        assert "Out of scope" in doc and "outside the model" in doc
        r = run("--markdown", md)  # rewriting replaces the section, keeps the rest
        assert open(md).read() == doc, "a second write changed the document"

        assert run("--check", out).returncode == 0
        result["cases"][3]["measured_bytes"] += 1
        json.dump(result, open(out, "w"))
        r = run("--check", out)
        assert r.returncode == 1 and "cases[3].measured_bytes" in r.stdout, r.stdout

    r = subprocess.run([sys.executable, SCRIPT, "--oprec", "/bin/false"], capture_output=True, text=True)
    assert r.returncode == 77, r.returncode
    print("fidelity stub: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
