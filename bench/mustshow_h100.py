#!/usr/bin/env python3
"""Issue 17's H100 must-show, from one bench/checks-h100.sh run (steps ceilings torch rungs, then
mustshow): prints each figure the issue asks for beside its bound, and PASS or FAIL.

  - the DRAM read ceiling of the rungs run against every rung's achieved DRAM bandwidth;
  - the DRAM copy ceiling against 0.98 x torch's device copy (read + write bytes);
  - the FP32 ceiling against 0.98 x 132 SMs x 128 lanes x 2 FLOP x the SM clock sampled during the run;
  - the spread of each ceiling over the five `rooflab ceilings` runs, against 1%.

Usage: python3 bench/mustshow_h100.py DIR   (DIR: the step folder, $OUT/<tag>)
"""
import glob
import json
import os
import re
import statistics
import sys

directory = sys.argv[1]
failures = 0


def verdict(ok, text):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + text)


results = json.load(open(os.path.join(directory, "rungs", "results.json")))
benchmarks = {b["name"]: b for b in results["models"]["ceilings"]["benchmarks"]}
dram_read = benchmarks["dram_read"]["gbps"]
for record in results["records"]:
    if record["mode"] != "normal" or record["status"] != "ok" or not record["timings"]:
        continue
    gbps = record["timings"].get("gbps")
    if gbps is None:
        continue
    params = ",".join(f"{k}={v}" for k, v in record["params"].items())
    verdict(dram_read >= gbps, f"DRAM read ceiling {dram_read:.0f} GB/s >= {record['family']}/{record['variant']} "
                               f"{params}: {gbps:.0f} GB/s ({gbps / dram_read:.1%})")

torch = json.load(open(os.path.join(directory, "torch-baselines.json")))
torch_copy = max(s["copy_gbps"] for s in torch["streams"])
dram_copy = benchmarks["dram_copy"]["gbps"]
verdict(dram_copy >= 0.98 * torch_copy,
        f"DRAM copy ceiling {dram_copy:.0f} GB/s >= 0.98 x torch device copy {torch_copy:.0f} GB/s "
        f"({dram_copy / torch_copy:.1%})")

clock = (results.get("host") or {}).get("gpu_sm_clock_mhz")
if clock:
    sm_mhz = clock["max"]
    clock_source = f"NVML during the rungs run, {clock['min']:.0f}-{clock['max']:.0f} MHz"
else:  # nvidia-smi's maximum SM clock: the current one at the script's start is an idle clock
    text = open(os.path.join(directory, "nvidia-smi.txt")).read().splitlines()[1]
    sm_mhz = float(re.findall(r"(\d+) MHz", text)[1])
    clock_source = "nvidia-smi's maximum SM clock (no NVML samples: " + \
        str((results.get("host") or {}).get("gpu_sm_clock_unavailable")) + ")"
fp32 = benchmarks["fp32_fma"]["gflops"]
fp32_bound = 0.98 * 132 * 128 * 2 * sm_mhz / 1000
verdict(fp32 >= fp32_bound, f"FP32 ceiling {fp32:.0f} GFLOP/s >= 0.98 x 132 x 128 x 2 x {sm_mhz:.0f} MHz = "
                            f"{fp32_bound:.0f} GFLOP/s (clock: {clock_source})")

runs = sorted(glob.glob(os.path.join(directory, "ceilings-*.toml")))
for key in ("dram_gbps", "peak_gflops", "local_gbps"):
    values = []
    for path in runs:
        match = re.search(rf"^{key}\s*=\s*([0-9.eE+-]+)", open(path).read(), re.M)
        if match:
            values.append(float(match.group(1)))
    if len(values) < 2:
        print(f"---- {key}: {len(values)} runs, no spread")
        continue
    spread = (max(values) - min(values)) / statistics.median(values)
    verdict(spread < 0.01, f"{key} over {len(values)} ceilings runs: {', '.join(f'{v:.1f}' for v in values)}; "
                           f"spread (max - min) / median {spread:.2%} < 1%")

print(f"{failures} check(s) failed" if failures else "all checks passed")
sys.exit(1 if failures else 0)
