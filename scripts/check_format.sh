#!/usr/bin/env bash
# Fails when a C++ or CUDA source differs from what clang-format makes of it (.clang-format:
# Google's style, 100 columns). `scripts/check_format.sh --fix` formats them in place instead.
# Left out: the CUDA sources of committed PTX (traces/, tests/data/), whose .loc lines name their
# source lines; reformatting one means regenerating its PTX (scripts/regen_ptx.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.hpp' '*.cu' | grep -Ev '^(traces|tests/data)/.*\.cu$')
if [ "${1:-}" = --fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -P2 -n 40 clang-format -i
  exit 0
fi
# The whole output first: xargs's status says whether any file differs, and a pipe into head
# would hide it (pipefail).
status=0
out=$(printf '%s\0' "${files[@]}" | xargs -0 -P2 -n 40 clang-format --dry-run --Werror 2>&1) || status=$?
if [ "$status" -eq 0 ] && [ -z "$out" ]; then
  echo "format_check: ${#files[@]} files as clang-format makes them"
  exit 0
fi
printf '%s\n' "$out" | head -40
echo "format_check: the files above differ from clang-format's output (scripts/check_format.sh --fix)"
exit 1
