#!/usr/bin/env bash
# The source view on the GPU machine (docs/source-lines.md): builds rooflab, runs
# bench/configs/source-lines-h100.toml with the program binaries kept, and packs the results, the log,
# the PTX's line directives, a summary of each original's hottest lines and the bridge's GPU tests
# into $OUT/<tag>.tar.gz.
# Usage (on the GPU machine, from the repository root):
#   bash bench/source-lines-h100.sh TAG [CONFIG [MUTANTS_CONFIG]]
set -uo pipefail
tag=$1
config=${2:-bench/configs/source-lines-h100.toml}
W=$OUT/$tag
mkdir -p "$W"
bash scripts/gpu-setup.sh -DROOFLAB_BUILD_TESTS=OFF 2>&1 | tail -1
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$W/nvidia-smi.txt"
start=$(date +%s.%N)
./build-gpu/rooflab run "$config" --device gpu --keep-binaries --out "$W/run" > "$W/run.log" 2>&1
echo "rooflab run $config -> rc=$?, $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s wall" | tee "$W/summary.txt"
tail -5 "$W/run.log"
# What NVIDIA's OpenCL wrote for line info: the .file directives and the first .loc lines.
for ptx in "$W"/run/binaries/*.ptx; do
  [ -f "$ptx" ] || continue
  { echo "== $(basename "$ptx")"; grep -m4 '^\s*\.file' "$ptx"; grep -c '^\s*\.loc' "$ptx"; } >> "$W/ptx-lines.txt"
done
python3 bench/source_lines_summary.py "$W/run/results.json" > "$W/hot-lines.md" 2>&1
rm -rf "$W/run/binaries"
# Mutants sampled too, when a second config is given.
if [ -n "${3:-}" ]; then
  ./build-gpu/rooflab run "$3" --device gpu --out "$W/mutants" > "$W/mutants.log" 2>&1
  echo "rooflab run $3 -> rc=$?" | tee -a "$W/summary.txt"
  python3 bench/source_lines_summary.py "$W/mutants/results.json" --all-modes > "$W/hot-lines-mutants.md" 2>&1
fi
# The bridge's GPU tests, the PC-sampling one among them.
cmake -S . -B build-gpu -DROOFLAB_BUILD_TESTS=ON >> build-gpu.log 2>&1
cmake --build build-gpu --target rooflab_gpu_tests -j16 >> build-gpu.log 2>&1
./build-gpu/rooflab_gpu_tests --gtest_filter='CountersGpu.*' > "$W/gpu-tests.log" 2>&1
echo "CountersGpu tests: rc=$?; $(grep -c '^\[       OK' "$W/gpu-tests.log") passed" | tee -a "$W/summary.txt"
tar -czf "$OUT/$tag.tar.gz" -C "$OUT" "$tag" && rm -rf "$W"
