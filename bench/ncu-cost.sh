#!/usr/bin/env bash
# Nsight Compute's cost per kernel on the default config's kernels at its H100 sizes
# (bench/baselines/ncu_cost.cu), for the metric lists in DIR/ncu-metrics-{full,mutant}.txt (a
# default run's own: bench/checks-h100.sh step `cost` writes them; a session may carry them): ncu at
# K1 and K2 launches, and the program alone, each wall appended to $OUT/ncu-times.txt as it ends, so
# that a cut call keeps what finished; each with the four kernels in turn and with a function of its own
# per launch (`distinct`, K at most 64). Usage (GPU machine): bash bench/ncu-cost.sh DIR [K1 K2]
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1; k1=${2:-4}; k2=${3:-8}
out=${OUT:-/tmp}/ncu-times.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvcc -O3 -arch=sm_90 -Ibench/baselines -o /tmp/ncu_cost bench/baselines/ncu_cost.cu || exit 1
wall() { local t0; t0=$(date +%s.%N); "$@" > /dev/null 2>&1; python3 -c "print(round($(date +%s.%N) - $t0, 3))"; }
for functions in same distinct; do
  extra=(); [ "$functions" = distinct ] && extra=(distinct)
  for k in "$k1" "$k2"; do echo "plain-$functions $k $(wall /tmp/ncu_cost "$k" "${extra[@]}")" >> "$out"; done
  for label in mutant full; do
    metrics=$(cat "$dir/ncu-metrics-$label.txt")
    for k in "$k1" "$k2"; do
      echo "ncu-$label-$functions $k $(wall "$NCU" --metrics "$metrics" --cache-control all /tmp/ncu_cost "$k" "${extra[@]}")" >> "$out"
    done
  done
done
cat "$out"
