"""Performance-targets summary: reads what bench/performance-h100.sh left in WORK and writes
OUTDIR/<date>-h100.json and OUTDIR/<date>-h100.md (targets, ratios, where the default run's time goes).
Usage: python3 bench/perf_summary.py WORK DATE OUTDIR"""
import collections
import json
import os
import sys


def load(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001
        return default if default is not None else {"error": f"{path}: {e}"}


work, date, outdir = sys.argv[1], sys.argv[2], sys.argv[3]
rungs = load(os.path.join(work, "rungs", "results.json"))
cuda = load(os.path.join(work, "cuda-baselines.json"))
torch = load(os.path.join(work, "torch-baselines.json"))
default = load(os.path.join(work, "default", "results.json"))
try:
    default_wall = float(open(os.path.join(work, "default-wall-seconds.txt")).read())
except Exception:  # noqa: BLE001
    default_wall = None
commit = open(os.path.join(work, "commit.txt")).read().strip() if os.path.exists(os.path.join(work, "commit.txt")) else "?"

device_model = rungs.get("models", {}).get("device", {})
dram_gbps = device_model.get("dram_gbps")
fp32_gflops = device_model.get("peak_gflops")

TUNING = ("BLOCK", "GROUPS", "LOADS", "WG", "VPI", "TILE", "BPI", "SLICES", "UNROLL")


def rung_rows():
    rows = []
    for r in rungs.get("records", []):
        if r.get("status") != "ok" or not r.get("timings"):
            rows.append({"family": r["family"], "variant": r["variant"], "params": r["params"], "error": r.get("error")})
            continue
        t = r["timings"]["kernel_ns"]["median"]
        rows.append({"family": r["family"], "variant": r["variant"], "params": r["params"], "median_ns": t,
                     "gflops": r["work"]["flops"] / t, "gbps": r["work"]["bytes"] / t,
                     "verified": r["verification"]["status"], "cv": r["timings"]["kernel_ns"].get("cv")})
    return rows


rows = rung_rows()


def best(family, n, key):
    cands = [x for x in rows if x["family"] == family and x["params"].get("N") == n and "median_ns" in x
             and x["verified"] == "passed"]
    return max(cands, key=lambda x: x[key]) if cands else None


def label(x):
    tuning = ", ".join(f"{k}={x['params'][k]:g}" for k in TUNING if k in x["params"])
    return x["variant"] + (f" ({tuning})" if tuning else "")


def torch_at(n, key):
    for s in torch.get("streams", []) if isinstance(torch, dict) else []:
        if s["N"] == n:
            return s[key]
    return None


def cuda_at(n, key):
    for s in cuda.get("streams", []) if isinstance(cuda, dict) else []:
        if s["N"] == n:
            return s[key]
    return None


targets = []


def target(name, rung, value, unit, reference, reference_value, goal):
    ratio = value / reference_value if (value is not None and reference_value) else None
    targets.append({"target": name, "rung": label(rung) if rung else None, "value": value, "unit": unit,
                    "reference": reference, "reference_value": reference_value, "ratio": ratio, "goal": goal,
                    "met": ratio is not None and ratio >= goal})


cublas = cuda.get("cublas_sgemm", {}).get("gflops") if isinstance(cuda, dict) else None
b = best("matmul", 4096, "gflops")
target("matmul N=4096 vs cuBLAS SGEMM (no TF32)", b, b and b["gflops"], "GFLOP/s", "cuBLAS SGEMM, same script", cublas, 0.80)
for n in (67108864, 134217728, 268435456):
    b = best("reduce", n, "gbps")
    if not b:
        continue
    target(f"reduce N=2^{n.bit_length() - 1} vs measured DRAM read", b, b["gbps"], "GB/s", "rooflab ceilings (same run)", dram_gbps, 0.95)
    if torch_at(n, "sum_gbps"):
        target(f"reduce N=2^{n.bit_length() - 1} vs torch.sum", b, b["gbps"], "GB/s", "torch.sum, same script", torch_at(n, "sum_gbps"), 0.95)
for n in (67108864, 268435456):
    b = best("vecadd", n, "gbps")
    if b:
        target(f"vecadd N=2^{n.bit_length() - 1} vs measured DRAM read", b, b["gbps"], "GB/s", "rooflab ceilings (same run)", dram_gbps, 0.95)
for n in (32768, 65536, 131072):
    b = best("nbody", n, "gflops")
    if b:
        target(f"nbody N={n} vs measured FP32 peak (20 flops/interaction)", b, b["gflops"], "GFLOP/s",
               "rooflab ceilings (same run)", fp32_gflops, 0.70)

# The cap on any n-body kernel (bench/results/2026-11-22-h100-nbody-instruction-cap): an interaction needs at least
# 12 FP32 instructions and one MUFU.RSQ, which issue at the probe's 12:1 rate at best.
probe = load(os.path.join(work, "issue-probe.json"))
nbody_cap = None
if isinstance(probe, dict) and "probes" in probe:
    # The fastest way the probe found to issue the 12:1 mix (MUFU results used at once or an iteration later).
    rate = max((p["warp_instructions_per_scheduler_per_ns"] for p in probe["probes"] if p["ffma_per_mufu"] == 12),
               default=None)
    if rate:
        interactions_per_s = rate * 1e9 * 4 * probe["sms"] * 32 / 13
        cap = 20 * interactions_per_s / 1e9
        best_nbody = max((t["value"] for t in targets if t["target"].startswith("nbody") and t["value"]), default=None)
        nbody_cap = {"ffma12_mufu1_warp_instructions_per_scheduler_per_ns": rate, "cap_gflops": cap,
                     "fp32_peak_gflops": fp32_gflops,
                     "cap_of_fp32_peak": cap / fp32_gflops if fp32_gflops else None,
                     "best_rung_of_cap": best_nbody / cap if best_nbody else None,
                     "nbody_cuda": probe.get("nbody_cuda")}

# Where the default run's time goes.
phases = collections.Counter()
by_family = collections.Counter()
by_mode = collections.Counter()
builds = 0.0
for r in default.get("records", []) if isinstance(default, dict) else []:
    ps = r.get("phase_seconds") or {}
    for k, v in ps.items():
        phases[k] += v
        by_family[r["family"]] += v
        by_mode[r["mode"]] += v
    builds += (r.get("build") or {}).get("seconds", 0.0)
ceilings_s = default.get("ceilings_seconds") if isinstance(default, dict) else None
accounted = sum(phases.values()) + (ceilings_s or 0)
default_summary = {"wall_seconds": default_wall, "goal_seconds": 60, "met": default_wall is not None and default_wall < 60,
                   "points": (default.get("summary") or {}).get("points") if isinstance(default, dict) else None,
                   "status": default.get("status") if isinstance(default, dict) else None,
                   "ceilings_seconds": ceilings_s, "phase_seconds": dict(phases), "of_which_opencl_builds": builds,
                   "build_threads": default.get("build_threads") if isinstance(default, dict) else None,
                   "by_family_seconds": dict(by_family), "by_mode_seconds": dict(by_mode),
                   "other_seconds": (default_wall - accounted) if default_wall else None}

summary = {"date": date, "commit": commit, "device": rungs.get("device", {}),
           "command": "bash bench/performance-h100.sh " + date,
           "ceilings": {"dram_read_gbps": dram_gbps, "fp32_gflops": fp32_gflops},
           "baselines": {"cuda": cuda, "torch": torch}, "nbody_issue_cap": nbody_cap, "targets": targets, "rungs": rows,
           "default_config": default_summary}
os.makedirs(outdir, exist_ok=True)
with open(os.path.join(outdir, f"{date}-h100.json"), "w") as f:
    json.dump(summary, f, indent=1)


def fmt(v, digits=0):
    return "-" if v is None else f"{v:,.{digits}f}"


def pct(ratio):
    return "-" if ratio is None else f"{100 * ratio:.1f}%"


dev = rungs.get("device", {})
md = [f"# Performance on the H100, {date}", "",
      f"Device: {dev.get('name', '?')}, driver {dev.get('driver_version', '?')}, {dev.get('opencl_version', '?')}. "
      f"Commit {commit}. Command: `bash bench/performance-h100.sh {date}` on the lent GPU machine; "
      f"every figure below is from that one script run (raw files in `{date}-h100/`). Medians of 30 timed runs "
      "(rooflab, OpenCL events) or 20 (baselines, CUDA events).", "",
      f"Ceilings measured by rooflab in the same run: DRAM read {fmt(dram_gbps)} GB/s, FP32 {fmt(fp32_gflops)} GFLOP/s.", "",
      "| target | best rung | value | reference | reference value | ratio | goal | met |", "|---|---|---|---|---|---|---|---|"]
for t in targets:
    md.append(f"| {t['target']} | {t['rung']} | {fmt(t['value'])} {t['unit']} | {t['reference']} | {fmt(t['reference_value'])} | "
              f"{fmt(t['ratio'] * 100 if t['ratio'] else None, 1)}% | {t['goal'] * 100:.0f}% | {'yes' if t['met'] else '**no**'} |")
if nbody_cap:
    md += ["", f"nbody's cap, from the issue probe in the same run (`bench/baselines/issue_probe.cu`): 12 FFMA per MUFU.RSQ "
           f"issue at {nbody_cap['ffma12_mufu1_warp_instructions_per_scheduler_per_ns']:.3f} warp instructions per scheduler per ns. "
           f"An interaction needs at least 12 FP32 instructions and one MUFU, so no n-body kernel can exceed "
           f"{fmt(nbody_cap['cap_gflops'])} GFLOP/s = {pct(nbody_cap['cap_of_fp32_peak'])} of the measured FP32 peak "
           f"(20 flops per interaction). The best rung reaches {pct(nbody_cap['best_rung_of_cap'])} of that cap "
           "([analysis](2026-11-22-h100-nbody-instruction-cap/README.md))."]
    if nbody_cap.get("nbody_cuda"):
        md.append("The same rung in CUDA (nvcc -use_fast_math): " + "; ".join(
            f"N={x['n']}: {x['gflops_20_per_interaction']:,.0f} GFLOP/s" for x in nbody_cap["nbody_cuda"]) + ".")
md += ["", f"Default config (`rooflab run --device gpu`: all modes, counters, ceilings, reports): "
       f"{fmt(default_wall, 1)} s wall for {default_summary['points']} points (goal < 60 s: "
       f"{'met' if default_summary['met'] else '**not met**'}).", "",
       "| where | seconds |", "|---|---|",
       f"| ceilings (measured at the start) | {fmt(ceilings_s, 1)} |"]
for k in ("prepare", "run", "verify", "counters"):
    md.append(f"| records: {k} | {fmt(phases.get(k), 1)} |")
build_threads = default.get("build_threads") if isinstance(default, dict) else None
if build_threads:
    md.append(f"| (OpenCL builds, on {build_threads} background threads while earlier records ran: sum of their own times) | {fmt(builds, 1)} |")
else:
    md.append(f"| (of prepare: OpenCL builds) | {fmt(builds, 1)} |")
md.append(f"| other (start-up, reports, bookkeeping) | {fmt(default_summary['other_seconds'], 1)} |")
md += ["", "By family: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(by_family.items())) +
       ". By mode: " + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(by_mode.items())) + ".", "",
       "## Every rung in the run", "", "| family | variant | params | median (us) | GFLOP/s | GB/s | verified |", "|---|---|---|---|---|---|---|"]
