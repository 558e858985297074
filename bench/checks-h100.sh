#!/usr/bin/env bash
# The GPU-machine checks of a session, in one command: builds rooflab (scripts/gpu-setup.sh) once, then
# runs the named steps and packs every log and results file into $OUT/<tag>.tar.gz (the device tool
# returns at most 8 files). Steps:
#   default   the embedded default config (all modes, counters), timed end to end (goal: under 40 s), and
#             the tally of its (annotated) mutants valid by counters
#   gputests  the GPU test suites, serially (the CUPTI profiler takes one client at a time)
#   ceilings  `rooflab ceilings --device gpu` five times (spread of each ceiling)
#   torch     bench/baselines/torch_baselines.py (sum, add, device copy: the copy ceiling's reference)
#   rungs     bench/configs/performance-h100.toml (the top rungs' achieved bandwidth against the ceilings)
#   figures   bench/ceilings_figures.py over the steps above: do the ceilings bound every rung, pass or fail
#   library   the library-style families (tests/fixtures/kernels/library_style) from a folder with a
#             space, with a built-in family and --set: several sources, -I "<folder>", defines in launch sizes
#   automut   the unannotated fixtures (tests/fixtures/kernels/unannotated) in all modes, automatic
#             mutants validated by counters, and the AutoMutation tests
#   verdicts  bench/configs/verdicts-side-by-side.toml: automatic mutants' verdicts beside the
#             annotated rungs' of the same algorithm (bench/verdicts_table.py)
#   levels    the default config with every format: PNGs written (cairo on the GPU machine),
#             hierarchical markers per original, naive L1/L2 left of tiled, no unflagged point above a roof
#   readings  the course's profiler readings: the matmul family (normal mode, counters) with each original's
#             readings printed; expects naive_uncoalesced's global load efficiency well below the coalesced
#             rungs', tiled32_2pt_transposed_unpadded's bank conflicts per access far above the padded one's,
#             and no reading null because a metric was not collected
#   faults    process isolation on the GPU: an illegal memory access between two good kernels
#             (tests/fixtures/configs/faults-illegal-address-h100.toml); expects exit 1, the faulting
#             record `crashed`, both good records ok with counters
#   whatif    the what-if mutations: configs/transpose.toml with counters; prints each what-if's
#             counter before/after, its check, its predicted gain and its realised_by variant's gain
#   corpus    the mutant corpus (tests/fixtures/kernels/corpus: every family, written as users write them) in
#             all modes with counters, FP64 and integer instruction counts added (ROOFLAB_EXTRA_METRICS):
#             each automatic mutant validated by counters (FP32 FLOPs, FP64 and integer instructions;
#             global sectors), one line per variant (bench/automut_summary.py)
#   hang      a kernel that never ends, with a 5 s limit: the record must say the kernel hangs, not that
#             it was still being compiled (the driver's event reports it running)
#   capture   applications captured as they run (Debian's clpeak, carried in .deps/extra, and the C
#             application of the capture tests), each alone and under `rooflab capture` (the capture's
#             cost), then `rooflab run` of its capture.toml with counters: each captured kernel verified
#             against the program's own outputs, counters, mutants, the timeline with the link ceilings
#   bridgeargs kernels the bridge could not launch before (bench/configs/bridge-args-h100.toml): a
#             __constant pointer argument, a backprop-like kernel within and past CUDA's grid limit
#   spmv      the CSR SpMV of the mutant corpus (spmv_csr, both variants) in all modes with counters:
#             the memory-only mutant's global sectors against the original's (scalar read 6.9% fewer
#             when the float fold was a bit fold: its loop's leftover iterations ran after the unrolled
#             body instead of before), the PTX of SpmvCsrScalar in both (ld.global count and types),
#             and the compute-only mutant launched with its run-time key (valid, load sectors within
#             what its kept loads allow); PASS when every mutant of both variants is valid
#   roofs16   the L2, FP64 and int32 ceilings: `rooflab ceilings --device gpu` (it measures the FP64
#             and int32 roofs too) against the H100 datasheet: L2 read roughly 2-3x DRAM, FP64 near
#             33.5 TFLOP/s; then the daxpy fixture (double work) placed under the measured FP64 roof
#   cost      rooflab's own cost (docs/cost.md): the default config with --phases (wall, goal < 30 s, and its
#             phase table), bench/configs/estimate-h100.toml (78 points), and Nsight Compute on equivalent
#             CUDA kernels (bench/baselines/ncu_cost.cu) for the same metrics as rooflab's full table and
#             its mutant subset; prints counters per record beside ncu per kernel (goal <= 0.5x) and the
#             estimates against what each batch took (goal within 25%), PASS/FAIL (bench/cost_summary.py)
#   link      the host link and the launch: bench/baselines/link_baseline.cu (CUDA's pinned and pageable
#             cudaMemcpy, both directions, CUDA events, 4 KiB to 256 MiB) beside rooflab's link ceilings
#             per strategy and its launch latency, and beside clpeak's figures (the same
#             driver: write 7.5, read 10.3, map for read 24.0, unmap after write 50.5 GB/s, launch 7.0 us);
#             vecadd at N = 2^26 end to end with every strategy, predicted beside measured; the overlap
#             what-if's predicted gain beside the measured one (PASS within 15%); matmul at N = 4096
#             end to end, where the kernel dominates (PASS when its runs are kernel-bound)
#   charts    every kernel on a chart (docs/charts.md), one run with counters: the transpose ladder
#             (N = 8192) on the bandwidth chart and the instruction roofline, with each variant's x at
#             L1, L2, DRAM and shared and its loads' and stores' x (expects tiled's shared loads at the
#             32-way wall, tiled_padded's away from it at the conflict-free one, naive's global stores
#             at the stride wall: 16 or more sectors per request); the matmul ladder (N = 1024) on the
#             instruction roofline; nw_dp (tests/fixtures/kernels/corpus, N = 512) under the measured
#             int32 roof with its integer operations counted beside the manifest's; the measured issue
#             rate against the datasheet's. The PNGs are in $W/charts.
#   devices   several devices (needs PoCL carried: ROOFLAB_GPU_POCL=1 scripts/fetch-gpu-deps.sh): the
#             default config at fixed sizes (bench/configs/default-fixed-sizes.toml) with --device cpu,gpu (compare), one report with both devices side by
#             side, its table of speedups per rung printed; then the default config as --shard 1/2 and
#             --shard 2/2 on the GPU, merged, checked equal point for point to the compare run's GPU
#             records (one run of the same batch: same batch id), every original verified. Counters
#             off throughout, to keep it near 2 minutes
#   sizes     the embedded default with --device gpu (counters off): the sizes its rules chose, the
#             course's order along each ladder within noise (matmul naive < tiled < blocked, reduce
#             step1 < step4 < step7); then bench/configs/sizes-sweep-h100.toml, vecadd and matmul swept up
#             to the fill size: each variant's half-plateau size (bench/sizes_tune_check.py)
#   tune      `rooflab tune` exhaustive and guided on the reduce top rung (bench/configs/tune-reduce-h100.toml)
#             and the top matmul rung's tile (tune-matmul-h100.toml, N = 4096): the guided best within 3%
#             of the exhaustive best in at most 25% of its evaluations; the tuned rung against torch's
#             SGEMM without TF32 (bench/baselines/torch_sgemm.py) in the same run
# Usage (GPU machine, repository root): ROOFLAB_COMMIT=<sha> bash bench/checks-h100.sh TAG STEP...
set -uo pipefail
cd "$(dirname "$0")/.."
tag=$1
shift
W=${OUT:-$PWD/rooflab-out}/$tag
mkdir -p "$W"
echo "${ROOFLAB_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}" > "$W/commit.txt"
date -u +%FT%TZ > "$W/date.txt"
if [ ! -x build-gpu/rooflab ] || [ ! -x build-gpu/rooflab_gpu_tests ]; then
  bash scripts/gpu-setup.sh 2>&1 | tail -1
