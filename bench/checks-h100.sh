#!/usr/bin/env bash
# The GPU-machine checks of a session, in one command: builds rooflab (scripts/gpu-setup.sh) once, then
# runs the named steps and packs every log and results file into $OUT/<tag>.tar.gz (the device tool
# returns at most 8 files). Steps:
#   default   the embedded default config (all modes, counters), timed end to end (issue 14's < 40 s)
#   gputests  the GPU test suites, serially (the CUPTI profiler takes one client at a time)
#   ceilings  `rooflab ceilings --device gpu` five times (spread of each ceiling; issue 17)
#   torch     bench/baselines/torch_baselines.py (sum, add, device copy; issue 17's copy reference)
#   rungs     bench/configs/performance-h100.toml (the top rungs' achieved bandwidth against the ceilings)
#   faults    issue 15's GPU must-show: an illegal memory access between two good kernels
#             (tests/fixtures/configs/faults-illegal-address-h100.toml); expects exit 1, the faulting
#             record `crashed`, both good records ok with counters
# Usage (GPU machine, repository root): ROOFLAB_COMMIT=<sha> bash bench/checks-h100.sh TAG STEP...
set -uo pipefail
cd "$(dirname "$0")/.."
tag=$1
shift
W=${OUT:-$PWD/rooflab-out}/$tag
mkdir -p "$W"
echo "${ROOFLAB_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" > "$W/commit.txt"
date -u +%FT%TZ > "$W/date.txt"
if [ ! -x build-gpu/rooflab ] || [ ! -x build-gpu/rooflab_tests ]; then
  bash scripts/gpu-setup.sh 2>&1 | tail -1
fi
cp build-gpu.log "$W/" 2>/dev/null
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$W/nvidia-smi.txt"
seconds_since() { python3 -c "import sys; print(round($(date +%s.%N) - $1, 2))"; }
for step in "$@"; do
  start=$(date +%s.%N)
  case $step in
    default)
      ./build-gpu/rooflab run --device gpu --formats json,csv --out "$W/default" > "$W/default.log" 2>&1
      echo "default: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt" ;;
    gputests)
      ./build-gpu/rooflab_tests --gtest_filter='CountersGpu*:OccupancyPadding*:OccupancyMatch*:BridgeLaunches*:ProgramBuilds*:Runner*:EndToEnd*:Ceilings*:Counters*:ReportGolden*' \
        > "$W/gpu-tests.log" 2>&1
      echo "gputests: rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$W/gpu-tests.log" | sort | uniq -c | tr '\n' ' ')" | tee -a "$W/summary.txt" ;;
    ceilings)
      for i in 1 2 3 4 5; do
        ./build-gpu/rooflab ceilings --device gpu --out "$W/ceilings-$i.toml" > "$W/ceilings-$i.log" 2>&1
        echo "ceilings $i: rc=$?" | tee -a "$W/summary.txt"
      done ;;
    torch)
      python3 bench/baselines/torch_baselines.py > "$W/torch-baselines.json" 2> "$W/torch-baselines.log"
      echo "torch: rc=$?" | tee -a "$W/summary.txt" ;;
    rungs)
      ./build-gpu/rooflab run bench/configs/performance-h100.toml --device gpu --out "$W/rungs" > "$W/rungs.log" 2>&1
      echo "rungs: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt" ;;
    faults)
      ./build-gpu/rooflab run tests/fixtures/configs/faults-illegal-address-h100.toml --device gpu --out "$W/faults" \
        > "$W/faults.log" 2>&1
      rc=$?
      verdict=$(python3 - "$W/faults/results.json" <<'PY'
import json, sys
records = {r["variant"]: r for r in json.load(open(sys.argv[1]))["records"]}
good = all(records.get(v, {}).get("status") == "ok" and records[v]["counters"].get("available") for v in ("good_before", "good_after"))
bad = records.get("illegal_address", {})
print(f"good records ok with counters: {good}; illegal_address: {bad.get('status')}: {bad.get('error')}")
PY
)
      echo "faults: rc=$rc (expect 1) $verdict" | tee -a "$W/summary.txt" ;;
    *) echo "unknown step $step" | tee -a "$W/summary.txt" ;;
  esac
done
tar -czf "$OUT/$tag.tar.gz" -C "$(dirname "$W")" "$tag" 2>/dev/null || true
cat "$W/summary.txt"
