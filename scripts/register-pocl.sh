#!/usr/bin/env bash
# Registers the PoCL unpacked into PREFIX (fetched by scripts/fetch-gpu-deps.sh with
# ROOFLAB_GPU_POCL=1, unpacked by scripts/gpu-setup.sh) as an OpenCL ICD: VENDORS/pocl.icd (default
# /etc/OpenCL/vendors) names its libpocl.so.2 by absolute path. PoCL finds its kernel library and
# headers relative to that file (PREFIX/usr/share/pocl); the libraries it links (LLVM 15, clang-cpp
# 15, hwloc, z3) come from LD_LIBRARY_PATH=PREFIX/usr/lib/x86_64-linux-gnu, which gpu-setup.sh and
# bench/checks-h100.sh export. Does nothing when PREFIX holds no PoCL.
# To try an unpacked prefix without touching /etc:
#   bash scripts/register-pocl.sh PREFIX DIR && OCL_ICD_VENDORS=DIR LD_LIBRARY_PATH=PREFIX/usr/lib/x86_64-linux-gnu clinfo -l
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PREFIX [VENDORS]" >&2; exit 2; }
prefix=$(realpath "$1")
vendors=${2:-/etc/OpenCL/vendors}
library=$prefix/usr/lib/x86_64-linux-gnu/libpocl.so.2
[ -e "$library" ] || exit 0
if ! ls "$prefix"/usr/share/pocl/kernel-*.bc > /dev/null 2>&1; then
  echo "register-pocl: $prefix has libpocl but no kernel library (usr/share/pocl/kernel-*.bc)" >&2
  exit 1
fi
mkdir -p "$vendors"
echo "$library" > "$vendors/pocl.icd"
# PoCL aborts at its first kernel when the host's instruction set has no kernel library: say so now.
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
wanted=avx2
case $flags in *avx512f*) wanted=avx512 ;; esac
ls "$prefix"/usr/share/pocl/kernel-*-"$wanted".bc > /dev/null 2>&1 \
  || echo "register-pocl: warning: no $wanted kernel library in $prefix/usr/share/pocl: PoCL will abort on this host" >&2
echo "register-pocl: $vendors/pocl.icd -> $library"