fi
cp build-gpu.log "$W/" 2>/dev/null
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
[ -f .deps/prefix/fonts.conf ] && export FONTCONFIG_FILE=$PWD/.deps/prefix/fonts.conf
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$W/nvidia-smi.txt"
seconds_since() { python3 -c "import sys; print(round($(date +%s.%N) - $1, 2))"; }
for step in "$@"; do
  start=$(date +%s.%N)
  case $step in
    default)
      ./build-gpu/rooflab run --device gpu --formats json,csv --out "$W/default" > "$W/default.log" 2>&1
      echo "default: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      # The annotated mutants (the built-in families), each validated by counters.
      echo "default mutants: $(python3 bench/automut_summary.py "$W/default/results.json" 2>&1 | tail -1)" | tee -a "$W/summary.txt" ;;
    gputests)
      for t in build-gpu/rooflab_gpu_tests build-gpu/rooflab_pipeline_tests build-gpu/rooflab_cli_tests; do "$t" \
        --gtest_filter='CountersGpu*:OccupancyPadding*:OccupancyMatch*:BridgeLaunches*:ProgramBuilds*:Runner*:EndToEnd*:Ceilings*:Counters*:ReportGolden*'; done \
        > "$W/gpu-tests.log" 2>&1
      echo "gputests: rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$W/gpu-tests.log" | sort | uniq -c | tr '\n' ' ')" | tee -a "$W/summary.txt" ;;
    ceilings)
      # The SM clock while the ceilings run, sampled every 20 ms: the FP32 check is against
      # 132 x 128 x 2 x the clock measured, not the boost clock's nominal value.
      nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader,nounits \
        -lms 20 > "$W/clocks-ceilings.csv" 2>/dev/null &
      sampler=$!
      for i in 1 2 3 4 5; do
        ./build-gpu/rooflab ceilings --device gpu --out "$W/ceilings-$i" > "$W/ceilings-$i.log" 2>&1
        echo "ceilings $i: rc=$?" | tee -a "$W/summary.txt"
        cp "$W/ceilings-$i/device-model.toml" "$W/ceilings-$i.toml" 2>/dev/null
      done
      kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null ;;
    figures)
      python3 bench/ceilings_figures.py "$W" > "$W/ceilings-figures.txt" 2>&1
      echo "figures: rc=$?" | tee -a "$W/summary.txt"; cat "$W/ceilings-figures.txt" ;;
    torch)
      python3 bench/baselines/torch_baselines.py > "$W/torch-baselines.json" 2> "$W/torch-baselines.log"
      echo "torch: rc=$?" | tee -a "$W/summary.txt" ;;
    rungs)
      ./build-gpu/rooflab run bench/configs/performance-h100.toml --device gpu --out "$W/rungs" > "$W/rungs.log" 2>&1
      echo "rungs: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt" ;;
    library)
      rm -rf "$W/library style" && mkdir -p "$W/library style"
      cp -r tests/fixtures/kernels/library_style/axpy tests/fixtures/kernels/library_style/gemm \
        tests/fixtures/kernels/library_style/sum "$W/library style/"
      printf '[run]\nkernels = ["library style"]\nmodes = ["normal"]\nformats = ["json", "csv"]\n%s\n' \
        '[[study]]
