#!/usr/bin/env python3
"""The `charts` step of bench/checks-h100.sh: every kernel on a chart (docs/charts.md), read from one
run's results.json and PNGs. Prints each transpose and matmul variant's coordinates on the
instruction roofline, the transpose ladder's bandwidth per level, nw_dp's integer operations counted
beside the manifest's, and one `charts: PASS|FAIL <check>: <why>` line per check.

Usage: python3 bench/charts_check.py OUT_DIR
"""
import json
import os
import sys

LEVELS = [("L1", "warp_instructions_per_l1_transaction"), ("L2", "warp_instructions_per_l2_transaction"),
          ("DRAM", "warp_instructions_per_dram_transaction"), ("shared", "warp_instructions_per_shared_transaction")]
ACCESSES = [("global ld", "global_load_sectors_per_request"), ("global st", "global_store_sectors_per_request"),
            ("shared ld", "shared_load_wavefronts_per_request"), ("shared st", "shared_store_wavefronts_per_request")]
# The bandwidth chart's levels: derived bytes and the model's roof for them.
BANDWIDTH = [("DRAM", "dram_bytes", "dram_gbps"), ("L2", "l2_bytes", "l2_gbps"), ("L1", "l1_global_bytes", "local_gbps"),
             ("local", "shared_bytes", "local_gbps")]


def fmt(value, digits=4):
    return "null" if value is None else f"{value:.{digits}g}"


def inverse(value):
    return 1 / value if value else None


