#!/usr/bin/env bash
# Builds rooflab on the GPU machine and runs batch configs there, packing every results file and
# log into $OUT/<tag>.tar.gz (the device tool returns at most 8 files).
# Usage (on the GPU machine, from the repository root): bash bench/run-gpu.sh TAG "ARGS1" "ARGS2" ...
# where each ARGS is what follows `rooflab run`, e.g. "bench/configs/catalogue-h100.toml --no-counters".
set -uo pipefail
tag=$1
shift
W=$OUT/$tag
mkdir -p "$W"
bash scripts/gpu-setup.sh 2>&1 | tail -1
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$W/nvidia-smi.txt"
i=0
for args in "$@"; do
  i=$((i + 1))
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  ./build-gpu/rooflab run $args --device gpu --formats json --out "$W/run$i" > "$W/run$i.log" 2>&1
  rc=$?
  end=$(date +%s.%N)
  echo "run$i: rooflab run $args -> rc=$rc, $(python3 -c "print(round($end - $start, 1))") s wall" | tee -a "$W/summary.txt"
  tail -3 "$W/run$i.log"
done
cp build-gpu.log "$W/" 2>/dev/null
tar -czf "$OUT/$tag.tar.gz" -C "$OUT" "$tag" && rm -rf "$W"
