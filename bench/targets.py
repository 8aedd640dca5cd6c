#!/usr/bin/env python3
"""Reads Google Benchmark's JSON (oprec_bench --benchmark_out) and `oprec bench
--format json`, and prints the speed targets (docs/performance.md) as ratios within
this one run, and the large lint's. With --python FILE (bench/python_bench.py's
results), the Python package's rows too; with --web FILE (ctest web_page's
build/web/web_bench.json), the web page's redraw; alone, only those.

CPU time throughout: on a shared machine wall time measures the queue."""
import json
import sys

REFERENCE_LAYER_NS = 48_000  # the Python reference's layer_bytes on typical configs


def python_rows(path, target):
    """The Python package's targets, from bench/python_bench.py."""
    runs = {b["name"]: b["cpu_time"] for b in json.load(open(path))["benchmarks"]}
    for label in ("llama2-7b", "deepseek-v3-moe"):
        reprice = runs.get(f"PY_Reprice/{label}")
        target(f"{label}: Python re-pricing of a bound layer after setting t",
               reprice / 1e3 if reprice else None, 2, " us")
        dropin = runs.get(f"PY_DropIn_LayerBytes/{label}")
        target(f"{label}: drop-in EvalRecords.layer_bytes(ccfg, ctx)", dropin / 1e3 if dropin else None, 5, " us")
        changed = runs.get(f"PY_DropIn_LayerBytes_ChangeT/{label}")
        target(f"{label}: the same, ccfg.t changed before each call", changed / 1e3 if changed else None, 5, " us")
        grid = runs.get(f"PY_Grid/{label}")
        target(f"{label}: Python batch (Layer.grid) throughput", 1e9 / grid if grid else None, 1_000_000,
               " layers/s", better="at least")


def print_rows(rows):
    width = max(len(r[0]) for r in rows)
    for what, value, limit, verdict in rows:
        print(f"  {what:<{width}}  {value:>16}  {limit:>14}  {verdict}")
    return 1 if any(r[3] == "MISSED" for r in rows) else 0


def make_target(rows):
    def target(what, value, limit, unit, better="below"):
        if value is None:
            rows.append((what, "not measured", f"{better} {limit}{unit}", "SKIP"))
            return
        ok = value < limit if better == "below" else value >= limit
        rows.append((what, f"{value:.3g}{unit}", f"{better} {limit}{unit}", "ok" if ok else "MISSED"))
    return target


def web_rows(path, target):
    """The web page's redraw time, from the browser test (ctest web_page writes
    build/web/web_bench.json): a control changed, the chart drawn again."""
    median = json.load(open(path)).get("redraw_ms_median")
    target("oprec serve: a control changed, the page redrawn (median)", median, 50, " ms")


def main(*args):
    args = list(args)
    python_json = web_json = None
    if "--python" in args:
        i = args.index("--python")
        python_json = args[i + 1]
        del args[i:i + 2]
    if "--web" in args:
        i = args.index("--web")
        web_json = args[i + 1]
        del args[i:i + 2]
    if not args:
        rows = []
        if python_json:
            python_rows(python_json, make_target(rows))
        if web_json:
            web_rows(web_json, make_target(rows))
        return print_rows(rows)
    return main_cpp(*args, python_json=python_json, web_json=web_json)


