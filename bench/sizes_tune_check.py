"""The checks of bench/checks-h100.sh's steps `sizes` and `tune`, from the files the rooflab runs wrote.

  python3 bench/sizes_tune_check.py sizes DEFAULT_RESULTS.json SWEEP_FOLDER
      the sizes the embedded default chose on the GPU; the course's order along each ladder (matmul
      naive < tiled < blocked, reduce step1 < step4 < step7), a pair failing only when the later
      rung is slower beyond both medians' 95% intervals; each variant's half-plateau size of the
      vecadd and matmul sweep (rate-vs-size-<family>.csv).
  python3 bench/sizes_tune_check.py tune FOLDER
      for reduce and matmul, the guided search's best against the exhaustive one's (goal: within 3%
      using at most 25% of its evaluations), and the tuned matmul rung against torch's SGEMM without
      TF32 at N = 4096 (FOLDER/torch-sgemm.json, same script run).
Prints one line per figure and PASS or FAIL lines; exits 1 when a check fails."""
import csv
import json
import os
import sys

failed = False


def verdict(ok, text):
    global failed
    failed = failed or not ok
    print(("PASS " if ok else "FAIL ") + text)


def rate_interval(record, unit):
    t = record.get("timings") or {}
    median = (t.get("kernel_ns") or {}).get("median")
    interval = t.get("kernel_ns_interval") or {}
    work = record["work"]["flops"] if unit == "GFLOP/s" else record["work"]["bytes"]
    if not median:
        return None
    lower, upper = interval.get("lower") or median, interval.get("upper") or median
    return work / median, work / upper, work / lower  # rate, lowest, highest


def ladder(results, family, rungs, unit, info_first=False):
    by_variant = {r["variant"]: r for r in results["records"]
                  if r["family"] == family and r["mode"] == "normal" and r["status"] == "ok"}
    rates = []
    for name in rungs:
        r = by_variant.get(name)
        got = rate_interval(r, unit) if r else None
        if got is None:
            verdict(False, f"sizes: {family}/{name}: no measured record")
            return
        rates.append((name, got))
        print(f"sizes: {family}/{name} at {r['params']}: {got[0]:.1f} {unit} (95%: {got[1]:.1f} to {got[2]:.1f})")
    for i, ((a, ra), (b, rb)) in enumerate(zip(rates, rates[1:])):
        if rb[1] > ra[2]:
            word = "rises"
        elif rb[2] < ra[1]:
            word = "FALLS"
        else:
            word = "ties within noise"
        text = f"sizes: {family}: {a} -> {b}: x{rb[0] / ra[0]:.2f}, {word}"
        if info_first and i == 0:
            print("INFO " + text)  # the course's coalescing step, beside the ladder it checks
        else:
            verdict(word != "FALLS", text)


def sizes(default_json, sweep_folder):
    results = json.load(open(default_json))
    for c in results.get("size_choices", []):
        print(f"sizes: chosen {c['family']} {c['param']} = {c['value']:.0f} (limited by {c['limited_by']})")
    verdict(len(results.get("size_choices", [])) >= 4, "sizes: every family of the default config sized by its rule")
    ladder(results, "matmul", ["naive_uncoalesced", "naive_coalesced", "tiled16", "blocked128_8x8"], "GFLOP/s", info_first=True)
    ladder(results, "reduce", ["step1_interleaved_divergent", "step4_first_add", "step7_multiple_per_item"], "GB/s")
    for family in ("vecadd", "matmul"):
        path = os.path.join(sweep_folder, f"rate-vs-size-{family}.csv")
        if not os.path.exists(path):
            verdict(False, f"sizes: {path} missing")
            continue
        series = {}
        for row in csv.DictReader(open(path)):
            series.setdefault(row["variant"], row)
            series[row["variant"]]["_sizes"] = series[row["variant"]].get("_sizes", 0) + 1
        for variant, row in series.items():
            half = row["half_plateau_size"]
            ok = half != "" and row["half_below_range"] == "0"
            note = "; still rising at the largest size" if row["still_rising"] == "1" else ""
            verdict(ok, f"sizes: {family}/{variant}: plateau {float(row['plateau_rate']):.1f} {row['unit']}, "
                        f"half-plateau {row['param']} = {float(half):.0f}{note} ({row['_sizes']} sizes)" if half
                        else f"sizes: {family}/{variant}: no half-plateau size")


