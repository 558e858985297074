#!/usr/bin/env python3
"""Do the ceilings bound every rung: the H100 checks over one bench/checks-h100.sh run (steps
ceilings, torch, rungs).

Usage: ceilings_figures.py DIR   (DIR holds ceilings-<i>.log, clocks-ceilings.csv,
torch-baselines.json and rungs/results.json). Prints each figure and whether it holds; exits 1 when
one does not.
  1. the DRAM read ceiling at or above every rung's achieved DRAM bandwidth (performance config);
  2. the DRAM copy ceiling at least 0.98 x torch's device copy (read + write) of the same run;
  3. FP32 at least 0.98 x 132 SMs x 128 lanes x 2 flops x the SM clock measured during the ceilings
     (the highest sample while the GPU was busy: the strictest reading);
  4. each ceiling's spread over the 5 runs, (max - min) / median, below 1%.
"""
import glob
import json
import os
import re
import statistics
import sys

ROWS = {"DRAM copy (read+write)": "dram_copy", "DRAM read": "dram_read", "DRAM write": "dram_write",
        "FP32 multiply-add": "fp32", "local memory read": "local_read"}


def ceiling_runs(folder):
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "ceilings-*.log"))):
        figures = {}
        for line in open(path):
            for label, key in ROWS.items():
                m = re.match(re.escape(label) + r"\s+([0-9.]+) (GB/s|GFLOP/s)", line)
                if m:
                    figures[key] = float(m.group(1))
        runs.append(figures)
    return runs


def busy_sm_clock_mhz(folder):
    path = os.path.join(folder, "clocks-ceilings.csv")
    if not os.path.exists(path):
        return None, 0
    clocks = []
    for line in open(path):
        parts = [p.strip() for p in line.split(",")]
        try:
            sm, power = float(parts[1]), float(parts[3])
        except (IndexError, ValueError):
            continue
        if power > 200:  # busy: the idle H100 draws about 70 W
            clocks.append(sm)
    return (max(clocks) if clocks else None), len(clocks)


def main(folder):
    ok = True
    runs = ceiling_runs(folder)
    print(f"ceilings runs: {len(runs)}")
    for key in ROWS.values():
        values = [r[key] for r in runs if key in r]
        if not values:
            continue
        spread = (max(values) - min(values)) / statistics.median(values)
        holds = spread < 0.01 and len(values) >= 5
        ok &= holds
        print(f"  {key:10s} runs {', '.join(f'{v:.1f}' for v in values)}  spread {100 * spread:.2f}%"
              f"  {'ok' if holds else 'FAILS (< 1% over 5 runs)'}")
    best_read = min(r["dram_read"] for r in runs)  # the check must hold for every run
    best_copy = min(r["dram_copy"] for r in runs)
    fp32 = min(r["fp32"] for r in runs)

    records = json.load(open(os.path.join(folder, "rungs", "results.json")))["records"]
    fastest = max((r for r in records if r.get("status") == "ok" and r.get("mode") == "normal"),
                  key=lambda r: r["timings"]["gbps"])
    holds = best_read >= fastest["timings"]["gbps"]
    ok &= holds
    params = ", ".join(f"{k}={v}" for k, v in fastest["params"].items())
    print(f"1. DRAM read ceiling (lowest of the runs) {best_read:.1f} GB/s; fastest rung "
          f"{fastest['family']}/{fastest['variant']} ({params}) {fastest['timings']['gbps']:.1f} GB/s: "
          f"{'ok' if holds else 'FAILS'}")

    torch = json.load(open(os.path.join(folder, "torch-baselines.json")))
    torch_copy = max(s["copy_gbps"] for s in torch["streams"])
    holds = best_copy >= 0.98 * torch_copy
    ok &= holds
    print(f"2. DRAM copy ceiling {best_copy:.1f} GB/s = {best_copy / torch_copy:.3f} x torch device copy "
          f"{torch_copy:.1f} GB/s: {'ok' if holds else 'FAILS (< 0.98)'}")

    clock, samples = busy_sm_clock_mhz(folder)
    if clock is None:
        print("3. FP32: no SM clock sample while busy: FAILS")
        ok = False
    else:
        peak = 132 * 128 * 2 * clock / 1000.0
        holds = fp32 >= 0.98 * peak
        ok &= holds
        print(f"3. FP32 {fp32:.1f} GFLOP/s = {fp32 / peak:.4f} x 132 x 128 x 2 x {clock:.0f} MHz "
              f"(highest of {samples} busy clock samples) = {peak:.1f}: {'ok' if holds else 'FAILS (< 0.98)'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
