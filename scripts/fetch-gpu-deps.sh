#!/usr/bin/env bash
# Run HERE (a Debian machine with network): downloads the Debian packages that the GPU machine
# lacks (toml++, muParser, libclang 14 with the LLVM library it links, cairo for the PNG charts) into .deps/debs, a git-ignored folder that the device tool carries.
# The GPU machine reaches no package registry, so it unpacks these with scripts/gpu-setup.sh.
# ROOFLAB_GPU_POCL=1 adds PoCL, the CPU as an OpenCL device beside the GPU (`rooflab run --device
# cpu,gpu`), instead of libclang and cairo: Debian 12's PoCL links LLVM 15, not the LLVM 14 of
# libclang, and the two sets together are far over the 64 MiB the device tool carries.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${ROOFLAB_GPU_POCL:-0}" = 1 ] && [ "${ROOFLAB_GPU_LIBCLANG:-0}" = 1 ]; then
  echo "fetch-gpu-deps: ROOFLAB_GPU_POCL=1 and ROOFLAB_GPU_LIBCLANG=1 do not fit together in 64 MiB (LLVM 15 and LLVM 14): choose one" >&2
  exit 2
fi
mkdir -p .deps/debs
cd .deps/debs
apt-get download libtomlplusplus-dev libtomlplusplus3 libmuparser-dev libmuparser2v5
# Automatic mutants on the GPU machine, only with ROOFLAB_GPU_LIBCLANG=1: libclang, clang (the
# preprocessor) and libLLVM are 47 MB of the 64 MiB the device tool carries, so they are left out
# unless asked for, and with them cairo is (no PNG charts there). Without them the GPU build says
# automatic mutants are off.
rm -f libclang-14-dev_*.deb libclang1-14_*.deb libclang-common-14-dev_*.deb libllvm14_*.deb libz3-4_*.deb libedit2_*.deb \
  clang-14_*.deb libclang-cpp14_*.deb
if [ "${ROOFLAB_GPU_LIBCLANG:-0}" = 1 ]; then
  # Automatic mutants: libclang's C API (headers, library, clang's OpenCL headers), clang itself (it
  # preprocesses a kernel before the rewrite) with libclang-cpp, libllvm14 and the libraries it links
  # that the GPU image lacks (libz3; libedit).
  apt-get download libclang-14-dev libclang1-14 libclang-common-14-dev libllvm14 libz3-4 libedit2 clang-14 libclang-cpp14
  # clang's own headers: only OpenCL's are read.
  common=$(ls libclang-common-14-dev_*.deb)
  rm -rf trim && dpkg-deb -R "$common" trim
  find trim/usr/lib/llvm-14/lib/clang -type f ! -name 'opencl-c*.h' -delete
  rm -rf trim/usr/share
  dpkg-deb -b -Zxz trim "$common" > /dev/null && rm -rf trim
  # libclang-14-dev is 23 MB, most of it clang's static libraries, and the device tool carries 64 MiB:
  # rooflab needs only its C API headers and the libclang.so link, so the package is repacked with those.
  dev=$(ls libclang-14-dev_*.deb)
  if [ "$(stat -c %s "$dev")" -gt 5000000 ]; then
    rm -rf trim && dpkg-deb -R "$dev" trim
    find trim/usr/lib/llvm-14 -mindepth 1 -maxdepth 1 ! -name include ! -name lib -exec rm -rf {} +
    find trim/usr/lib/llvm-14/include -mindepth 1 -maxdepth 1 ! -name clang-c -exec rm -rf {} +
    find trim/usr/lib/llvm-14/lib -mindepth 1 ! -name 'libclang*.so*' -exec rm -rf {} +
    rm -rf trim/usr/share trim/usr/include trim/usr/lib/x86_64-linux-gnu
    dpkg-deb -b -Znone trim "$dev" > /dev/null && rm -rf trim
  fi
fi
rm -f libpocl2_*.deb libpocl2-common_*.deb pocl-opencl-icd_*.deb libllvm15_*.deb libclang-cpp15_*.deb libhwloc15_*.deb
if [ "${ROOFLAB_GPU_POCL:-0}" = 1 ]; then
  # PoCL and what it loads that an Ubuntu CUDA image lacks: LLVM 15 and libclang-cpp 15 (it compiles
  # kernels in-process), hwloc, and LLVM's z3 and libedit; libxml2, libffi and libtinfo are in the
  # image. PoCL finds its kernel library and headers relative to libpocl.so (../../share/pocl), so it
  # runs from the unpacked prefix; scripts/gpu-setup.sh registers its ICD.
  apt-get download pocl-opencl-icd libpocl2 libpocl2-common libllvm15 libclang-cpp15 libhwloc15 libz3-4 libedit2
  # libpocl2 holds a 9 MB kernel library per x86 instruction set; PoCL loads the one of the host's
  # CPU (and aborts without it). GPU hosts have AVX-512 (Sapphire Rapids, Genoa) or AVX2 (Milan):
  # those two are kept, and the package repacked with xz.
  pocl=$(ls libpocl2_*.deb)
  if [ "$(stat -c %s "$pocl")" -gt 6000000 ]; then
    rm -rf trim && dpkg-deb -R "$pocl" trim
    find trim/usr/share/pocl -name 'kernel-*.bc' ! -name '*-avx512.bc' ! -name '*-avx2.bc' -delete
    rm -rf trim/usr/share/doc
    dpkg-deb -b -Zxz trim "$pocl" > /dev/null && rm -rf trim
  fi
fi
if [ "${ROOFLAB_GPU_LIBCLANG:-0}" = 1 ] || [ "${ROOFLAB_GPU_POCL:-0}" = 1 ]; then
  rm -f libcairo*.deb libpixman*.deb libfontconfig*.deb fontconfig-config*.deb libfreetype*.deb libpng*.deb \
    libbrotli*.deb libexpat1*.deb libx11*.deb libxcb*.deb libxrender*.deb libxext*.deb libxau*.deb libxdmcp*.deb \
    libbsd0*.deb libmd0*.deb x11proto-dev*.deb zlib1g-dev*.deb libglib2.0*.deb libffi*.deb libpcre2*.deb fonts-dejavu-core*.deb
  ls -l
  exit 0
fi
# cairo: the -dev packages whose .pc files `pkg-config cairo` walks (Requires and Requires.private;
# listed with pkg-config --print-requires-private and dpkg -S on Debian 12), the shared libraries
# they link, and one font for the chart text. Base libraries every Ubuntu image has (libc6, zlib1g)
# are left out.
apt-get download libcairo2-dev libcairo2 \
  libpixman-1-dev libpixman-1-0 libfontconfig-dev libfontconfig1 fontconfig-config \
  libfreetype-dev libfreetype6 libpng-dev libpng16-16 libbrotli-dev libbrotli1 libexpat1-dev libexpat1 \
  libx11-dev libx11-6 libx11-data libxcb1-dev libxcb1 libxcb-render0-dev libxcb-render0 \
  libxcb-shm0-dev libxcb-shm0 libxrender-dev libxrender1 libxext-dev libxext6 libxau-dev libxau6 \
  libxdmcp-dev libxdmcp6 libbsd0 libmd0 x11proto-dev zlib1g-dev \
  libglib2.0-dev libglib2.0-0 libffi-dev libffi8 libpcre2-dev libpcre2-8-0 \
  fonts-dejavu-core
ls -l
