#!/usr/bin/env bash
# CI: the test suite under AddressSanitizer + UndefinedBehaviorSanitizer (-DROOFLAB_SANITIZE=ON),
# built in build-asan/. Budget on CI (2 cores): about 15 minutes on top of the normal build.
# Usage: scripts/ci-sanitizers.sh [extra ctest arguments, e.g. -R Reliability]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${ROOFLAB_ASAN_BUILD:-build-asan}

# -O1: ASan's recommended level; Debug's -O0 would make the C++ references in the tests crawl.
# -g1: line tables and function names, all a sanitizer report shows; full debug info (-g) adds compile
# and link time on CI's two cores for types and locals no report prints.
# float-cast-overflow (a double too large for the integer it is converted to) is not part of GCC's
# -fsanitize=undefined; rooflab converts user-given numbers to integers, so it is added here.
# Without libclang: this stage was set up when rooflab loaded libclang with RTLD_DEEPBIND, which the
# sanitizer runtime refuses; it no longer does (mutators/libclang_api.hpp), but libclang under ASan is
# untried. The automatic-mutant tests skip here and run in the normal stage.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DCMAKE_CXX_FLAGS="-fsanitize=float-cast-overflow" -DROOFLAB_SANITIZE=ON -DROOFLAB_WITH_LIBCLANG=OFF
cmake --build "$build" -j2

# LeakSanitizer stays on for rooflab's own code. PoCL and the LLVM inside it are not instrumented
# and keep compiler state alive until exit; LSan reports that (hundreds of KB through libpocl and
# libLLVM) in tests that build kernels, so leaks allocated from those libraries are suppressed.
# Fontconfig, which cairo asks for the chart's font, keeps its parsed configuration and font set for
# the life of the process (only FcFini frees them, and cairo never calls it): a few hundred bytes per
# PNG-writing test, reported from libfontconfig's own allocations.
# Oclgrind, which counts a kernel's work (analyzer/workcount/), runs the sanitized rooflab under its own
# runtime and keeps its interpreter's state until exit the same way (tens of KB from liboclgrind).
# If that ever gets noisy anyway, detect_leaks=0 is the fallback.
cat >"$build/lsan.supp" <<'SUPP'
leak:libpocl
leak:libLLVM
leak:libclang-cpp
leak:libfontconfig
leak:liboclgrind
SUPP
# use_tls=0: GCC 12's LeakSanitizer crashes ("Tracer caught signal 11") walking a bogus dynamic-TLS
# range that PoCL's dlopen'ed libraries leave at exit (seen deterministically in
# Runner.MutantsRunButAreNeverVerified, LSAN_OPTIONS=verbosity=1 shows "DTLS ... at 0x147d"). Not
# scanning thread-local storage as roots can only report more leaks, never hide one.
export LSAN_OPTIONS=suppressions=$(pwd)/$build/lsan.supp:print_suppressions=0:use_tls=0
# halt_on_error / abort_on_error: the first report fails the test that caused it.
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The tests run the rooflab binary too; it inherits these settings.
# The diff noise tests run alone (RUN_SERIAL) and only time PoCL kernels to check what `rooflab diff`
# concludes; the diff's code runs under the sanitizers in the other diff tests. Here, run alone, they
# would add about a minute. The Slurm test runs in the normal stage: here it would start a cluster
# again to run the same job array, whose merge the Shards tests run under the sanitizers.
ctest --test-dir "$build" --output-on-failure -j2 --timeout 600 -E '^(DiffNoise|Slurm)\.' "$@"
