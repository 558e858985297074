#!/usr/bin/env python3
"""rooflab's own cost on the GPU machine (bench/checks-h100.sh, step `cost`), from one script run:
counters per record beside Nsight Compute per kernel for the same metrics, the default config's wall
with its phase table, and the estimate against what each batch took. Prints PASS/FAIL per goal.

Usage: cost_summary.py WORKDIR   (WORKDIR holds cost-default/, cost-batch/, cost-walls.json, ncu-times.json)
"""
import json
import os
import statistics
import sys

work = sys.argv[1]
walls = json.load(open(os.path.join(work, "cost-walls.json")))
ncu = json.load(open(os.path.join(work, "ncu-times.json"))) if os.path.exists(os.path.join(work, "ncu-times.json")) else {}


def load(name):
    path = os.path.join(work, name, "results.json")
    return json.load(open(path)) if os.path.exists(path) else None


def verdict(ok):
    return "PASS" if ok else "FAIL"


lines = []
default = load("cost-default")
batch = load("cost-batch")

# ncu: the marginal wall per kernel between two numbers of launches, for each metric set.
ncu_per_kernel = {}
for metric_set, runs in ncu.items():
    ks = sorted(int(k) for k in runs["ncu"])
    if len(ks) >= 2:
        lo, hi = ks[0], ks[-1]
        profiled = (runs["ncu"][str(hi)] - runs["ncu"][str(lo)]) / (hi - lo)
        plain = (runs["plain"][str(hi)] - runs["plain"][str(lo)]) / (hi - lo)
        ncu_per_kernel[metric_set] = profiled - plain
        lines.append(f"cost: ncu {runs['metrics']} metrics ({metric_set}): {profiled - plain:.3f} s a kernel "
                     f"({lo} kernels {runs['ncu'][str(lo)]:.2f} s, {hi} kernels {runs['ncu'][str(hi)]:.2f} s)")

if default:
    by_mode = {}
    for r in default["records"]:
        c = r.get("counters") or {}
        if not c.get("cost") or not c.get("available"):
            continue
        by_mode.setdefault(r["mode"], []).append((r["phase_seconds"].get("counters", 0), c["cost"]))
    for mode, rows in sorted(by_mode.items()):
        seconds = [s for s, _ in rows]
        passes = [len(c["pass_seconds"]) for _, c in rows]
        pass_s = [p for _, c in rows for p in c["pass_seconds"]]
        parts = {k: statistics.mean(c[k] for _, c in rows) for k in
                 ("module_seconds", "setup_seconds", "timing_seconds", "readback_seconds", "config_seconds", "decode_seconds")}
        lines.append(f"cost: rooflab counters, {mode}: {len(rows)} records, median {statistics.median(seconds):.3f} s a record "
                     f"(mean {statistics.mean(seconds):.3f}), {statistics.mean(passes):.1f} passes a record, "
                     f"median {statistics.median(pass_s) if pass_s else 0:.4f} s a pass; means: "
                     + ", ".join(f"{k.replace('_seconds', '')} {v:.3f}" for k, v in parts.items())
                     + f"; session reused by {sum(1 for _, c in rows if c.get('session_reused'))}")
    originals = [s for s, _ in by_mode.get("normal", [])]
    mutants = [s for m in ("compute-only", "memory-only") for s, _ in by_mode.get(m, [])]
    # "-distinct": ncu meets every kernel once, as rooflab meets every record's program once.
    for suffix, how in (("", "the four kernels in turn"), ("-distinct", "a function of its own per launch")):
        if originals and "full" + suffix in ncu_per_kernel:
            ratio = statistics.median(originals) / ncu_per_kernel["full" + suffix]
            lines.append(f"cost: counters per original record {statistics.median(originals):.3f} s = {ratio:.2f} x ncu's "
                         f"{ncu_per_kernel['full' + suffix]:.3f} s a kernel for the same metrics, {how} (goal <= 0.5): "
                         f"{verdict(ratio <= 0.5)}")
        if mutants and "mutant" + suffix in ncu_per_kernel:
            ratio = statistics.median(mutants) / ncu_per_kernel["mutant" + suffix]
            lines.append(f"cost: counters per mutant record {statistics.median(mutants):.3f} s = {ratio:.2f} x ncu's "
                         f"{ncu_per_kernel['mutant' + suffix]:.3f} s a kernel for the mutant metrics, {how}: "
                         f"{verdict(ratio <= 0.5)}")
    ratios = [r["counters"].get("bridged_to_opencl_time_ratio") for r in default["records"]
              if r["mode"] == "normal" and r["counters"].get("bridged_to_opencl_time_ratio")]
    if ratios:
        lines.append(f"cost: bridged/OpenCL time, originals: median {statistics.median(ratios):.3f} "
                     f"(min {min(ratios):.3f}, max {max(ratios):.3f}): the kept profiler session must leave it near 1")
    wall = walls.get("default")
    lines.append(f"cost: default config wall {wall:.1f} s, {len(default['records'])} records, rc {walls.get('default_rc')} "
                 f"(goal < 30 s): {verdict(wall is not None and wall < 30 and walls.get('default_rc') == 0)}")
    for p in (default.get("cost") or {}).get("phases", []):
        lines.append(f"cost:   {p['name']:<26} {p['seconds']:7.2f} s  {p.get('detail', '')}")


def estimate_lines(name, results, wall):
    if not results or not (results.get("cost") or {}).get("estimate"):
        return [f"cost: {name}: no estimate recorded"]
    e = results["cost"]["estimate"]
    actual = e.get("actual_seconds")
    out = [f"cost: {name}: {len(results['records'])} points, took {actual:.1f} s after the first estimate "
           f"({wall:.1f} s wall in all)"]
    points = e["updates"][-1]["points_done"] if e["updates"] else 0
    checks = [("before the first point", e["initial_seconds"])]
    for share in (0.1, 0.25, 0.5):
        at = next((u for u in e["updates"] if u["points_done"] >= share * points), None)
        if at:
            checks.append((f"after {at['points_done']} points", at["elapsed_seconds"] + at["remaining_seconds"]))
    for label, estimate in checks:
        err = estimate / actual - 1 if actual else float("nan")
        out.append(f"cost: {name}: estimate {label}: {estimate:.1f} s, {err * 100:+.0f}% of actual")
    updated = next((est for label, est in checks if label.startswith("after")), None)
    if updated is not None and actual:
        err = updated / actual - 1
        out.append(f"cost: {name}: updated estimate (first tenth of the points) within 25% of actual: {verdict(abs(err) <= 0.25)}")
        err0 = e["initial_seconds"] / actual - 1
        out.append(f"cost: {name}: first estimate within 25% of actual: {verdict(abs(err0) <= 0.25)}")
    return out


lines += estimate_lines("default", default, walls.get("default", 0))
lines += estimate_lines("batch", batch, walls.get("batch", 0))
print("\n".join(lines))