for x in rows:
    params = ", ".join(f"{k}={v:g}" for k, v in x["params"].items())
    if "median_ns" in x:
        md.append(f"| {x['family']} | {x['variant']} | {params} | {x['median_ns'] / 1e3:,.1f} | {x['gflops']:,.0f} | {x['gbps']:,.0f} | {x['verified']} |")
    else:
        md.append(f"| {x['family']} | {x['variant']} | {params} | error: {x.get('error')} | | | |")
if isinstance(cuda, dict) and "cublas_sgemm" in cuda:
    md += ["", "Baselines: cuBLAS SGEMM N=4096 " + fmt(cublas) + " GFLOP/s; " +
           "; ".join(f"N={s['N']}: CUB sum {s['cub_sum_gbps']:.0f} GB/s, copy {s['copy_gbps']:.0f}, add {s['add_gbps']:.0f}" for s in cuda.get("streams", []))]
if isinstance(torch, dict) and torch.get("available"):
    md.append("torch " + torch.get("torch", "") + ": " + "; ".join(f"N={s['N']}: sum {s['sum_gbps']:.0f} GB/s, add {s['add_gbps']:.0f} GB/s" for s in torch["streams"]))
with open(os.path.join(outdir, f"{date}-h100.md"), "w") as f:
    f.write("\n".join(md) + "\n")
print(f"wrote {outdir}/{date}-h100.json and .md")
