#!/usr/bin/env bash
# Builds rooflab's libFuzzer targets (tests/fuzz/) with clang into build-fuzz/ and runs each for a
# bounded time. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET (default 60)] [TARGET...]
#   targets: config manifest expression (default: all three)
# Corpora grow in build-fuzz/corpus/<target>/ (seeded from configs/, bench/configs/,
# kernels/*/family.toml and tests/fuzz/seeds/). An input that crashes, trips ASan/UBSan/LSan,
# runs out of memory or hangs is written to build-fuzz/artifacts/<target>/ and makes the script
# exit 1. Reproduce it with `build-fuzz/fuzz_<target> build-fuzz/artifacts/<target>/crash-...`,
# make it a regression test in tests/binary/test_reliability_*.cpp, and while the product fix is pending,
# suppress a UBSan finding in tests/fuzz/ubsan.supp to keep fuzzing past it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(config manifest expression tune_journal merge_parts)
build=$root/build-fuzz

CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DROOFLAB_FUZZ=ON -DROOFLAB_BUILD_TESTS=OFF -DROOFLAB_WITH_CUDA=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

seed() {  # seed TARGET FILE...: copies seeds under their content hash, so reruns add nothing twice
  local dir=$build/corpus/$1
  shift
  mkdir -p "$dir"
  for f in "$@"; do
    [ -f "$f" ] && cp "$f" "$dir/seed-$(sha1sum "$f" | cut -c1-16)"
  done
  return 0
}
seed config configs/*.toml bench/configs/*.toml
seed manifest kernels/*/family.toml
seed expression tests/fuzz/seeds/expression/*
seed tune_journal tests/fuzz/seeds/tune_journal/*
seed merge_parts tests/fuzz/seeds/merge_parts/*

# LSan stays on: these targets do not touch OpenCL, so there are no driver leaks to hide.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:detect_leaks=1}
# Known, already-reported UBSan findings are suppressed so that the run can look for new ones.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$root/tests/fuzz/ubsan.supp}
status=0
for t in "${targets[@]}"; do
  case $t in
    expression) args=(-max_len=256) ;;
    tune_journal | merge_parts) args=(-max_len=65536) ;;
    *) args=(-max_len=8192 -dict="$root/tests/fuzz/toml.dict") ;;
  esac
  mkdir -p "$build/artifacts/$t"
  echo "== fuzz_$t: ${seconds}s, corpus $build/corpus/$t"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a runaway allocation is a finding.
  if ! "$build/fuzz_$t" "${args[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" "$build/corpus/$t" \
        >"$build/fuzz_$t.log" 2>&1; then
    status=1
    echo "!! fuzz_$t found a problem; log: $build/fuzz_$t.log"
    grep -E "^==[0-9]+==ERROR|runtime error|SUMMARY|Test unit written" "$build/fuzz_$t.log" | head -20 || true
  fi
  grep -E "^stat::(number_of_executed_units|new_units_added)|^#[0-9]+ *DONE" "$build/fuzz_$t.log" || true
done
exit $status