family = "axpy"
[[study]]
family = "gemm"
[[study]]
family = "sum"
[[study]]
family = "vecadd"
variants = ["global"]' > "$W/library.toml"
      ./build-gpu/rooflab run "$W/library.toml" --device gpu --set N=1024 --out "$W/library" > "$W/library.log" 2>&1
      echo "library: rc=$? (0: every record built with -I and verified; build options in $W/library/results.json)" | tee -a "$W/summary.txt" ;;
    automut)
      # Unannotated library-style kernels get automatic mutants, validated by counters here.
      ./build-gpu/rooflab --version > "$W/automut-version.txt" 2>&1
      printf '[run]\nmodes = ["normal", "compute-only", "memory-only"]\nkernels = ["%s"]\n[[study]]\nfamily = "gemm_plain"\nparams = { N = 2048 }\n[[study]]\nfamily = "sum_plain"\nparams = { N = 67108864, GROUPS = 1056, WG = 256 }\n[[study]]\nfamily = "axpy_plain"\nparams = { N = 67108864, WG = 256 }\n' \
        "$PWD/tests/fixtures/kernels/unannotated" > "$W/automut.toml"
      ./build-gpu/rooflab run "$W/automut.toml" --device gpu --formats json,csv --out "$W/automut" > "$W/automut.log" 2>&1
      echo "automut: rc=$? $(seconds_since "$start") s wall $(head -2 "$W/automut-version.txt" | tail -1)" | tee -a "$W/summary.txt"
      python3 bench/automut_summary.py "$W/automut/results.json" | tee "$W/automut-summary.txt"
      ./build-gpu/rooflab_cli_tests --gtest_filter='AutoMutation*' > "$W/automut-tests.log" 2>&1
      echo "automut tests: rc=$?" | tee -a "$W/summary.txt" ;;
    corpus)
      ./build-gpu/rooflab --version > "$W/corpus-version.txt" 2>&1
      # Every family at its "fill" size (bench/configs/corpus-h100.toml): at the fixtures' own sizes the
      # kernels ran a few microseconds and the verdicts said only "overhead-dominated".
      sed "s|kernels = \[\"../../tests/fixtures/kernels/corpus\"\]|kernels = [\"$PWD/tests/fixtures/kernels/corpus\"]|" \
        bench/configs/corpus-h100.toml > "$W/corpus.toml"
      ROOFLAB_EXTRA_METRICS=smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_integer_pred_on.sum \
        ./build-gpu/rooflab run "$W/corpus.toml" --device gpu --formats json,csv --keep-binaries --out "$W/corpus" > "$W/corpus.log" 2>&1
      echo "corpus: rc=$? $(seconds_since "$start") s wall $(head -2 "$W/corpus-version.txt" | tail -1)" | tee -a "$W/summary.txt"
      python3 bench/automut_summary.py "$W/corpus/results.json" | tee "$W/corpus-summary.txt"
      tail -2 "$W/corpus-summary.txt" | sed "s/^/corpus: /" >> "$W/summary.txt" ;;
    capture)
      # Applications captured as they run (docs/capture.md), then replayed with counters and mutants:
      # Debian's clpeak (carried as .deps/extra/clpeak_*.deb: the GPU image reaches no registry) and
      # the C application of the capture tests. Each program also runs alone, for the capture's cost.
      rm -rf "$W/clpeak-prefix" && mkdir -p "$W/clpeak-prefix" && dpkg -x .deps/extra/clpeak_*.deb "$W/clpeak-prefix"
      gcc -O2 -o "$W/pipeline" tests/fixtures/capture/pipeline.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lOpenCL \
        > "$W/pipeline-build.log" 2>&1
      nvidia_platform=1  # the order clpeak listed them there on 2026-11-27: PoCL, then NVIDIA CUDA
      for prog in ${CAPTURE_PROGRAMS:-pipeline clpeak-compute clpeak-bandwidth}; do
        case $prog in
          pipeline) cmd=("$W/pipeline") ;;
          # The GPU image registers PoCL beside NVIDIA's OpenCL: clpeak is pointed at the H100.
          clpeak-bandwidth) cmd=("$W/clpeak-prefix/usr/bin/clpeak" --global-bandwidth -p "$nvidia_platform") ;;
          clpeak-compute) cmd=("$W/clpeak-prefix/usr/bin/clpeak" --compute-sp -p "$nvidia_platform") ;;
        esac
        t0=$(date +%s.%N); "${cmd[@]}" > "$W/$prog-alone.log" 2>&1
        echo "$prog alone: rc=$? $(seconds_since "$t0") s" | tee -a "$W/summary.txt"
        for mechanism in layer preload; do
          t0=$(date +%s.%N)
          ./build-gpu/rooflab capture --mechanism "$mechanism" --out "$W/cap-$prog" -- "${cmd[@]}" > "$W/cap-$prog.log" 2>&1
          rc=$?
          echo "$prog captured ($mechanism): rc=$rc $(seconds_since "$t0") s" | tee -a "$W/summary.txt"
          grep -q "no OpenCL call was seen" "$W/cap-$prog.log" || break
        done
        t0=$(date +%s.%N)
        ./build-gpu/rooflab run "$W/cap-$prog/capture.toml" --device gpu --formats json,csv,html --out "$W/replay-$prog" \
          > "$W/replay-$prog.log" 2>&1
        echo "$prog replayed: rc=$? $(seconds_since "$t0") s wall" | tee -a "$W/summary.txt"
        rm -rf "$W/cap-$prog/data"  # the saved buffers: large, and the replay's results name what they held
      done
      rm -rf "$W/clpeak-prefix" ;;
    bridgeargs)
      # Kernels the PTX bridge could not launch before: a __constant pointer argument, and a
      # backprop-like kernel with __local arrays on 16x16 groups, one grid within CUDA's y limit and
      # one past it (whose counters must name the limit).
      ./build-gpu/rooflab run bench/configs/bridge-args-h100.toml --device gpu --formats json,csv --keep-binaries \
        --out "$W/bridge-args" > "$W/bridge-args.log" 2>&1
      echo "bridgeargs: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt" ;;
    spmv)
      printf '[run]\nmodes = ["normal", "compute-only", "memory-only"]\nformats = ["json"]\nkernels = ["%s"]\n[[study]]\nfamily = "spmv_csr"\n' \
        "$PWD/tests/fixtures/kernels/corpus" > "$W/spmv.toml"
      ./build-gpu/rooflab run "$W/spmv.toml" --device gpu --keep-binaries --out "$W/spmv" > "$W/spmv.log" 2>&1
      echo "spmv: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 - "$W/spmv/results.json" "$W/spmv/binaries" <<'PY' | tee -a "$W/summary.txt"
