#!/usr/bin/env python3
"""The automatic mutants' H100 check: each unannotated original's automatic mutants, their
validation by counters and the verdict, one line per original. Usage: automut_summary.py results.json"""
import json
import sys

doc = json.load(open(sys.argv[1]))
records = doc["records"]
mutants = {(r["family"], r["variant"], json.dumps(r["params"], sort_keys=True), r["mode"]): r
           for r in records if r["mode"] != "normal"}
tally = []  # (mutant, valid by counters)
for r in records:
    if r["mode"] != "normal":
        continue
    key = (r["family"], r["variant"], json.dumps(r["params"], sort_keys=True))
    m = r.get("mutation") or {}
    parts = [f'{r["family"]}/{r["variant"]}', f'status={r["status"]}', f'verdict={m.get("verdict", "-")}']
    for mode in ("compute-only", "memory-only"):
        mut = mutants.get(key + (mode,), {})
        v = (m.get("validation") or {}).get(mode) or {}
        parts.append(f'{mode}: {mut.get("status", "absent")} origin={mut.get("mutant_origin", "-")} '
                     f'by={v.get("by", "-")} {v.get("quantity", "")} {v.get("original", "-")}->{v.get("mutant", "-")} '
                     f'valid={v.get("valid", "-")}')
    print(" | ".join(parts))
    for note in m.get("notes", []):
        print("    note:", note)
    for mode in ("compute-only", "memory-only"):
        v = (m.get("validation") or {}).get(mode)
        if v is not None:
            tally.append((f'{r["family"]}/{r["variant"]} {mode}', v.get("valid") is True and v.get("by") == "counters"))
invalid = [name for name, valid in tally if not valid]
print(f"tally: {len(tally) - len(invalid)} of {len(tally)} mutants valid by counters;",
      "invalid or not by counters: " + ", ".join(invalid) if invalid else "PASS")
