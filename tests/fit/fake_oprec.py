#!/usr/bin/env python3
"""A stand-in for `oprec fit` (tools/fit/fidelity.py's test): fixed stages,
a refusal for Megatron-FSDP, the JSON schema of docs/fit.md."""
import json
import sys

args = sys.argv[1:]
if args[:1] != ["fit"]:
    sys.exit(2)
if "--help" in args:
    print("usage: oprec fit ...")
    sys.exit(0)
flags = open(args[args.index("--megatron-args") + 1]).read()
if "--use-megatron-fsdp" in flags:
    print("oprec fit: --use-megatron-fsdp is outside the model", file=sys.stderr)
    sys.exit(1)
last = 2 * 1024 ** 3 if args[args.index("--records") + 1] == "reference" else 3 * 1024 ** 3
stages = [{"stage": 0, "total_bytes": 5 * 1024 ** 3, "terms": {"weights": 1}},
          {"stage": 1, "total_bytes": last, "terms": {"weights": 1}}]
print(json.dumps({"stages": stages, "peak_bytes": 5 * 1024 ** 3, "peak_stage": 0,
                  "device_bytes": 80 * 1024 ** 3, "fits": True}))
