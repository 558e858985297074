#!/usr/bin/env bash
# Run HERE (a Debian machine with network): downloads the Debian packages that the GPU machine
# lacks (toml++, muParser, libclang 14 with the LLVM library it links) into .deps/debs, a git-ignored folder that the device tool carries.
# The GPU machine reaches no package registry, so it unpacks these with scripts/gpu-setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps/debs
cd .deps/debs
apt-get download libtomlplusplus-dev libtomlplusplus3 libmuparser-dev libmuparser2v5
# Automatic mutants: libclang's C API (headers, library, clang's OpenCL headers) and libllvm14.
apt-get download libclang-14-dev libclang1-14 libclang-common-14-dev libllvm14
ls -l
