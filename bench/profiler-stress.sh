#!/usr/bin/env bash
# The kept profiler's stress run (docs/cost.md, "Counters"): the embedded default config RUNS times
# and bench/configs/estimate-h100.toml once, with the range profiler kept enabled from one record to
# the next as rooflab keeps it by default (set ROOFLAB_PROFILER_KEEP_ENABLED to "0" beforehand to
# compare), counting the records whose worker crashed. Writes
# $OUT/stress.tgz (logs and results). Usage (GPU machine, repository root, `.deps` carried):
#   bash bench/profiler-stress.sh RUNS SECONDS_LIMIT
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}; limit=${2:-540}
{ [ -x build-gpu/rooflab ] && [ -d .deps/prefix/usr ]; } || bash scripts/gpu-setup.sh > /tmp/stress-setup.log 2>&1
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export ROOFLAB_PROFILER_KEEP_ENABLED=${ROOFLAB_PROFILER_KEEP_ENABLED:-1}
W=${OUT:-/tmp}/stress; mkdir -p "$W"
git rev-parse --short HEAD > "$W/commit.txt" 2>/dev/null
started=$(date +%s)
left() { echo $(( limit - ($(date +%s) - started) )); }
run() {  # name, then rooflab's arguments
  local name=$1; shift
  [ "$(left)" -gt 20 ] || { echo "$name: no time left"; return; }
  timeout "$(left)" ./build-gpu/rooflab run "$@" --device gpu --phases --formats json --out "$W/$name" > "$W/$name.log" 2>&1
  echo "$name: rc=$? records=$(grep -c '^\[' "$W/$name.log") crashed=$(grep -c 'crashed:' "$W/$name.log") $(grep -o 'counters  .*passes a record' "$W/$name.log")"
}
run batch bench/configs/estimate-h100.toml
for i in $(seq 1 "$runs"); do run "default$i"; done
for f in "$W"/*/results.json; do gzip -f "$f"; done
tar czf "${OUT:-/tmp}/stress.tgz" -C "$(dirname "$W")" stress
python3 - "$W" <<'PY'
import glob, gzip, json, sys
records = crashed = counted = 0
for path in glob.glob(sys.argv[1] + "/*/results.json.gz"):
    for r in json.load(gzip.open(path))["records"]:
        records += 1
        crashed += r.get("status") == "crashed"
        counted += bool((r.get("counters") or {}).get("available"))
print(f"stress: {records} records, {crashed} crashed, {counted} with counters")
PY
