#!/usr/bin/env python3
"""Whole-rank accuracy of `oprec fit` against Megatron-LM's measured peaks.

For each case of tests/fit/megatron_cases.json (Megatron-LM's functional
tests: the launch flags and the peak torch.cuda allocated bytes of the last
rank, which sits in the last pipeline stage), writes the flags to a
temporary file and runs

    OPREC fit --megatron-args FILE --gpus N --records R --format json

for each record set R (reference, calibrated), comparing the LAST stage's
total_bytes with the measured peak; beside them Megatron's own estimate
(tools/fit/megatron_theoretical.py, a port of theoretical_memory_usage.py).
Prints a markdown table (for docs/fidelity.md) and the same as JSON.

  fidelity.py [--oprec PATH]                 print the table and the JSON
  fidelity.py --json OUT --markdown OUT.md   also write them (OUT.md: between
                                             the markers below when it has them)
  fidelity.py --write                        write tests/fit/fidelity.json and
                                             docs/fidelity.md's whole-rank table
  fidelity.py --check FILE                   exit 1 when a fresh run differs from FILE

A case is out of scope when `oprec fit` exits non-zero (its message is the
reason) or when OUT_OF_SCOPE below names it; it is listed, not counted.
Exit 77 (ctest's skip) when the oprec binary has no `fit` command.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from megatron_theoretical import theoretical  # noqa: E402

CASES = os.path.join(ROOT, "tests", "fit", "megatron_cases.json")
JSON_OUT = os.path.join(ROOT, "tests", "fit", "fidelity.json")
DOC = os.path.join(ROOT, "docs", "fidelity.md")
BEGIN = "<!-- whole-rank table: tools/fit/fidelity.py --write regenerates it -->"
END = "<!-- end of whole-rank table -->"
RECORDS = ["reference", "calibrated"]
GiB = 1024 ** 3
SKIP = 77

# Cases the model does not cover, with the reason: id -> reason. (Cases the
# fit command refuses are found by running it; list here only those it
# prices but should not be judged on.)
OUT_OF_SCOPE = {
    "moe/gpt3_mcore_te_tp2_pp2_ep4_etp1_selective_recompute_experimental/golden_values_dev_dgx_h100.json": (
        "multi-latent attention, a multi-token prediction layer, selective recompute of named modules "
        "(layernorm, mla_up_proj, mlp, moe_act) and a layout with unequal chunks in one case: no term of "
        "either record set is validated for these"),
}


def flags_text(model_args):
    """A case's flags as a launch file: one flag a line, shell-quoted, continued."""
    lines = []
    for flag, value in model_args.items():
        if value is True:
            lines.append(flag)
        elif value is False or value is None:
            continue
        else:
            lines.append(f"{flag} {shlex.quote(value if isinstance(value, str) else json.dumps(value))}")
    return " \\\n".join(lines) + "\n"


def has_fit(oprec):
    try:
        r = subprocess.run([oprec, "fit", "--help"], capture_output=True, text=True, timeout=30)
    except OSError:
        return False
    return r.returncode == 0