def main_cpp(bench_json, *oprec_bench_json, python_json=None, web_json=None):
    benchmarks = json.load(open(bench_json))["benchmarks"]
    runs = {b["name"]: b for b in benchmarks if b.get("run_type", "iteration") == "iteration"}
    # With --benchmark_repetitions, each benchmark's median over them.
    runs.update({b["run_name"]: b for b in benchmarks
                 if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"})

    # The least of the repetitions, where the benchmark computes it: shown
    # beside the targets, which are judged on the median.
    least = {b["run_name"]: b for b in benchmarks
             if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "min"}

    def ns(name, table=None):
        b = (runs if table is None else table).get(name)
        if b is None or b.get("error_occurred"):
            return None
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b["time_unit"]]
        # manual_time benchmarks report CPU time they measured themselves as real_time
        return b["cpu_time"] * scale if "manual_time" not in name else b["real_time"] * scale

    rows = []
    target = make_target(rows)

    # The whole rank (bench_fit.cpp): one fit through the API, and the
    # DeepSeek-V3 sweep over every strategy on 2,048 GPUs, end to end.
    for pp in (1, 16):
        fit = ns(f"BM_Fit_Api/{pp}")
        target(f"deepseek-v3 pp={pp}: one fit through the API", fit / 1e3 if fit else None, 20, " us")
    sweep = ns("BM_Fit_SweepDeepSeek_Process/iterations:3/manual_time")
    target("deepseek-v3: sweep --budget over 8,960 strategies on 2,048 GPUs", sweep / 1e9 if sweep else None, 2, " s")

    for layer, label in ((0, "llama2-7b"), (1, "deepseek-v3-moe")):
        records = ns(f"BM_Layer_Records/{layer}/0")
        native = ns(f"BM_Layer_Native/{layer}/0")
        target(f"{label}: layer through the records / hand-written", records / native if records and native else None, 2, "x")
        target(f"{label}: reference 48 us / layer through the records",
               REFERENCE_LAYER_NS / records if records else None, 200, "x", better="at least")
        records_min, native_min = ns(f"BM_Layer_Records/{layer}/0", least), ns(f"BM_Layer_Native/{layer}/0", least)
        if records_min and native_min:
            rows.append((f"{label}: the same, least of the repetitions",
                         f"{records_min / native_min:.3g}x, {REFERENCE_LAYER_NS / records_min:.3g}x", "", ""))
        search = ns(f"BM_Layer_Search/{layer}/0")
        if search:  # the same pricing, t and cp changed before each (the typed run's pins hold)
            rows.append((f"{label}: layer with t and cp changed before each pricing (a search)",
                         f"{search:.0f} ns = {REFERENCE_LAYER_NS / search:.3g}x the reference", "", ""))
        qr, qn = ns(f"BM_QkvSlot_Records/{layer}/0"), ns(f"BM_QkvSlot_Native/{layer}/0")
        if qr and qn:  # not a target: one slot alone pays a run's fixed costs
            rows.append((f"{label}: qkv slot through the records / hand-written", f"{qr / qn:.3g}x", "", ""))
        # Both from the layer document: all 256 settings against one pricing.
        settings, one = ns(f"BM_AllSwitchSettings/{layer}"), ns(f"BM_Layer_FromDocument/{layer}/1")
        target(f"{label}: all 256 switch settings / one pricing (from the document)",
               settings / one if settings and one else None, 4, "x")

    cold = ns("BM_LoadShippedRecords_Cold/iterations:40/manual_time")
    target("cold load and check of the shipped records", cold / 1e6 if cold else None, 5, " ms")
    for layer, label in ((0, "llama2-7b"), (1, "deepseek-v3-moe")):
        ev = ns(f"BM_EvalOneLayer_Process/{layer}/iterations:30/manual_time")
        target(f"oprec eval {label}, process start to exit (CPU)", ev / 1e6 if ev else None, 5, " ms")
    for layer, label in ((0, "llama2-7b"), (1, "deepseek-v3-moe")):
        for field, arg in (("t", 0), ("cp", 1)):
            reprice = ns(f"BM_Api_Reprice/{layer}/{arg}")
            target(f"{label}: API re-pricing after setting {field}", reprice, 300, " ns")
        report = ns(f"BM_Api_Report/{layer}")
        if report:
            rows.append((f"{label}: API full report (JSON)", f"{report / 1e3:.1f} us", "", ""))
    for arg, query in enumerate(("qkv", "layer", "h * s / t", "qkv only attMM")):
        target(f"REPL query `{query}` on a loaded layer, in process", (ns(f"BM_Repl_Query/{arg}") or 0) / 1e3
               if ns(f"BM_Repl_Query/{arg}") else None, 50, " us")
    repl = runs.get("BM_Repl_ResidentMemory/iterations:5/manual_time")
    target("REPL peak resident memory", repl.get("max_rss_MB") if repl and not repl.get("error_occurred") else None, 30, " MB")
    # The linter's target: "well under a second".
    lint = ns("BM_Lint_10000Slots/iterations:3/manual_time")
    target("lint of a 10,000-slot records file", lint / 1e6 if lint else None, 1000, " ms")
    for arg, what in ((0, "a 10,000-slot records file"), (1, "a 10 MB expression on one line (refused)")):
        b = runs.get(f"BM_Parse_HeapPerInputByte/{arg}/iterations:1/manual_time")
        if b and not b.get("error_occurred") and "heap_bytes_per_input_byte" in b:  # docs/limits.md
            rows.append((f"parser's peak memory per input byte: {what}",
                         f"{b['heap_bytes_per_input_byte']:.1f} bytes", "", ""))
    load = ns("BM_Load_10000Slots/iterations:3/manual_time")
    if load is not None:
        rows.append(("load and check of a 10,000-slot records file", f"{load / 1e6:.0f} ms", "", ""))
    for kind, what in ((0, "an instruction that does almost nothing"), (1, "an independent float product"),
                       (2, "a float product chained to the one before")):
        b = runs.get(f"BM_RegisterDispatch/{kind}")
        if b and not b.get("error_occurred") and "per_instr" in b:  # where a layer's run spends its time
            rows.append((f"register run: {what}", f"{b['per_instr'] * 1e9:.2f} ns", "", ""))
    jsonl = runs.get("BM_EvalJsonl_Throughput/2000/iterations:5/manual_time")
    target("oprec eval --jsonl --format json throughput", jsonl["items_per_second"]
           if jsonl and not jsonl.get("error_occurred") else None, 50_000, " layers/s", better="at least")

    # The language server: a keystroke and the request after it, round trip
    # through the real `oprec lsp` (wall time: the server's whole answer).
    for arg, what in ((0, "inlay hints"), (1, "hover"), (2, "completion"), (3, "semantic tokens")):
        b = runs.get(f"BM_Lsp_KeystrokeThenRequest/{arg}/iterations:200/manual_time")
        ok = b and not b.get("error_occurred")
        target(f"oprec lsp: keystroke, then {what} (median)", ns(f"BM_Lsp_KeystrokeThenRequest/{arg}/iterations:200/manual_time") / 1e6
               if ok else None, 50, " ms")
        if ok and "worst_ms" in b:
            rows.append((f"oprec lsp: keystroke, then {what} (worst of 200)", f"{b['worst_ms']:.3g} ms", "", ""))

    if python_json:
        python_rows(python_json, target)
    if web_json:
        web_rows(web_json, target)
    return print_rows(rows)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
