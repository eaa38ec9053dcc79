#!/usr/bin/env bash
# Installs missing Debian packages, configures build/ once and builds incrementally with -j2.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [ ! -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
fi
cmake --build build -j2 "$@"
