#!/usr/bin/env python3
"""Writes the markdown tables of bench/results/<dir>/README.md from the saved results JSON files,
so every figure quoted there can be traced to a file measured on the GPU."""
import json
import sys
from pathlib import Path


def load(path):
    return json.loads(Path(path).read_text())


def ms(ns):
    return "%.3f" % (ns / 1e6)


def records(doc, mode="normal"):
    return [r for r in doc["records"] if r["mode"] == mode]


def catalogue_table(docs):
    out = ["| family | variant | params | median (ms) | GFLOP/s | GB/s | verified (rel. L2 error) | counter FLOPs / analytic | counter DRAM bytes / analytic | bridged / OpenCL time |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for doc in docs:
        for r in records(doc):
            t = r["timings"]
            c = r["counters"]
            d = c.get("derived", {}) if c.get("available") else {}
            params = ", ".join("%s=%s" % (k, r["params"][k]) for k in r.get("param_order", r["params"].keys()) if k in r["params"])
            flops = r["work"]["flops"] or 0
            ratio_f = "%.4f" % (d["fp32_flops"] / flops) if d.get("fp32_flops") is not None and flops else "-"
            ratio_b = "%.3f" % (d["dram_bytes"] / r["work"]["bytes"]) if d.get("dram_bytes") is not None and r["work"]["bytes"] else "-"
            v = r["verification"]
            ver = v["status"] + (" (%.1e)" % v["rel_l2_error"] if v.get("rel_l2_error") is not None else "")
            bt = c.get("bridged_to_opencl_time_ratio")
            out.append("| %s | %s | %s | %s | %.0f | %.0f | %s | %s | %s | %s |" % (
                r["family"], r["variant"], params, ms(t["kernel_ns"]["median"]), t["gflops"] or 0, t["gbps"] or 0,
                ver, ratio_f, ratio_b, "%.3f" % bt if bt else "-"))
    return "\n".join(out)


def mutation_table(doc):
    out = ["| family | variant | t (ms) | t_mem (ms) | t_comp (ms) | verdict | speedup if memory free | if compute free | mutants validated by |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in records(doc):
        m = r.get("mutation") or {}
        if not m.get("t_ns"):
            continue
        val = m.get("validation", {})
        by = ", ".join("%s: %s %s" % (k, v.get("by"), "ok" if v.get("valid") else "REJECTED") for k, v in val.items())
        f = lambda x: ms(x) if x else "-"
        g = lambda x: "%.2f" % x if x else "-"
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["family"], r["variant"], f(m["t_ns"]), f(m.get("t_mem_ns")), f(m.get("t_comp_ns")), m["verdict"],
            g(m.get("speedup_if_memory_free")), g(m.get("speedup_if_compute_free")), by))
    return "\n".join(out)


def sweep_table(doc):
    variants, sizes, cell = [], [], {}
    for r in records(doc):
        n = r["params"]["N"]
        if r["variant"] not in variants:
            variants.append(r["variant"])
        if n not in sizes:
            sizes.append(n)
        cell[(r["variant"], n)] = r["timings"]["gflops"] if r["status"] == "ok" else None
    out = ["| variant | " + " | ".join("N=%d" % n for n in sizes) + " |", "|---|" + "---|" * len(sizes)]
    for v in variants:
        out.append("| %s | " % v + " | ".join("%.0f" % cell[(v, n)] if cell.get((v, n)) else "-" for n in sizes) + " |")
    return "\n".join(out)


def bridge_table(doc):
    out = ["| family | variant | OpenCL registers (ptxas log) | bridged registers | bridge compile | bridged / OpenCL time |",
           "|---|---|---|---|---|---|"]
    for r in records(doc):
        c = r["counters"]
        kernels = c.get("kernels", {})
        ocl = c.get("opencl_registers", {})
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            r["family"], r["variant"], ", ".join(str(ocl[k]) if k in ocl else "-" for k in kernels),
            ", ".join(str(v["registers_per_thread"]) for v in kernels.values()), c.get("jit_mode", "-"),
            "%.3f" % c["bridged_to_opencl_time_ratio"] if c.get("bridged_to_opencl_time_ratio") else "-"))
    return "\n".join(out)


def padding_table(doc):
    out = ["| family | variant | mode | kernel | original: registers, work-groups/SM | mutant: registers, work-groups/SM | pad bytes | matched | note |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in doc["records"]:
        p = r.get("occupancy_padding")
        if not p:
            continue
        for l in p.get("launches", []):
            o, m = l.get("original", {}), l.get("mutant", {})
            out.append("| %s | %s | %s | %s | %s, %s | %s, %s | %s | %s | %s |" % (
                r["family"], r["variant"], r["mode"], l["kernel"], o.get("registers_per_thread", "-"),
                o.get("work_groups_per_cu", "-"), m.get("registers_per_thread", "-"), m.get("work_groups_per_cu", "-"),
                l.get("pad_bytes", 0), "yes" if l.get("matched") else "no", l.get("note", "")))
    return "\n".join(out)


if __name__ == "__main__":
    kind, *files = sys.argv[1:]
    docs = [load(f) for f in files]
    print({"catalogue": lambda: catalogue_table(docs), "mutation": lambda: mutation_table(docs[0]),
           "sweep": lambda: sweep_table(docs[0]), "bridge": lambda: bridge_table(docs[0]),
           "padding": lambda: padding_table(docs[0])}[kind]())
