#!/usr/bin/env bash
# Builds the fuzz corpora from the repository's real inputs and runs the libFuzzer targets.
#
#   scripts/fuzz.sh corpus BUILD                 # (re)make BUILD/fuzz/corpus/<target>/ only
#   scripts/fuzz.sh run BUILD [SECONDS] [TARGET...]  # corpus, then each target for SECONDS (default 60)
#
# BUILD is a build directory configured with -DGPUTLM_FUZZ=ON (clang) whose fuzz_* targets and
# gputlm are built (scripts/test.sh makes build-asan). Seeds: every workload's kernel.ptx and
# launch.json, configs/**/*.json, a trace recorded at test size with `gputlm trace record` (whole,
# and cut to its first warps), the Accel-Sim vectoradd trace (cut to its first thread block)
# and kernelslist.g, plus the small hand-made seeds in fuzz/seeds/<target>/. Findings (crash-*,
# timeout-*, oom-*) are written to BUILD/fuzz/findings/; a finding fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
action=${1:?usage: scripts/fuzz.sh corpus|run BUILD [SECONDS] [TARGET...]}
build=${2:?usage: scripts/fuzz.sh corpus|run BUILD [SECONDS] [TARGET...]}
seconds=${3:-60}
shift $(( $# < 3 ? $# : 3 ))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ptx launch config trace accel_sim)
corpus=$build/fuzz/corpus

# Copies files into a corpus directory, each named after its path (flattened).
add() {
  local dir=$1; shift
  mkdir -p "$dir"
  for f in "$@"; do cp "$f" "$dir/$(echo "$f" | tr '/' '_')"; done
}

make_corpus() {
  rm -rf "$corpus"
  add "$corpus/ptx" traces/*/*/kernel.ptx
  add "$corpus/launch" traces/*/*/launch.json
  add "$corpus/config" $(find configs -name '*.json' | sort)
  local t=$build/fuzz/recorded
  mkdir -p "$t"
  "$build/bin/gputlm" trace record --workload traces/micro/vecadd --size test --out "$t/vecadd.trace" > /dev/null
  "$build/bin/gputlm" trace record --workload traces/micro/divergence --size test --out "$t/divergence.trace" > /dev/null
  for w in vecadd divergence; do  # the header, module, launch and the first two warps
    awk '/^warp /{ if (++n > 2) exit } { print }' "$t/$w.trace" > "$t/$w.cut.trace"
  done
  add "$corpus/trace" "$t"/*.trace
  local a=traces/accel-sim/vectoradd
  awk '/^warp = /{ if (++n > 2) { print "#END_TB"; exit } } { print }' "$a/kernel-1.traceg" > "$t/vectoradd.cut.traceg"
  add "$corpus/accel_sim" "$t/vectoradd.cut.traceg" "$a/kernelslist.g"
  for d in fuzz/seeds/*/; do
    local name; name=$(basename "$d")
    add "$corpus/$name" "$d"*
  done
}

run_target() {
  local name=$1 exe=$build/bin/fuzz_$1 findings=$build/fuzz/findings/$1
  rm -rf "$findings"  # this run's findings only
  mkdir -p "$findings" "$build/fuzz/found/$1"
  # The corpus directory given first receives the new inputs; the seed corpus stays as made.
  "$exe" "$build/fuzz/found/$1" "$corpus/$1" -dict="fuzz/$1.dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$findings/" 2>&1 | grep -E '^(#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY|fuzz finding)' || true
  if compgen -G "$findings/*" > /dev/null; then
    echo "fuzz_$1: FINDINGS in $findings" >&2
    return 1
  fi
}

make_corpus
[ "$action" = corpus ] && exit 0
status=0
for t in "${targets[@]}"; do
  echo "fuzz_$t: $seconds s"
  run_target "$t" || status=1
done
exit $status
