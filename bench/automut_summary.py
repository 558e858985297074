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
originals = []  # (variant, its verdict, both mutants valid by counters)
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
    validations = [(m.get("validation") or {}).get(mode) or {} for mode in ("compute-only", "memory-only")]
    originals.append((f'{r["family"]}/{r["variant"]}', m.get("verdict", "-"),
                      all(v.get("valid") is True and v.get("by") == "counters" for v in validations)))
    for mode in ("compute-only", "memory-only"):
        v = (m.get("validation") or {}).get(mode)
        if v is not None:
            tally.append((f'{r["family"]}/{r["variant"]} {mode}', v.get("valid") is True and v.get("by") == "counters"))
invalid = [name for name, valid in tally if not valid]
print(f"tally: {len(tally) - len(invalid)} of {len(tally)} mutants valid by counters;",
      "invalid or not by counters: " + ", ".join(invalid) if invalid else "PASS")
# A verdict is a reading of the mutants' times; "unknown" (a time missing, a mutant invalid or far
# slower than its kernel) and "overhead-dominated" (too short to read) are not.
no_verdict = [f"{name} ({verdict})" for name, verdict, _ in originals
              if verdict in ("-", "unknown", "overhead-dominated")]
both_valid = sum(1 for _, _, valid in originals if valid)
print(f"verdicts: {len(originals) - len(no_verdict)} of {len(originals)} variants"
      f" ({100.0 * (len(originals) - len(no_verdict)) / max(len(originals), 1):.0f}%);"
      f" both mutants valid by counters: {both_valid} of {len(originals)}"
      f" ({100.0 * both_valid / max(len(originals), 1):.0f}%)"
      + ("; no verdict: " + ", ".join(no_verdict) if no_verdict else ""))