def run_fit(oprec, path, gpus, records):
    """(bytes of the last stage, None) or (None, the refusal's message)."""
    cmd = [oprec, "fit", "--megatron-args", path, "--gpus", str(gpus), "--records", records, "--format", "json"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "oprec fit took over 120 s"
    if r.returncode != 0:
        message = (r.stderr.strip() or r.stdout.strip() or f"exit {r.returncode}").splitlines()[0]
        return None, message.replace(path, "FLAGS")
    try:
        doc = json.loads(r.stdout)
        return int(doc["stages"][-1]["total_bytes"]), None
    except (ValueError, KeyError, IndexError, TypeError) as e:
        return None, f"unreadable JSON from oprec fit: {e}"


def error(estimate, measured):
    return round((estimate - measured) / measured, 6)


def summarise(errors):
    if not errors:
        return {"cases": 0}
    absolute = [abs(e) for e in errors]
    return {"cases": len(errors), "median_abs_error": round(statistics.median(absolute), 6),
            "max_abs_error": round(max(absolute), 6), "within_5pct": sum(a <= 0.05 for a in absolute),
            "within_15pct": sum(a <= 0.15 for a in absolute)}


def evaluate(oprec, cases_path):
    with open(cases_path) as f:
        doc = json.load(f)
    columns = RECORDS + ["theoretical"]
    rows, out_of_scope = [], []
    errors = {c: [] for c in columns}
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(doc["cases"]):
            measured = int(case["measured"]["max_allocated_bytes_max"])
            row = {"id": case["id"], "case": case["case"], "num_gpus": case["num_gpus"], "measured_bytes": measured}
            path = os.path.join(tmp, f"case{i}.sh")
            with open(path, "w") as f:
                f.write(flags_text(case["model_args"]))
            for records in RECORDS:
                if case["id"] in OUT_OF_SCOPE:
                    value, reason = None, OUT_OF_SCOPE[case["id"]]
                else:
                    value, reason = run_fit(oprec, path, case["num_gpus"], records)
                if value is None:
                    row[records] = None
                    out_of_scope.append({"id": case["id"], "case": case["case"], "column": records, "reason": reason})
                else:
                    row[records] = {"bytes": value, "error": error(value, measured)}
                    errors[records].append(row[records]["error"])
            try:
                value = int(round(theoretical(case["model_args"], case["num_gpus"])["total_bytes"]))
                row["theoretical"] = {"bytes": value, "error": error(value, measured)}
                errors["theoretical"].append(row["theoretical"]["error"])
            except (ValueError, KeyError, ZeroDivisionError, TypeError) as e:
                row["theoretical"] = None
                out_of_scope.append({"id": case["id"], "case": case["case"], "column": "theoretical",
                                     "reason": f"theoretical_memory_usage.py port: {e}"})
            rows.append(row)
    return {
        "source": doc["source"],
        "compared": "each figure vs measured.max_allocated_bytes_max; oprec fit's LAST stage's total_bytes "
                    "(the logging rank is in the last pipeline stage); Megatron's theoretical figure is its "
                    "most-loaded (first) stage, as it reports",
        "columns": columns,
        "cases": rows,
        "summary": {c: summarise(errors[c]) for c in columns},
        "out_of_scope": out_of_scope,
    }


def gib(value):
    return f"{value / GiB:.3f}"


def markdown(result):
    head = ["case", "GPUs", "measured GiB"]
    for c in result["columns"]:
        name = "Megatron theoretical" if c == "theoretical" else c
        head += [f"{name} GiB", "error"]
    lines = ["| " + " | ".join(head) + " |", "|---|---:|---:|" + "---:|---:|" * len(result["columns"])]
    for row in result["cases"]:
        cells = [row["case"], str(row["num_gpus"]), gib(row["measured_bytes"])]
        for c in result["columns"]:
            cell = row.get(c)
            cells += ["—", "out of scope"] if cell is None else [gib(cell["bytes"]), f"{100 * cell['error']:+.1f}%"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "| column | cases | median abs error | max abs error | within 5% | within 15% |",
              "|---|---:|---:|---:|---:|---:|"]
    for c in result["columns"]:
        s = result["summary"][c]
        name = "Megatron theoretical" if c == "theoretical" else c
        if s["cases"] == 0:
            lines.append(f"| {name} | 0 | — | — | — | — |")
        else:
            lines.append(f"| {name} | {s['cases']} | {100 * s['median_abs_error']:.1f}% | "
                         f"{100 * s['max_abs_error']:.1f}% | {s['within_5pct']} | {s['within_15pct']} |")
    if result["out_of_scope"]:
        lines += ["", "Out of scope (not counted above):", ""]
        for o in result["out_of_scope"]:
            lines.append(f"- `{o['case']}` ({o['column']}): {o['reason']}")
    return "\n".join(lines) + "\n"


def write_markdown(path, text):
    """The table between the markers; a document without them gains them at its end."""
    section = BEGIN + "\n" + text + END + "\n"
    doc = ""
    if os.path.exists(path):
        with open(path) as f:
            doc = f.read()
    if BEGIN in doc and END in doc:
        before, rest = doc.split(BEGIN, 1)
        doc = before + section + rest.split(END, 1)[1].lstrip("\n")
    else:
        doc = doc + ("\n" if doc and not doc.endswith("\n") else "") + ("\n" if doc else "") + section
    with open(path + ".tmp", "w") as f:  # never a half-written document
        f.write(doc)
    os.replace(path + ".tmp", path)


def differences(fresh, kept, where="", out=None):
    """Paths where two JSON values differ, at most 20."""
    out = [] if out is None else out
    if len(out) >= 20:
        return out
    if isinstance(fresh, dict) and isinstance(kept, dict):
        for k in sorted(set(fresh) | set(kept)):
            differences(fresh.get(k), kept.get(k), f"{where}.{k}", out)
    elif isinstance(fresh, list) and isinstance(kept, list) and len(fresh) == len(kept):
        for i, (a, b) in enumerate(zip(fresh, kept)):
            differences(a, b, f"{where}[{i}]", out)
    elif fresh != kept:
        out.append(f"{where or '.'}: now {json.dumps(fresh)[:120]}, kept {json.dumps(kept)[:120]}")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oprec", default=os.path.join(ROOT, "build", "oprec"), help="the oprec binary")
    parser.add_argument("--cases", default=CASES, help="the measured cases (tests/fit/megatron_cases.json)")
    parser.add_argument("--json", help="write the JSON here")
    parser.add_argument("--markdown", help="write the markdown here (between the whole-rank markers if present)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help=f"write {os.path.relpath(JSON_OUT, ROOT)} and "
                                                          f"{os.path.relpath(DOC, ROOT)}'s whole-rank table")
    what.add_argument("--check", metavar="FILE", help="exit 1 when a fresh run differs from this JSON")
    ns = parser.parse_args()

    if not has_fit(ns.oprec):
        print(f"fidelity: {ns.oprec} has no `fit` command: skipped", file=sys.stderr)
        return SKIP
    result = evaluate(ns.oprec, ns.cases)
    if ns.check:
        with open(ns.check) as f:
            kept = json.load(f)
        diff = differences(result, kept)
        if diff:
            print(f"fidelity: a fresh run differs from {ns.check} (tools/fit/fidelity.py --write regenerates it):")
            print("\n".join(diff))
            return 1
        print(f"fidelity: {len(result['cases'])} cases as {ns.check} has them")
        return 0
    text = markdown(result)
    print(text)
    print(json.dumps(result["summary"], indent=1))
    json_path, md_path = (JSON_OUT, DOC) if ns.write else (ns.json, ns.markdown)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    if md_path:
        write_markdown(md_path, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
