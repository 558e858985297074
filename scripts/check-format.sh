#!/usr/bin/env bash
# Fails, naming them, when files the project formats differ from what clang-format-14 makes of them
# with the repository's .clang-format. Those files: the C, C++ and CUDA sources of analyzer/,
# mutators/, reports/, tests/, capture/ and bench/, tracked or new (not ignored). The OpenCL kernels
# are left as their authors wrote them: kernels/ holds only .cl files, and tests/fixtures/kernels/
# holds OpenCL headers that clang-format would take for C.
# Usage: scripts/check-format.sh [--list]   (--list prints the files and checks nothing)
# CLANG_FORMAT overrides the binary; another major version lays some constructs out differently.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format-14}

mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
                       'analyzer/*' 'mutators/*' 'reports/*' 'tests/*' 'capture/*' 'bench/*' |
                     grep -E '\.(c|cpp|hpp|cu|cuh)$' | grep -v '^tests/fixtures/kernels/' | sort -u)
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${files[@]}"
  exit 0
fi
if ! command -v "$clang_format" > /dev/null 2>&1; then
  echo "check-format: $clang_format not found (Debian: apt-get install clang-format-14)" >&2
  exit 2
fi

# A bad .clang-format would fail every file alike: said once, before the files.
if ! config_error=$("$clang_format" --style=file --dump-config 2>&1 > /dev/null) || [ -n "$config_error" ]; then
  echo "check-format: $clang_format cannot read .clang-format: $config_error" >&2
  exit 2
fi
# One process per 50 files, on every core, each writing its report to a file of its own (on one pipe,
# the lines of parallel processes could mix). A violation reads "FILE:LINE:COL: error: code should be
# clang-formatted"; a process that failed otherwise (exit status above 1, or 1 with no violation) is
# a failure of the check, not a verdict on its files.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
printf '%s\0' "${files[@]}" |
  xargs -0 -n 50 -P "$(nproc)" sh -c \
    'cf=$1 log=$(mktemp "$2/log.XXXXXX"); shift 2
     "$cf" --dry-run --Werror --style=file "$@" > /dev/null 2> "$log"; echo $? > "$log.status"' \
    _ "$clang_format" "$logs"
unformatted="" failed=""
for log in "$logs"/log.??????; do
  status=$(cat "$log.status")
  violations=$(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' "$log" | sort -u)
  if [ "$status" -eq 1 ] && [ -n "$violations" ]; then
    unformatted+="$violations"$'\n'
  elif [ "$status" -ne 0 ]; then
    failed+="exit status $status: $(head -n 5 "$log")"$'\n'
  fi
done
unformatted=$(sed '/^$/d' <<< "$unformatted" | sort -u)
if [ -n "$failed" ]; then
  echo "check-format: $clang_format failed (exit status, file):" >&2
  echo "$failed" >&2
  exit 2
fi
if [ -n "$unformatted" ]; then
  echo "check-format: $(wc -l <<< "$unformatted") of ${#files[@]} files are not formatted as .clang-format says:" >&2
  echo "$unformatted" >&2
  echo "check-format: fix with: $clang_format -i FILE..." >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
