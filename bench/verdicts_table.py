#!/usr/bin/env python3
"""Verdicts side by side: each original's verdict, how its mutants were made (automatic or annotated) and
validated, and its mutant times, as Markdown. Usage: verdicts_table.py results.json"""
import json
import sys

doc = json.load(open(sys.argv[1]))
records = doc["records"]
by_key = {(r["family"], r["variant"], json.dumps(r["params"], sort_keys=True), r["mode"]): r for r in records}
print("| family/variant | mutants | validated by | verdict | t (µs) | compute-only (µs) | memory-only (µs) |")
print("|---|---|---|---|---|---|---|")
for r in records:
    if r["mode"] != "normal":
        continue
    key = (r["family"], r["variant"], json.dumps(r["params"], sort_keys=True))
    m = r.get("mutation") or {}
    comp = by_key.get(key + ("compute-only",), {})
    mem = by_key.get(key + ("memory-only",), {})
    origin = comp.get("mutant_origin") or mem.get("mutant_origin") or "-"
    validation = m.get("validation") or {}
    checks = []
    for mode in ("compute-only", "memory-only"):
        v = validation.get(mode) or {}
        if v:
            checks.append(f'{mode} {v.get("by", "?")}: {"ok" if v.get("valid") else "FAILED"}')
    us = lambda ns: f"{ns / 1000:.1f}" if ns else "-"
    print(f'| {r["family"]}/{r["variant"]} | {origin} | {"; ".join(checks) or "-"} | {m.get("verdict", "-")} '
          f'| {us(m.get("t_ns"))} | {us(m.get("t_comp_ns"))} | {us(m.get("t_mem_ns"))} |')
