#!/usr/bin/env bash
# The performance targets: rooflab's top rungs and the vendor baselines, measured in one script on
# the GPU machine.
#   1. builds rooflab (scripts/gpu-setup.sh), the CUDA baselines (cuBLAS SGEMM, CUB sum, copy/add) and
#      the issue probe (bench/baselines/issue_probe.cu: what an FFMA:MUFU mix can issue, which caps nbody);
#   2. runs the baselines, torch's sum and add (when torch is installed), and
#      bench/configs/performance-h100.toml (rooflab measures the ceilings at the start of that run);
#   3. times the embedded default config (all modes, counters) end to end;
#   4. writes bench/results/<date>-h100.json and bench/results/<date>-h100.md (bench/perf_summary.py),
#      and copies them with every raw file to $OUT/perf-<date>/ when $OUT is set.
# Usage (GPU machine, repository root): bash bench/performance-h100.sh [YYYY-MM-DD]
set -uo pipefail
cd "$(dirname "$0")/.."
date_tag=${1:-$(date -u +%F)}
work=${OUT:-$PWD/rooflab-out}/perf-$date_tag
mkdir -p "$work"
ROOFLAB_GPU_TARGET=rooflab bash scripts/gpu-setup.sh 2>&1 | tail -1
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$work/nvidia-smi.txt"
# The GPU machine gets a copy of the working tree without .git: the caller may name the commit.
echo "${ROOFLAB_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" > "$work/commit.txt"

echo "perf: CUDA baselines"
nvcc -O3 -arch=native bench/baselines/cuda_baselines.cu -lcublas -o build-gpu/cuda_baselines > "$work/nvcc.log" 2>&1 \
  && ./build-gpu/cuda_baselines > "$work/cuda-baselines.json" 2> "$work/cuda-baselines.log" \
  || echo '{"error": "cuda baselines failed: see nvcc.log / cuda-baselines.log"}' > "$work/cuda-baselines.json"
echo "perf: issue probe (the FFMA:MUFU issue rate that caps nbody)"
nvcc -O3 -arch=native -use_fast_math bench/baselines/issue_probe.cu -o build-gpu/issue_probe > "$work/nvcc-probe.log" 2>&1 \
  && ./build-gpu/issue_probe > "$work/issue-probe.json" 2> "$work/issue-probe.log" \
  || echo '{"error": "issue probe failed: see nvcc-probe.log / issue-probe.log"}' > "$work/issue-probe.json"
echo "perf: torch baselines"
python3 bench/baselines/torch_baselines.py > "$work/torch-baselines.json" 2> "$work/torch-baselines.log" \
  || echo '{"available": false, "reason": "torch_baselines.py failed"}' > "$work/torch-baselines.json"

echo "perf: rooflab rungs"
start=$(date +%s.%N)
./build-gpu/rooflab run bench/configs/performance-h100.toml --device gpu --out "$work/rungs" > "$work/rungs.log" 2>&1
echo "rungs rc=$? $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"

echo "perf: default config (all modes, counters), timed end to end"
start=$(date +%s.%N)
./build-gpu/rooflab run --device gpu --out "$work/default" > "$work/default.log" 2>&1
rc=$?
python3 -c "print(round($(date +%s.%N) - $start, 2))" > "$work/default-wall-seconds.txt"
echo "default rc=$rc $(cat "$work/default-wall-seconds.txt") s"

python3 bench/perf_summary.py "$work" "$date_tag" bench/results
cp "bench/results/$date_tag-h100.json" "bench/results/$date_tag-h100.md" "$work/" 2>/dev/null
cat "bench/results/$date_tag-h100.md"