import glob, json, re, sys
records = json.load(open(sys.argv[1]))["records"]
ok = True
for r in records:
    if r["mode"] != "normal":
        continue
    m = r.get("mutation") or {}
    for mode in ("memory-only", "compute-only"):
        v = (m.get("validation") or {}).get(mode) or {}
        ok = ok and v.get("valid") is True
        print(f"spmv: {r['variant']} {mode}: by {v.get('by')} {v.get('quantity')} {v.get('original')} -> "
              f"{v.get('mutant')} valid={v.get('valid')}")
    for note in m.get("notes", []):
        print("spmv:    note:", note)
    print(f"spmv: {r['variant']} verdict {m.get('verdict')}")
for r in records:
    if r["mode"] == "compute-only":
        print(f"spmv: {r['variant']} compute-only source check: {json.dumps(r.get('mutant_source_check'))}")
# SpmvCsrScalar's loads in each program's PTX (the build options close each kept binary).
for path in sorted(glob.glob(sys.argv[2] + "/*.ptx")):
    text = open(path).read()
    options = re.search(r"rooflab build options: (.*)", text)
    entry = re.search(r"\.entry SpmvCsrScalar\((.*?)\n}", text, re.S)
    if not entry or not options:
        continue
    body = entry.group(1)
    loads = re.findall(r"ld\.global(?:\.nc)?\.(\w+)", body)
    params = len(re.findall(r"\.param ", body.split(")")[0]))
    labels = len(re.findall(r"^\$?L__BB|^LBB", body, re.M))
    types = ", ".join(sorted(set(loads)))
    defines = " ".join(w for w in options.group(1).split() if "=" in w and not w.startswith("-"))
    print(f"spmv: PTX SpmvCsrScalar [{defines}]: {params} parameters, {len(loads)} ld.global "
          f"({types}), {labels} labels")
