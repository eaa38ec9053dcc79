#!/usr/bin/env bash
# Installs missing Debian packages, configures build/ once and builds incrementally with -j2.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ccache_env.sh
scripts/setup.sh
if [ ! -f build/CMakeCache.txt ]; then
  launcher=()
  command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" > /dev/null
fi
cmake --build build -j2 "$@"
