#!/usr/bin/env bash
# Points per second at the start and at the end of a long sweep of a trivial kernel on PoCL: recording
# a point must cost the same for the 20,000th as for the 10th (the goal: the end within 80% of
# the start). Reads the journal's line count every second while the batch runs.
# Usage (repository root, after a build): bash bench/sweep-throughput.sh [POINTS] [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
points=${1:-20000}
binary=${2:-./build/rooflab}
work=$(mktemp -d /tmp/rooflab-sweep-XXXXXX)
mkdir -p "$work/kernels"
ln -s "$PWD/bench/sweep" "$work/kernels/trivial"
values=$(python3 -c "print(', '.join(str(k) for k in range($points)))")
cat > "$work/sweep.toml" <<TOML
[run]
device = "cpu"
repetitions = 1
warmup = 0
modes = ["normal"]
counters = "off"
ceilings = "datasheet"
formats = ["json"]
kernels = ["kernels"]
max_points = $points
# One timed run a point: the noise target would repeat a trivial kernel up to max_time.
max_noise = 1
max_time = 0.001
[[study]]
family = "trivial"
params = { K = [$values] }
TOML
"$binary" run "$work/sweep.toml" --quiet --out "$work/out" > "$work/log" 2>&1 &
pid=$!
python3 - "$work/out/journal.jsonl" "$pid" "$points" <<'PY'
import os, sys, time
journal, pid, points = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
samples = []  # (seconds, lines)
start = time.monotonic()
def alive():  # the batch is the shell's child, not ours: read its state
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
def lines():
    try:
        with open(journal, "rb") as f:
            return sum(1 for _ in f)
    except FileNotFoundError:
        return 0
while alive():
    samples.append((time.monotonic() - start, lines()))
    time.sleep(1.0)
samples.append((time.monotonic() - start, lines()))
def rate(first, last):
    (t0, n0), (t1, n1) = samples[first], samples[last]
    return (n1 - n0) / (t1 - t0) if t1 > t0 else float("nan")
done = [i for i, (_, n) in enumerate(samples) if n > 0]
# From the first record to the sample that saw the last one (after it, the batch writes its reports).
first = done[0]
last = next(i for i, (_, n) in enumerate(samples) if n >= samples[-1][1])
if not done or last - first < 8:
    sys.exit(f"too few samples ({len(samples)}); points recorded: {samples[-1][1]}")

window = (last - first) // 4  # the first and the last quarter of the sweep
start_rate, end_rate = rate(first, first + window), rate(last - window, last)
print(f"points recorded: {samples[-1][1]} of {points} in {samples[-1][0]:.0f} s")
print(f"start: {start_rate:.1f} points/s (seconds {samples[first][0]:.0f}-{samples[first + window][0]:.0f})")
print(f"end:   {end_rate:.1f} points/s (seconds {samples[last - window][0]:.0f}-{samples[last][0]:.0f})")
print(f"end/start: {end_rate / start_rate:.2f} (the goal is at least 0.80)")
PY
tail -3 "$work/log"
# The point's own work inside the worker (records' phase_seconds): the rest of 1 / rate is the
# process boundary and the recording.
python3 -c "
import json, sys
records = json.load(open(sys.argv[1]))['records']
print(f'work inside the worker: {1000 * sum(sum((r.get(\"phase_seconds\") or {}).values()) for r in records) / len(records):.2f} ms a point')
" "$work/out/results.json"
rm -rf "$work"