print("spmv:", "PASS" if ok else "FAIL", "(every mutant of both variants valid by counters)")
PY
      ;;
    hang)
      mkdir -p "$W/hang/kernels/hang"
      printf 'kernel void spin(global const int* flag, global int* out) {\n  while (((volatile global const int*)flag)[0] == 0) {}\n  out[get_global_id(0)] = 1;\n}\n' > "$W/hang/kernels/hang/k.cl"
      printf 'name = "hang"\n[params]\nN = 64\n[work]\nflops = "0"\nbytes = "4*N"\n[[buffers]]\nname = "flag"\ntype = "int"\ncount = "1"\ninit = "zero"\n[[buffers]]\nname = "out"\ntype = "int"\ncount = "N"\naccess = "write"\n[[variants]]\nname = "spin"\nsource = "k.cl"\nkernel = "spin"\nargs = ["flag", "out"]\nglobal = ["N"]\n' > "$W/hang/kernels/hang/family.toml"
      printf '[run]\nrepetitions = 1\nwarmup = 0\nceilings = "datasheet"\ncounters = "off"\nvariant_time_limit_s = 5\nformats = ["json"]\nkernels = ["kernels"]\n[[study]]\nfamily = "hang"\n' > "$W/hang/hang.toml"
      (cd "$W/hang" && timeout 120 "$OLDPWD/build-gpu/rooflab" run hang.toml --device gpu --out out > log 2>&1)
      echo "hang: rc=$? $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["records"][0]["error"])' "$W/hang/out/results.json")" | tee -a "$W/summary.txt" ;;
    verdicts)
      # The table of automatic mutants' verdicts beside the annotated built-in rungs'.
      ./build-gpu/rooflab run bench/configs/verdicts-side-by-side.toml --device gpu --out "$W/verdicts" > "$W/verdicts.log" 2>&1
      echo "verdicts: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 bench/verdicts_table.py "$W/verdicts/results.json" | tee "$W/verdicts-table.md" ;;
    levels)
      ./build-gpu/rooflab run --device gpu --out "$W/levels" > "$W/levels.log" 2>&1
      echo "levels: rc=$? pngs: $(ls "$W/levels"/*.png 2>/dev/null | wc -l)" | tee -a "$W/summary.txt"
      python3 - "$W/levels/results.json" <<'PY' | tee -a "$W/summary.txt"
import json, sys
d = json.load(open(sys.argv[1]))
normal = [r for r in d["records"] if r["mode"] == "normal" and r["status"] == "ok"]
unflagged = [(r["variant"], k) for r in normal for k, p in r["roofline"].items()
             if (p.get("fraction_of_roof") or 0) > 1 and not p.get("above_roof")]
levels = {r["variant"]: sorted(k for k in r["roofline"] if k.startswith("device_")) for r in normal}
x = lambda v, lvl: next((r["roofline"].get("device_" + lvl, {}).get("intensity") for r in normal
                         if r["family"] == "matmul" and r["variant"] == v), None)
print("levels: unflagged above roof:", unflagged or "none")
print("levels: originals without l1/l2 markers:", [v for v, ks in levels.items() if not {"device_l1", "device_l2"} <= set(ks)] or "none")
for lvl in ("l1", "l2"):
    print("levels: matmul", lvl, {v: x(v, lvl) for v in ("naive_coalesced", "naive_uncoalesced", "tiled16", "blocked128_8x8")})
PY
      ;;
    readings)
      printf '[run]\nmodes = ["normal"]\ncounters = "on"\nformats = ["json", "csv", "html"]\n[[study]]\nfamily = "matmul"\n' \
        > "$W/readings.toml"
      ./build-gpu/rooflab run "$W/readings.toml" --device gpu --out "$W/readings" > "$W/readings.log" 2>&1
      echo "readings: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 - "$W/readings/results.json" <<'PY' | tee -a "$W/summary.txt"
import json, sys
keys = ["branch_divergence_pct", "instruction_replay_overhead", "global_load_efficiency_pct",
        "global_store_efficiency_pct", "l1_hit_rate_pct", "l2_hit_rate_pct",
        "shared_bank_conflicts_per_access", "warp_instructions_per_dram_transaction"]
records = [r for r in json.load(open(sys.argv[1]))["records"] if r["mode"] == "normal" and r["status"] == "ok"]
short = lambda v: "null" if v is None else f"{v:.4g}"
print("readings: variant params | " + " | ".join(keys))
got, not_collected = {}, []
for r in records:
    c = r["counters"]
    d, why = c.get("derived", {}), c.get("derived_reasons", {})
    got[r["variant"]] = d
    not_collected += [(r["variant"], k, why[k]) for k in keys if k in why and "not collected" in why[k]]
    print("readings:", r["variant"], json.dumps(r["params"]), "|", " | ".join(short(d.get(k)) for k in keys),
          "| missing:", c.get("missing") or "none")