def main(out_dir):
    results = json.load(open(os.path.join(out_dir, "results.json")))
    model = results["models"].get("device", {})
    normal = [r for r in results["records"] if r["mode"] == "normal"]
    by = {(r["family"], r["variant"]): r for r in normal}
    pngs = set(f for f in os.listdir(out_dir) if f.endswith(".png"))
    checks = []

    def check(name, ok, why):
        checks.append((name, ok, why))

    derived = lambda r, k: (r.get("counters") or {}).get("derived", {}).get(k)

    # The roofs.
    issue = model.get("warp_issue_gips")
    print(f"charts: roofs: issue {fmt(issue)} warp GIPS ({model.get('sources', {}).get('warp_issue_gips', 'no source')});"
          f" int32 {fmt(model.get('int32_gops'))} GOP/s; DRAM {fmt(model.get('dram_gbps'))}, L2 {fmt(model.get('l2_gbps'))},"
          f" local {fmt(model.get('local_gbps'))} GB/s")
    check("issue rate measured", issue is not None and "rooflab ceilings" in model.get("sources", {}).get("warp_issue_gips", "")
          and 0.85 <= issue / 1045.44 <= 1.02,
          f"{fmt(issue)} warp GIPS = {fmt((issue or 0) / 1045.44, 3)} of 132 SMs x 4 x 1980 MHz (expect 0.85-1.02)")

    # The instruction roofline: each variant's y and x at each level, its loads' and stores'.
    for family in ("transpose", "matmul"):
        print(f"charts: {family}: variant | warp GIPS | " + " | ".join(f"x {n}" for n, _ in LEVELS) + " | " +
              " | ".join(f"{n} per request (x)" for n, _ in ACCESSES))
        for r in (r for r in normal if r["family"] == family):
            cells = [fmt(derived(r, k), 3) for _, k in LEVELS]
            accesses = [f"{fmt(derived(r, k), 3)} ({fmt(inverse(derived(r, k)), 3)})" for _, k in ACCESSES]
            print(f"charts: {family}: {r['variant']} | {fmt(derived(r, 'warp_gips'))} | " + " | ".join(cells) + " | " +
                  " | ".join(accesses))
        placed = [r["variant"] for r in normal if r["family"] == family and derived(r, "warp_gips")
                  and sum(derived(r, k) is not None for _, k in LEVELS) >= 3]
        every = [r["variant"] for r in normal if r["family"] == family]
        check(f"{family} on the instruction roofline", every and placed == every and f"instructions-{family}.png" in pngs,
              f"{len(placed)} of {len(every)} variants with a rate and 3+ levels; instructions-{family}.png "
              f"{'written' if f'instructions-{family}.png' in pngs else 'missing'}")

    # The transpose ladder at its walls.
    x = lambda v, k: inverse(derived(by.get(("transpose", v), {}), k))
    tiled, padded = x("tiled", "shared_load_wavefronts_per_request"), x("tiled_padded", "shared_load_wavefronts_per_request")
    naive_st, naive_ld = x("naive", "global_store_sectors_per_request"), x("naive", "global_load_sectors_per_request")
    check("tiled at the bank-conflict wall", tiled is not None and tiled <= 1.25 / 32,
          f"shared loads at x = {fmt(tiled, 3)} (the 32-way wall: {1 / 32:.4f})")
    check("tiled_padded away from it", padded is not None and tiled is not None and padded >= 0.8,
          f"shared loads at x = {fmt(padded, 3)} (the conflict-free wall: 1), {fmt((padded or 0) / (tiled or 1), 3)}x tiled's")
    check("naive at the global-stride wall", naive_st is not None and naive_st <= 1.05 / 16,
          f"global stores at x = {fmt(naive_st, 3)} ({fmt(inverse(naive_st), 3)} sectors per request; 16-wide groups put "
          f"a sector under each pair of threads, the 1/32 wall one under each thread), loads at {fmt(naive_ld, 3)} (unit stride: 0.25)")

    # The transpose ladder on the bandwidth chart.
    print("charts: transpose bandwidth: variant | " + " | ".join(f"{n} GB/s (% of roof)" for n, _, _ in BANDWIDTH))
    for r in (r for r in normal if r["family"] == "transpose"):
        ns = (r.get("timings") or {}).get("kernel_ns", {}).get("median")
        cells = []
        for name, key, roof in BANDWIDTH:
            b, top = derived(r, key), model.get(roof)
            gbps = b / ns if b and ns else None
            cells.append(f"{fmt(gbps)} ({fmt(100 * gbps / top, 3) if gbps and top else 'null'}%)")
        print(f"charts: transpose bandwidth: {r['variant']} | " + " | ".join(cells))
    check("transpose on the bandwidth chart", "bandwidth-transpose.png" in pngs,
          f"bandwidth-transpose.png {'written' if 'bandwidth-transpose.png' in pngs else 'missing'}; "
          f"roofline-transpose.png {'written (integer work counted)' if 'roofline-transpose.png' in pngs else 'not written'}")

    # An integer kernel under the measured int32 roof, its operations counted beside the manifest's.
    int32_measured = "rooflab ceilings" in model.get("sources", {}).get("int32_gops", "")
    placed = []
    for r in (r for r in normal if r["family"] == "nw_dp"):
        counted, declared = derived(r, "integer_ops"), (r.get("work") or {}).get("flops")
        p, pc = r["roofline"].get("device", {}), r["roofline"].get("device_counters", {})
        print(f"charts: nw_dp {r['variant']} N={r['params'].get('N')}: integer ops counted {fmt(counted)}, manifest "
              f"{fmt(declared)} ({fmt(counted / declared if counted and declared else None, 3)}x); manifest's: "
              f"{fmt(p.get('achieved_gflops'))} GOP/s, {fmt(p.get('fraction_of_roof'), 3)} of roof; counted: intensity "
              f"{fmt(pc.get('intensity'), 3)} op/byte, {fmt(pc.get('achieved_gflops'))} GOP/s, "
              f"{fmt(pc.get('fraction_of_roof'), 3)} of roof, ridge {fmt(pc.get('ridge_intensity'), 3)}")
        if counted and pc.get("fraction_of_roof") is not None:
            placed.append(r["variant"])
    check("nw_dp under the measured int32 roof", int32_measured and len(placed) == 2 and "roofline-nw_dp.png" in pngs,
          f"int32 roof {'measured' if int32_measured else 'NOT measured'} ({fmt(model.get('int32_gops'))} GOP/s); "
          f"counted placements for {placed}")

    for name, ok, why in checks:
        print(f"charts: {'PASS' if ok else 'FAIL'} {name}: {why}")
    return 0 if all(ok for _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
