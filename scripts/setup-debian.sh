#!/usr/bin/env bash
# Installs what rooflab needs on Debian 12 (also Ubuntu): compiler, CMake, the libraries it
# builds on (toml++, nlohmann-json, CLI11, muParser, cairo, libclang), GoogleTest, PoCL (the CPU OpenCL device) and oclgrind (which counts a launch's
# work), and clang-format-14, which scripts/check-format.sh runs. Idempotent; uses sudo when not root.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
packages=(
  g++ cmake make pkg-config
  ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers pocl-opencl-icd clinfo
  libtomlplusplus-dev libmuparser-dev libcairo2-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libpng-dev
  libclang-dev clang-14 clang-format-14
  gcc python3-pyopencl python-pyopencl-doc clpeak oclgrind
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-debian: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