value = lambda v, k: (got.get(v) or {}).get(k)
load = {v: value(v, "global_load_efficiency_pct") for v in ("naive_coalesced", "naive_uncoalesced", "tiled16")}
conflicts = {v: value(v, "shared_bank_conflicts_per_access") for v in ("tiled32_2pt_transposed", "tiled32_2pt_transposed_unpadded")}
print("readings: global load efficiency (expect naive_uncoalesced lowest):", load)
print("readings: bank conflicts per access (expect unpadded >> padded):", conflicts)
print("readings: null because not collected:", not_collected or "none")
PY
      ;;
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
    whatif)
      ./build-gpu/rooflab run configs/transpose.toml --device gpu --out "$W/whatif" > "$W/whatif.log" 2>&1
      echo "whatif: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 - "$W/whatif/results.json" <<'PY' | tee -a "$W/summary.txt"
import json, sys
for r in json.load(open(sys.argv[1]))["records"]:
    w = r.get("what_if")
    if r["mode"] != "what-if" or not w:
        continue
    e = w.get("expect") or {}
    print(f"whatif: {r['variant']} {w['name']} N={r['params'].get('N')}: {e.get('counter')} "
          f"{w.get('counter_original')} -> {w.get('counter_what_if')} ({w['check']}: {w['check_detail']}); "
          f"predicted gain {w.get('predicted_gain')}, {w.get('realised_by')} measured gain {w.get('realised_gain')}")
PY
      ;;
    roofs16)
      ./build-gpu/rooflab ceilings --device gpu --out "$W/roofs16" > "$W/roofs16.log" 2>&1
      echo "roofs16 ceilings: rc=$?" | tee -a "$W/summary.txt"
      cp "$W/roofs16/device-model.toml" "$W/roofs16.toml" 2>/dev/null
      mkdir -p "$W/roofs16-kernels" && cp -r tests/fixtures/kernels/daxpy "$W/roofs16-kernels/"
      printf '[run]\ndevice = "gpu"\nmodes = ["normal"]\nformats = ["json", "html"]\nkernels = ["%s"]\n[[study]]\nfamily = "daxpy"\nparams = { N = [16777216] }\n' \
        "$W/roofs16-kernels" > "$W/roofs16-daxpy.toml"
      ./build-gpu/rooflab run "$W/roofs16-daxpy.toml" --out "$W/roofs16-daxpy" > "$W/roofs16-daxpy.log" 2>&1
      echo "roofs16 daxpy: rc=$?" | tee -a "$W/summary.txt"
      python3 - "$W/roofs16.toml" "$W/roofs16-daxpy/results.json" <<'PY' | tee -a "$W/summary.txt"
import json, re, sys
model = dict(re.findall(r"^(\w+) = ([0-9.e+]+)$", open(sys.argv[1]).read(), re.M))
num = lambda k: float(model[k]) if k in model else None
dram, l2, fp64, int32 = num("dram_gbps"), num("l2_gbps"), num("fp64_gflops"), num("int32_gops")
print(f"roofs16: DRAM {dram} GB/s, L2 {l2} GB/s = {(l2 or 0) / (dram or 1):.2f}x DRAM (expect ~2-3x; datasheet gives none)")
print(f"roofs16: FP64 {fp64} GFLOP/s = {fp64 / 33500 if fp64 else 0:.2f} of the 33.5 TFLOP/s datasheet (expect 0.9-1.05)")
print(f"roofs16: int32 {int32} GOP/s = {int32 / 33454.08 if int32 else 0:.2f} of 132 x 64 IMAD x 2 x 1.98 GHz")
d = json.load(open(sys.argv[2]))
for r in d["records"]:
    p = r["roofline"]["device"]
    print(f"roofs16: daxpy/{r['variant']}: arithmetic {r['work'].get('arithmetic')}, ridge {p.get('ridge_intensity'):.4f}"
          f" (FP64 / DRAM = {d['models']['device'].get('fp64_gflops', 0) / d['models']['device']['dram_gbps']:.4f}),"
          f" {p.get('fraction_of_roof')} of roof, above_roof {p.get('above_roof')}")
PY
      ;;
    cost)
      t0=$(date +%s.%N)
      # Every format, as a user's default run writes them: the reports are part of the wall.
      ./build-gpu/rooflab run --device gpu --phases --out "$W/cost-default" > "$W/cost-default.log" 2>&1
      default_rc=$?
      default_wall=$(seconds_since "$t0")
      t0=$(date +%s.%N)
      ./build-gpu/rooflab run bench/configs/estimate-h100.toml --device gpu --phases --out "$W/cost-batch" \
        > "$W/cost-batch.log" 2>&1
      batch_rc=$?
      batch_wall=$(seconds_since "$t0")
      printf '{"default": %s, "default_rc": %s, "batch": %s, "batch_rc": %s}\n' "$default_wall" "$default_rc" \
        "$batch_wall" "$batch_rc" > "$W/cost-walls.json"
      # ncu on CUDA kernels like the default's, for the metrics rooflab collected (its full table; a mutant's subset).
      python3 - "$W/cost-default/results.json" "$W" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))["records"]
