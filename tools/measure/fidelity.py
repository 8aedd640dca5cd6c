#!/usr/bin/env python3
"""Regenerate the table of docs/fidelity.md (no torch needed).

For each case of cases.py: the paper's formula (Korthikanti et al. 2022,
Table 2), Megatron-LM's theoretical_memory_usage.py formula, the autograd
measurement kept in docs/fidelity-measurements.json (measure.py --write
makes it), and what `oprec eval` prices with the reference-exact records and
the calibrated ones. --check fails (exit 1) when the document's table is not
what the commands give today; --write rewrites it.
"""

import argparse
import difflib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import ROOT, cases, oprec_eval, priced  # noqa: E402

DOC = os.path.join(ROOT, "docs", "fidelity.md")
MEASUREMENTS = os.path.join(ROOT, "docs", "fidelity-measurements.json")
BEGIN = "<!-- table: tools/measure/fidelity.py --write regenerates it -->"
END = "<!-- end of table -->"
MiB = 1024 * 1024


def paper(f, mode):
    """Table 2, per layer, in bytes; None where the formula has no row for the case."""
    s, b, h, a, t = f["s"], f["b"], f["h"], f["a"], f["t"]
    sbh, scores = s * b * h, 5 * a * s / h
    return {"TP": sbh * (10 + 24 / t + scores / t), "TP+SP": sbh / t * (34 + scores),
            "TP+selective": sbh * (10 + 24 / t), "TP+SP+selective": sbh / t * 34,
            "full recompute": 2 * sbh}.get(mode, sbh / t * 34)  # flash attention: the scores recomputed


def megatron(f, mode):
    """theoretical_memory_usage.py, one layer: its SP formula under SP with
    selective recompute, its formula without SP otherwise (as it dispatches)."""
    s, b, h, t, hff = f["s"], f["b"], f["h"], f["t"], f["hff"]
    if f["sp"] > 1 and "selective" in mode:
        return s * b * h * (18 + 4 * hff / h) / t
    return s * b * h * (10 + 24 / t)


def percent(ratio, digits):
    text = f"{100 * (ratio - 1):+.{digits}f}%"
    return text.replace("-", "+") if float(text[:-1]) == 0 else text  # no -0.0%


def cell(value, measured):
    return f"{value / MiB:,.1f} ({percent(value / measured, 1)})"


def table(oprec):
    with open(MEASUREMENTS) as f:
        measured_all = json.load(f)["cases"]
    rows = ["| layer | mode | paper | Megatron-LM | autograd | reference-exact | calibrated | calibrated vs paper |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    worst_measured, worst_paper = 0.0, 0.0
    for name, model, mode, config, args in cases():
        default = priced(oprec_eval(oprec, config, args, "op_records"))[1]
        result = oprec_eval(oprec, config, args, "calibrated")
        calibrated = priced(result)[1]
        fields = result["layer_doc"]["fields"]
        measured = measured_all[name]["total"]
        holds = not model.startswith("Llama")  # the paper's GPT models
        p = paper(fields, mode)
        worst_measured = max(worst_measured, abs(calibrated / measured - 1))
        vs_paper = "outside its assumptions"
        if holds:
            worst_paper = max(worst_paper, abs(calibrated / p - 1))
            vs_paper = percent(calibrated / p, 2)
        rows.append(f"| {model} | {mode} | {cell(p, measured)}{'' if holds else ' †'} | "
                    f"{cell(megatron(fields, mode), measured)} | {measured / MiB:,.1f} | {cell(default, measured)} | "
                    f"{cell(calibrated, measured)} | {vs_paper} |")
    summary = (f"Largest error of the calibrated records: {100 * worst_measured:.2f}% against the autograd "
               f"measurement (every row), {100 * worst_paper:.2f}% against the paper's formula (its GPT models, "
               f"every mode).")
    return "\n".join([BEGIN, "", *rows, "", summary, "", END])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oprec", default=os.path.join(ROOT, "build", "oprec"), help="the oprec binary")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--check", action="store_true", help="fail if docs/fidelity.md's table is not today's")
    what.add_argument("--write", action="store_true", help="rewrite docs/fidelity.md's table")
    opts = parser.parse_args()

    with open(DOC) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{DOC}: no table markers ({BEGIN} ... {END})")
    head, rest = doc.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    new_doc = head + table(opts.oprec) + tail
    if opts.write:
        with open(DOC, "w") as f:
            f.write(new_doc)
        return
    if new_doc != doc:
        sys.stdout.writelines(difflib.unified_diff(doc.splitlines(True), new_doc.splitlines(True), DOC, "regenerated"))
        sys.exit(f"{DOC}: the table differs from what the commands give: run {os.path.relpath(__file__, ROOT)} --write")


if __name__ == "__main__":
    main()
