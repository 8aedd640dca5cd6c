#!/usr/bin/env python3
"""Times the Python package (python/oprec) and writes the results in Google
Benchmark's JSON shape, for bench/targets.py --python:

  PYTHONPATH=build/python python3 bench/python_bench.py -o py-bench.json
  python3 bench/targets.py --python py-bench.json

CPU time (time.process_time_ns), the median of the repetitions: on a shared
machine wall time measures the queue. pytest-benchmark is not in Debian."""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Callable, Dict, List

import oprec
from oprec.compat import layer_block as lb

ROOT = Path(__file__).resolve().parents[1]


def per_call_ns(run: Callable[[int], None], n: int, repetitions: int) -> float:
    """The median over repetitions of the CPU ns per call of run(n) (n calls)."""
    run(max(1, n // 10))  # warm: the typed run, caches
    times: List[float] = []
    for _ in range(repetitions):
        start = time.process_time_ns()
        run(n)
        times.append((time.process_time_ns() - start) / n)
    return statistics.median(times)


def reprice(layer: oprec.Layer) -> Callable[[int], None]:
    def run(n: int) -> None:
        for i in range(n):
            layer["t"] = 8 if i & 1 else 4
            layer.total()
    return run


def drop_in(ccfg: SimpleNamespace, ctx: SimpleNamespace, change_t: bool) -> Callable[[int], None]:
    layer_bytes = lb.EvalRecords.layer_bytes

    def run(n: int) -> None:
        for i in range(n):
            if change_t:
                ccfg.t = 8 if i & 1 else 4
            layer_bytes(ccfg, ctx)
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--out", help="the JSON results file (default: stdout only)")
    parser.add_argument("--repetitions", type=int, default=5)
    args = parser.parse_args()

    records = oprec.Records()
    results: Dict[str, float] = {}
    for label in ("llama2-7b", "deepseek-v3-moe"):
        doc = ROOT / "examples" / f"{label}.json"
        layer = records.layer_file(doc)
        results[f"PY_Reprice/{label}"] = per_call_ns(reprice(layer), 200_000, args.repetitions)

        document = json.loads(doc.read_text())
        ccfg = SimpleNamespace(**document["fields"], rec_op=document.get("switches") or None)
        ctx_doc = document.get("context", {})
        ctx = SimpleNamespace(current_node=lb.LayerType[ctx_doc.get("node", "NOT_REC_LAYER")],
                              micro_factor=ctx_doc.get("micro_factor", 1),
                              dropless_tok_factor=ctx_doc.get("dropless_tok_factor", 1))
        results[f"PY_DropIn_LayerBytes/{label}"] = per_call_ns(drop_in(ccfg, ctx, False), 100_000, args.repetitions)
        results[f"PY_DropIn_LayerBytes_ChangeT/{label}"] = per_call_ns(drop_in(ccfg, ctx, True), 100_000,
                                                                       args.repetitions)

        axes = {"t": [1, 2, 4, 8] * 25, "cp": [1, 2, 4, 8, 16] * 20, "b": [1, 2, 3, 4] * 10}  # 400,000 layers
        points = 100 * 100 * 40
        results[f"PY_Grid/{label}"] = per_call_ns(lambda n: [layer.grid(axes) for _ in range(n)], 1,
                                                  args.repetitions) / points

    benchmarks = [{"name": name, "run_type": "iteration", "cpu_time": ns, "real_time": ns, "time_unit": "ns"}
                  for name, ns in results.items()]
    for b in benchmarks:
        print(f"  {b['name']:<45} {b['cpu_time']:10.1f} ns")
    if args.out:
        Path(args.out).write_text(json.dumps({"benchmarks": benchmarks}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