def names(mode):
    for r in records:
        c = r.get("counters") or {}
        if r["mode"] == mode and c.get("available"):
            return sorted(set(c.get("values", {})) | set(c.get("missing", {})))
    return []
for label, mode in (("full", "normal"), ("mutant", "compute-only")):
    open(f"{sys.argv[2]}/ncu-metrics-{label}.txt", "w").write(",".join(names(mode)))
PY
      NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
      nvcc -O3 -arch=sm_90 -Ibench/baselines -o "$W/ncu_cost" bench/baselines/ncu_cost.cu > "$W/ncu-build.log" 2>&1
      python3 - "$W" "$NCU" <<'PY'
import json, os, subprocess, sys, time
work, ncu = sys.argv[1], sys.argv[2]
out = {}
# The four kernels in turn (ncu meets each again), and a function of its own per launch (as rooflab's
# records each run a program of their own).
for label in ("full", "mutant"):
    metrics = open(f"{work}/ncu-metrics-{label}.txt").read().strip()
    if not metrics or not ncu:
        continue
    for functions in ("same", "distinct"):
        key = label if functions == "same" else f"{label}-distinct"
        runs = {"metrics": len(metrics.split(",")), "ncu": {}, "plain": {}}
        for k in (4, 16):
            program = [f"{work}/ncu_cost", str(k)] + (["distinct"] if functions == "distinct" else [])
            for kind, cmd in (("plain", program),
                              ("ncu", [ncu, "--metrics", metrics, "--cache-control", "all"] + program)):
                t = time.time()
                with open(f"{work}/ncu-{key}-{kind}-{k}.log", "w") as log:
                    subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
                runs[kind][str(k)] = time.time() - t
        out[key] = runs
json.dump(out, open(f"{work}/ncu-times.json", "w"), indent=1)
PY
      echo "cost: default rc=$default_rc ${default_wall} s wall; batch rc=$batch_rc ${batch_wall} s wall" | tee -a "$W/summary.txt"
      python3 bench/cost_summary.py "$W" | tee -a "$W/summary.txt" ;;
    link)
      nvcc -O3 -arch=native bench/baselines/link_baseline.cu -o build-gpu/link_baseline > "$W/link-nvcc.log" 2>&1 \
        && ./build-gpu/link_baseline > "$W/link-baseline.json" 2> "$W/link-baseline.log" \
        || echo '{"error": "link baseline failed: see link-nvcc.log / link-baseline.log"}' > "$W/link-baseline.json"
      # Datasheet roofs: the run measures only the host link and the launch, which its end-to-end studies need.
      printf '%s\n' '[run]' 'device = "gpu"' 'repetitions = 5' 'warmup = 1' 'modes = ["normal"]' 'counters = "off"' \
        'ceilings = "datasheet"' 'formats = ["json", "csv", "html"]' \
        '[[study]]' 'family = "vecadd"' 'variants = ["global"]' 'params = { N = [67108864] }' 'end_to_end = true' \
        'overlap_chunks = [2, 4, 8]' \
        '[[study]]' 'family = "matmul"' 'variants = ["naive_coalesced", "tiled16"]' 'params = { N = [4096] }' \
        'end_to_end = true' > "$W/link.toml"
      ./build-gpu/rooflab run "$W/link.toml" --out "$W/link" > "$W/link.log" 2>&1
      echo "link: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 bench/link_summary.py "$W/link-baseline.json" "$W/link/results.json" | tee "$W/link-summary.txt" | tee -a "$W/summary.txt" ;;
    charts)
      printf '[run]\nmodes = ["normal"]\ncounters = "on"\nformats = ["json", "csv", "html", "png"]\nkernels = ["%s"]\n%s\n' \
        "$PWD/tests/fixtures/kernels/corpus" '[[study]]
