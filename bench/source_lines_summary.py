#!/usr/bin/env python3
"""Each original's hottest lines from a results file (docs/source-lines.md), as a Markdown table:
the line, its share of the attributed samples, its top stall reasons, and the source text."""
import json
import sys


def main(path, all_modes=False):
    doc = json.load(open(path))
    originals = {(r["family"], r["variant"]): r["source_files"] for r in doc.get("records", []) if r.get("source_files")}
    print("| variant | line | share | samples | top stalls | source |")
    print("|---|---|---|---|---|---|")
    for r in doc.get("records", []):
        if r.get("mode") != "normal" and not all_modes:
            continue
        name = f'{r["family"]}/{r["variant"]} ' + " ".join(f"{k}={v:g}" for k, v in r.get("params", {}).items())
        name += f' ({r.get("mode")})' if all_modes else ""
        sampling = r.get("line_sampling")
        if not sampling or not sampling.get("available"):
            print(f"| {name} | - | - | - | {(sampling or {}).get('reason', 'no line_sampling')} | |")
            continue
        files = {f["path"]: f["lines"] for f in originals.get((r["family"], r["variant"]), r.get("source_files", []))}
        attributed = sum(l["samples"] for l in sampling["lines"]) or 1
        for line in sampling["lines"][:3]:
            stalls = ", ".join(f'{s["reason"]} {100 * s["samples"] / line["samples"]:.0f}%' for s in line["stalls"][:3])
            text = files.get(line["file"], [])
            src = text[line["line"] - 1].strip() if 0 < line["line"] <= len(text) else ""
            print(f'| {name} | {line["file"]}:{line["line"]} | {100 * line["samples"] / attributed:.0f}% | '
                  f'{line["samples"]} | {stalls} | `{src.replace("|", "/")}` |')
        print(f'| {name} | total | | {sampling["total_samples"]} | unattributed {sampling["unattributed_samples"]}, '
              f'dropped {sampling["dropped_samples"]}, {sampling["seconds"]:.2f} s | |')


if __name__ == "__main__":
    main(sys.argv[1], "--all-modes" in sys.argv[2:])
