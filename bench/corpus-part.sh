#!/usr/bin/env bash
# Part of the H100 mutant corpus (bench/configs/corpus-h100.toml) in one device call: the families
# named, under a time limit, so that the whole corpus fits calls of 10 minutes. Writes $OUT/PART.tgz
# (its results.json, log and config). Usage (GPU machine, repository root):
#   bash bench/corpus-part.sh PART family1,family2,... LIMIT_SECONDS
# Records: bench/results/*-h100-corpus*/; bench/automut_summary.py reads the results of every part.
set -uo pipefail
cd "$(dirname "$0")/.."
P=$1; FAM=$2; LIM=$3
# A carried .deps replaces the unpacked prefix of an earlier call: set up again when it is gone.
{ [ -x build-gpu/rooflab ] && [ -d .deps/prefix/usr ]; } || bash scripts/gpu-setup.sh > $OUT/setup-$P.log 2>&1
export LD_LIBRARY_PATH=$PWD/.deps/prefix/usr/lib/x86_64-linux-gnu:$PWD/.deps/prefix/usr/lib/llvm-14/lib:${LD_LIBRARY_PATH:-}
python3 -c "import re,sys;t=open('bench/configs/corpus-h100.toml').read();h,*s=t.split('[[study]]');k=sys.argv[1].split(',');print(h.replace('../../tests','$PWD/tests')+''.join('[[study]]'+x for x in s if re.search('family = \"(%s)\"'%'|'.join(k),x)))" $FAM > $OUT/$P.toml
ROOFLAB_EXTRA_METRICS=smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_integer_pred_on.sum timeout $LIM ./build-gpu/rooflab run $OUT/$P.toml --device gpu --formats json,csv --out $OUT/$P > $OUT/$P.log 2>&1; echo "rc=$?"
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/$P/nvidia-smi.txt
tar czf $OUT/$P.tgz -C $OUT $P $P.log $P.toml; rm -rf $OUT/$P; tail -3 $OUT/$P.log