family = "transpose"
params = { N = [8192] }
[[study]]
family = "matmul"
params = { N = [1024] }
[[study]]
family = "nw_dp"
params = { N = [512] }' > "$W/charts.toml"
      ./build-gpu/rooflab run "$W/charts.toml" --device gpu --out "$W/charts" > "$W/charts.log" 2>&1
      echo "charts: rc=$? $(seconds_since "$start") s wall; pngs: $(cd "$W/charts" 2>/dev/null && ls *.png 2>/dev/null | tr '\n' ' ')" | tee -a "$W/summary.txt"
      python3 bench/charts_check.py "$W/charts" 2>&1 | tee "$W/charts-check.txt" | grep -E '^charts: (PASS|FAIL)' >> "$W/summary.txt"
      cat "$W/charts-check.txt" ;;
    devices)
      ./build-gpu/rooflab devices > "$W/devices-list.txt" 2>&1
      # The default config with its sizes written out (bench/configs/default-fixed-sizes.toml): the
      # embedded one sizes every family for the device, and these runs compare points across devices.
      ./build-gpu/rooflab run bench/configs/default-fixed-sizes.toml --device cpu,gpu --no-counters --formats json,html,csv --out "$W/devices-compare" \
        > "$W/devices-compare.log" 2>&1
      echo "devices compare: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      sed -n '/^Devices side by side/,/^results:/p' "$W/devices-compare.log" | grep -v '^results:' | tee "$W/devices-speedups.txt"
      for part in 1 2; do
        ./build-gpu/rooflab run bench/configs/default-fixed-sizes.toml --device gpu --no-counters --shard "$part/2" --formats json --out "$W/devices-part$part" \
          > "$W/devices-part$part.log" 2>&1
        echo "devices part $part/2: rc=$?" | tee -a "$W/summary.txt"
      done
      ./build-gpu/rooflab merge "$W/devices-part1" "$W/devices-part2" --out "$W/devices-merged" --formats json,html \
        > "$W/devices-merge.log" 2>&1
      echo "devices merge: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 - "$W/devices-compare/results.json" "$W/devices-merged/results.json" <<'PY' | tee -a "$W/summary.txt"
import json, sys
compare, merged = (json.load(open(p)) for p in sys.argv[1:3])
devices = compare.get("devices", [])
print("devices: compared", ", ".join(f"{d['key']} {d['device']['type']} {d['device']['name']}" for d in devices))
def points(records, device=None):
    return [(r["family"], r["variant"], json.dumps(r["params"], sort_keys=True), r["mode"],
             (r.get("what_if") or {}).get("name"), r["status"], r["verification"]["status"])
            for r in records if device is None or r.get("device") == device]
gpu = next((d["key"] for d in devices if d["device"]["type"] == "GPU"), None)
cpu = next((d["key"] for d in devices if d["device"]["type"] == "CPU"), None)
both = (len(devices) == 2 and gpu and cpu and all(d["models"].get("device") for d in devices)
        and len(points(compare["records"], gpu)) == len(points(compare["records"], cpu)) > 0)
print(f"devices: compare report with both devices, each on its own measured roofs: {'PASS' if both else 'FAIL'}")
one, joined = points(compare["records"], gpu), points(merged["records"])
same_batch = compare.get("batch", {}).get("id") == merged.get("batch", {}).get("id")
unverified = [p for p in joined if p[3] == "normal" and p[6] not in ("passed", "reference")]
failed = [p for p in joined if p[5] != "ok"]
print(f"devices: merged parts {len(joined)} records vs one run's {len(one)}; same batch {same_batch}; "
      f"not ok {len(failed)}; originals not verified {len(unverified)}")
print(f"devices: shards merged equal one run point for point, every record verified: "
      f"{'PASS' if joined == one and same_batch and not failed and not unverified else 'FAIL'}")
for a, b in zip(one, joined):
    if a != b:
        print("devices: first difference:", a, "vs", b)
        break
PY
      ;;
    sizes)
      ./build-gpu/rooflab run --device gpu --no-counters --formats json,csv,html --out "$W/sizes-default" > "$W/sizes-default.log" 2>&1
      echo "sizes default: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      grep 'size rule' "$W/sizes-default.log" | tee -a "$W/summary.txt"
      ./build-gpu/rooflab run bench/configs/sizes-sweep-h100.toml --out "$W/sizes-sweep" > "$W/sizes-sweep.log" 2>&1
      echo "sizes sweep: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
      python3 bench/sizes_tune_check.py sizes "$W/sizes-default/results.json" "$W/sizes-sweep" 2>&1 | tee -a "$W/summary.txt" ;;
    tune)
      python3 bench/baselines/torch_sgemm.py 4096 > "$W/torch-sgemm.json" 2> "$W/torch-sgemm.log"
      for family in reduce matmul; do
        for searcher in exhaustive guided; do
          ./build-gpu/rooflab tune "bench/configs/tune-$family-h100.toml" --searcher "$searcher" --fresh \
            --out "$W/tune-$family-$searcher" > "$W/tune-$family-$searcher.log" 2>&1
          echo "tune $family $searcher: rc=$? $(seconds_since "$start") s wall" | tee -a "$W/summary.txt"
        done
      done
      python3 bench/sizes_tune_check.py tune "$W" 2>&1 | tee -a "$W/summary.txt" ;;
    *) echo "unknown step $step" | tee -a "$W/summary.txt" ;;
  esac
done
tar -czf "$OUT/$tag.tar.gz" -C "$(dirname "$W")" "$tag" 2>/dev/null || true
cat "$W/summary.txt"
