#!/usr/bin/env python3
"""The host link's H100 check (bench/checks-h100.sh, step `link`): rooflab's link ceilings beside CUDA's
pinned and pageable cudaMemcpy and beside clpeak's figures on the same driver; the launch latency; vecadd at 2^26
end to end per strategy, predicted beside measured; the overlap what-if's predicted gain beside the
measured one (PASS within 15%); matmul at N = 4096 end to end (PASS when
its best strategy's run is kernel-bound).
Usage: link_summary.py link-baseline.json results.json"""
import json
import sys

# Measured on an H100 with clpeak (the same OpenCL driver), GB/s and us.
CLPEAK = {"write": 7.5, "read": 10.3, "map_for_read": 24.0, "unmap_after_write": 50.5, "launch_us": 7.0}
GAIN_TOLERANCE = 0.15


def fit(points):
    """latency + bytes / bandwidth by least squares on relative error, as rooflab fits (weights 1/t^2)."""
    xs = [p["bytes"] for p in points]
    ys = [p["ms"] * 1e6 for p in points]
    w = [1 / (y * y) for y in ys]
    sw, sx, sy = sum(w), sum(a * b for a, b in zip(w, xs)), sum(a * b for a, b in zip(w, ys))
    sxx, sxy = sum(a * b * b for a, b in zip(w, xs)), sum(a * b * c for a, b, c in zip(w, xs, ys))
    slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
    return (sy - slope * sx) / sw, (1 / slope if slope > 0 else None)


def ms(ns):
    return "-" if ns is None else f"{ns / 1e6:.3f} ms"


base = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
ceilings = (doc.get("models") or {}).get("ceilings") or {}
print(f"link: device {base.get('device', base.get('error'))}")

print("link: CUDA cudaMemcpy (events), latency + bytes/bandwidth over 4 KiB .. 256 MiB; largest size's own rate:")
for way in ("pinned_h2d", "pinned_d2h", "pageable_h2d", "pageable_d2h"):
    points = base.get(way) or []
    if points:
        latency, gbps = fit(points)
        print(f"link:   cuda {way:13s} {gbps or 0:7.2f} GB/s fitted, {latency / 1e3:6.1f} us latency; "
              f"256 MiB at {points[-1]['gbps']:.2f} GB/s")

print("link: rooflab's ceilings (OpenCL events), beside clpeak's figures on the same driver:")
beside = {("copy", "host-to-device"): f"clpeak write {CLPEAK['write']}",
          ("copy", "device-to-host"): f"clpeak read {CLPEAK['read']}",
          ("copy-async", "host-to-device"): "cf. cuda pinned_h2d",
          ("copy-async", "device-to-host"): "cf. cuda pinned_d2h",
          ("map", "host-to-device"): f"clpeak unmap after write {CLPEAK['unmap_after_write']}",
          ("map", "device-to-host"): f"clpeak map for read {CLPEAK['map_for_read']}",
          ("alloc-host-ptr", "host-to-device"): f"clpeak unmap after write {CLPEAK['unmap_after_write']}",
          ("alloc-host-ptr", "device-to-host"): f"clpeak map for read {CLPEAK['map_for_read']}"}
for c in (ceilings.get("link") or {}).get("transfers", []):
    key = (c["strategy"], c["direction"])
    rate = "zero-copy" if c.get("zero_copy") else (f"{c['gbps']:.2f} GB/s" if c.get("gbps") else "-")
    latency = f"{c['latency_ns'] / 1e3:.1f} us" if c.get("latency_ns") is not None else "-"
    print(f"link:   rooflab {key[0]:15s} {key[1]:15s} {rate:>12s}, latency {latency:>9s}  ({beside.get(key, '')})"
          + (f" ERROR {c['error']}" if c.get("error") else ""))
launch = ceilings.get("launch") or {}
q = (launch.get("queued_to_start") or {}).get("median_ns")
b2b = (launch.get("back_to_back") or {}).get("median_ns")
print(f"link: launch latency (queued -> start) {q / 1e3 if q else float('nan'):.2f} us, back to back "
      f"{b2b / 1e3 if b2b else float('nan'):.2f} us a launch; clpeak {CLPEAK['launch_us']} us; "
      f"CUDA empty kernel between events {base.get('empty_kernel_event_us', float('nan')):.2f} us")

verdicts = []
for r in doc["records"]:
    e = r.get("end_to_end")
    if r["mode"] != "normal" or not e:
        continue
    kernel = (r.get("timings") or {}).get("kernel_ns", {}).get("median")
    print(f"link: {r['family']}/{r['variant']} N={r['params'].get('N')} end to end (kernel alone {ms(kernel)}):")
    for run in e["runs"]:
        name = run["strategy"] + (f" ({run['chunks']} chunks)" if run["strategy"] == "overlap" else "")
        if run.get("error"):
            print(f"link:   {name:20s} ERROR {run['error']}")
            continue
        m, p = run["median"], run.get("predicted") or {}
        ratio = m["total_ns"] / p["total_ns"] if p.get("total_ns") else None
        print(f"link:   {name:20s} measured {ms(m['total_ns']):>11s} predicted {ms(p.get('total_ns')):>11s}"
              f" ({'-' if ratio is None else f'{ratio:.2f}x'}); up {ms(m['upload_ns'])} launch {ms(m['launch_ns'])}"
              f" kernel {ms(m['kernel_ns'])} down {ms(m['download_ns'])} gaps {ms(m['gaps_ns'])};"
              f" {run['verification']['status']}; {run.get('bound_text')}")
    v = e.get("verdict") or {}
    print(f"link:   best: {v.get('summary')}")
    for w in e.get("overlap", []):
        pg, mg = w.get("predicted_gain"), w.get("measured_gain")
        ok = pg is not None and mg is not None and abs(mg / pg - 1) <= GAIN_TOLERANCE
        print(f"link:   overlap {w['chunks']} chunks: predicted gain {pg or float('nan'):.3f}x, measured "
              f"{mg or float('nan'):.3f}x: {'PASS' if ok else 'FAIL'} (within {GAIN_TOLERANCE:.0%})")
        if r["family"] == "vecadd" and w["chunks"] == 4:
            verdicts.append(("vecadd overlap gain (4 chunks)", ok))
    if r["family"] == "matmul":
        # Where the kernel dominates: the best strategy's run spends its largest part in the kernel.
        # The map strategies may not (NVIDIA's invalidating map uploads slowly at these sizes); each
        # run's bound is printed above.
        v = e.get("verdict") or {}
        verdicts.append((f"matmul/{r['variant']} kernel-bound end to end with its best strategy ({v.get('best')})",
                         v.get("bound") == "kernel"))
    failed = [run["strategy"] for run in e["runs"] if run.get("error") or run["verification"]["status"] == "failed"]
    verdicts.append((f"{r['family']}/{r['variant']} every strategy verified", not failed))
for what, ok in verdicts:
    print(f"link: {'PASS' if ok else 'FAIL'}: {what}")
