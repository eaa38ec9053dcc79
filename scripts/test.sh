#!/usr/bin/env bash
# Builds everything and runs the whole test suite (GoogleTest through CTest), 2 jobs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir build --output-on-failure -j2 "$@"
