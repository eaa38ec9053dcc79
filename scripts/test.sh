#!/usr/bin/env bash
# Builds everything and runs the whole test suite (GoogleTest through CTest), 2 jobs; then the
# same suite again in build-asan/ (clang -O1 with AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer, every report fatal), and each fuzz target on its corpus for FUZZ_RUNS inputs
# (default 20,000) from FUZZ_SEED (default 1), so that a run is repeatable (scripts/fuzz.sh).
# build-asan/ is one build for both (-DGPUTLM_FUZZ=ON). Set GPUTLM_SKIP_ASAN=1 to run the normal
# suite only. In the sanitizer pass (GPUTLM_SANITIZER_PASS) the timed-workload tests run every
# workload on narasiman-baseline and a fixed quarter of the other (preset, workload) pairs, once
# each, without the polled and traced repetitions (the normal pass makes them all). Arguments go
# to both ctest runs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ccache_env.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j2 "$@"
[ "${GPUTLM_SKIP_ASAN:-0}" = 1 ] && exit 0

launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f build-asan/CMakeCache.txt ]; then
  cmake -S . -B build-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DGPUTLM_FUZZ=ON "${launcher[@]}" > /dev/null
fi
start=$SECONDS
cmake --build build-asan -j2
echo "build-asan: built in $((SECONDS - start)) s"
start=$SECONDS
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
GPUTLM_SANITIZER_PASS=1 ctest --test-dir build-asan --output-on-failure -j2 "$@"
echo "build-asan: suite in $((SECONDS - start)) s"
start=$SECONDS
FUZZ_RUNS=${FUZZ_RUNS:-20000} FUZZ_SEED=${FUZZ_SEED:-1} scripts/fuzz.sh run build-asan
echo "build-asan: fuzz targets in $((SECONDS - start)) s"