def tuning_of(folder):
    path = os.path.join(folder, "results.json")
    if not os.path.exists(path):
        return None
    results = json.load(open(path))
    return results["tuning"][0] if results.get("tuning") else None


def best_of(t):
    return t["configurations"][t["best"]] if t and t.get("best") is not None else None


def described(t, c):
    return " ".join(f"{d['name']}={v:g}" for d, v in zip(t["dimensions"], c["values"]))


def tune(folder):
    tuned = {}
    for family in ("reduce", "matmul"):
        ex, gu = tuning_of(os.path.join(folder, f"tune-{family}-exhaustive")), tuning_of(os.path.join(folder, f"tune-{family}-guided"))
        be, bg = best_of(ex), best_of(gu)
        if not be or not bg:
            verdict(False, f"tune: {family}: a search found no configuration (exhaustive {bool(be)}, guided {bool(bg)})")
            continue
        unit = ex["rate_unit"]
        print(f"tune: {family}: exhaustive best {described(ex, be)}: {be['median_ns'] / 1e3:.2f} us, {be['rate']:.1f} {unit} "
              f"({ex['evaluations']} of {ex['valid']} valid, {len(ex['configurations'])} in the space)")
        print(f"tune: {family}: guided best {described(gu, bg)}: {bg['median_ns'] / 1e3:.2f} us, {bg['rate']:.1f} {unit} "
              f"({gu['evaluations']} evaluations; stopped: {gu['stop_reason']})")
        if ex.get("baseline") is not None and ex["configurations"][ex["baseline"]].get("median_ns"):
            base = ex["configurations"][ex["baseline"]]
            print(f"tune: {family}: as written {described(ex, base)}: {base['median_ns'] / 1e3:.2f} us; "
                  f"exhaustive best x{base['median_ns'] / be['median_ns']:.3f}")
        within = bg["median_ns"] <= 1.03 * be["median_ns"]
        quarter = gu["evaluations"] <= 0.25 * ex["evaluations"]
        verdict(within and quarter, f"tune: {family}: guided best x{bg['median_ns'] / be['median_ns']:.3f} of the exhaustive "
                                    f"best's time (goal <= 1.03) in {gu['evaluations']} / {ex['evaluations']} = "
                                    f"{gu['evaluations'] / ex['evaluations']:.0%} of its evaluations (goal <= 25%)")
        tuned[family] = (ex, be, bg)
    sgemm_path = os.path.join(folder, "torch-sgemm.json")
    sgemm = json.load(open(sgemm_path)) if os.path.exists(sgemm_path) else {"available": False, "reason": "no file"}
    if "matmul" in tuned and sgemm.get("available"):
        ex, be, bg = tuned["matmul"]
        base = ex["configurations"][ex["baseline"]] if ex.get("baseline") is not None else None
        print(f"tune: torch SGEMM (cuBLAS, allow_tf32 {sgemm['allow_tf32']}) N={sgemm['N']}: {sgemm['gflops']:.0f} GFLOP/s")
        if base and base.get("rate"):
            print(f"tune: matmul as written (tile128_8x8_bk16_u2): {base['rate']:.0f} GFLOP/s = {base['rate'] / sgemm['gflops']:.3f} of SGEMM")
        for name, c in (("exhaustive", be), ("guided", bg)):
            print(f"tune: matmul tuned ({name}) {c['rate']:.0f} GFLOP/s = {c['rate'] / sgemm['gflops']:.3f} of SGEMM")
        verdict(be["rate"] >= (base["rate"] if base and base.get("rate") else 0) * 0.98,
                "tune: matmul: the tuned rung is at least as fast as the rung as written (within 2%)")
    elif "matmul" in tuned:
        print(f"tune: no SGEMM baseline: {sgemm.get('reason')}")


if __name__ == "__main__":
    if sys.argv[1] == "sizes":
        sizes(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "tune":
        tune(sys.argv[2])
    sys.exit(1 if failed else 0)
