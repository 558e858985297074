#!/usr/bin/env bash
# What a point costs with and without the worker process, on PoCL: the same sweep of a
# trivial kernel (bench/sweep) at two lengths, run by a rooflab that runs points in a worker and by one
# that runs them in-process (a build of the commit before the worker, e.g. main before the worker
# process landed).
# The cost of a point is the slope, (T(long) - T(short)) / (long - short) points, so the fixed costs
# (device, ceilings, the worker's start) fall out; they are printed as the intercept.
# Usage (repository root): bash bench/worker-overhead.sh IN_PROCESS_BINARY [WORKER_BINARY] [SHORT] [LONG]
set -euo pipefail
cd "$(dirname "$0")/.."
in_process=$1
worker=${2:-./build/rooflab}
short=${3:-100}
long=${4:-1000}
work=$(mktemp -d /tmp/rooflab-overhead-XXXXXX)
mkdir -p "$work/kernels"
ln -s "$PWD/bench/sweep" "$work/kernels/trivial"
config() {  # config POINTS
  local values
  values=$(python3 -c "print(', '.join(str(k) for k in range($1)))")
  printf '[run]\ndevice = "cpu"\nrepetitions = 1\nwarmup = 0\nmodes = ["normal"]\ncounters = "off"\n'
  printf 'ceilings = "datasheet"\nformats = ["json"]\nkernels = ["kernels"]\n'
  printf '[[study]]\nfamily = "trivial"\nparams = { K = [%s] }\n' "$values"
}
config "$short" > "$work/short.toml"
config "$long" > "$work/long.toml"
seconds() {  # seconds BINARY CONFIG
  local start end
  rm -rf "$work/out"
  start=$(date +%s.%N)
  "$1" run "$2" --quiet --out "$work/out" > "$work/log" 2>&1 || { tail -3 "$work/log"; exit 1; }
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}
for name in in_process worker; do
  binary=${!name}
  best_short=1e9; best_long=1e9
  for run in 1 2 3; do  # the best of three: PoCL on a shared host varies 2-4x
    s=$(seconds "$binary" "$work/short.toml"); l=$(seconds "$binary" "$work/long.toml")
    best_short=$(python3 -c "print(min($best_short, $s))"); best_long=$(python3 -c "print(min($best_long, $l))")
  done
  python3 -c "
short, long = $best_short, $best_long
per_point = (long - short) / ($long - $short)
print(f'$name: {per_point * 1e3:.2f} ms per point, {short - per_point * $short:.2f} s fixed (best of 3: {short:.2f} s for $short points, {long:.2f} s for $long)')"
done
rm -rf "$work"
