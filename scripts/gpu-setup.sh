#!/usr/bin/env bash
# Run ON THE GPU MACHINE (Ubuntu image with CUDA, CLHPP, CLI11, nlohmann-json, GoogleTest; no
# registry): unpacks the carried .deps/debs into .deps/prefix (never over /), registers NVIDIA's
# OpenCL ICD, and builds rooflab into build-gpu. Usage: bash scripts/gpu-setup.sh [cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
prefix=$root/.deps/prefix
if [ ! -d .deps/debs ]; then
  echo "gpu-setup: .deps/debs missing: run scripts/fetch-gpu-deps.sh here and carry .deps" >&2
  exit 1
fi
mkdir -p "$prefix"
for deb in .deps/debs/*.deb; do dpkg -x "$deb" "$prefix"; done
mkdir -p /etc/OpenCL/vendors
[ -f /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# PoCL, when fetched (ROOFLAB_GPU_POCL=1): the CPU as a second OpenCL device, for --device cpu,gpu.
bash scripts/register-pocl.sh "$prefix" /etc/OpenCL/vendors
# The .pc files say prefix=/usr; the sysroot makes pkg-config point into the unpacked prefix.
export PKG_CONFIG_PATH=$prefix/usr/lib/x86_64-linux-gnu/pkgconfig:$prefix/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$prefix
export LD_LIBRARY_PATH=$prefix/usr/lib/x86_64-linux-gnu:$prefix/usr/lib/llvm-14/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# cairo finds the chart's font through fontconfig, whose compiled-in /etc/fonts is not there: a
# config of our own points it at the unpacked fonts.
cat > "$prefix/fonts.conf" <<FONTS
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>$prefix/usr/share/fonts</dir><cachedir>$prefix/fontconfig-cache</cachedir></fontconfig>
FONTS
export FONTCONFIG_FILE=$prefix/fonts.conf
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DROOFLAB_DEPS_PREFIX="$prefix" "$@" > build-gpu.log 2>&1 \
  || { cat build-gpu.log; exit 1; }
cmake --build build-gpu -j16 >> build-gpu.log 2>&1 || { tail -50 build-gpu.log; exit 1; }
grep -q "cairo not found" build-gpu.log && echo "gpu-setup: warning: cairo not found, no PNG charts" >&2
echo "gpu-setup: built $(ls build-gpu/rooflab); export LD_LIBRARY_PATH=$LD_LIBRARY_PATH FONTCONFIG_FILE=$FONTCONFIG_FILE"
