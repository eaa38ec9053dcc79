#!/usr/bin/env bash
# Builds the fuzz corpora from the repository's real inputs and runs the libFuzzer targets.
#
#   scripts/fuzz.sh corpus BUILD                 # (re)make BUILD/fuzz/corpus/<target>/ only
#   scripts/fuzz.sh run BUILD [SECONDS] [TARGET...]  # corpus, then each target for SECONDS (default 60)
#   scripts/fuzz.sh totals BUILD                 # inputs run per target over every run so far
#
# FUZZ_RUNS=N stops each target after N inputs instead (with FUZZ_SEED=S, the same inputs each
# time: scripts/test.sh runs that way, so CI is repeatable). Before fuzzing, each target replays
# fuzz/regressions/<target>/, the inputs that once crashed, hung or threw (each also a test).
# Every run appends "target inputs seconds coverage features commit" to BUILD/fuzz/runs.tsv (the
# commit checked out when it ran: build BUILD from it first); totals adds them up per commit.
#
# BUILD is a build directory configured with -DGPUTLM_FUZZ=ON (clang) whose fuzz_* targets and
# gputlm are built (scripts/test.sh makes build-asan). Seeds: every workload's kernel.ptx and
# launch.json (traces/ and tests/data/workloads/), configs/**/*.json, a trace recorded at test size
# with `gputlm trace record` (whole, and cut to its first warps), the Accel-Sim vectoradd trace (cut
# to its first thread block) and kernelslist.g, plus the small hand-made seeds in
# fuzz/seeds/<target>/. Findings (crash-*, timeout-*, oom-*) are written to BUILD/fuzz/findings/; a
# finding fails the run.
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
  add "$corpus/ptx" traces/*/*/kernel.ptx tests/data/workloads/*/kernel.ptx
  add "$corpus/launch" traces/*/*/launch.json tests/data/workloads/*/launch.json
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
  local limits=(-timeout=10 -rss_limit_mb=2048 -max_len=65536 -artifact_prefix="$findings/")
  if compgen -G "fuzz/regressions/$1/*" > /dev/null; then
    "$exe" "${limits[@]}" fuzz/regressions/"$1"/* > "$findings.replay.log" 2>&1 ||
      { grep -E 'ERROR|SUMMARY|fuzz finding' "$findings.replay.log" >&2; echo "fuzz_$1: a regression input fails" >&2; return 1; }
  fi
  local budget=(-max_total_time="$seconds")
  [ -n "${FUZZ_RUNS:-}" ] && budget=(-runs="$FUZZ_RUNS")
  [ -n "${FUZZ_SEED:-}" ] && budget+=(-seed="$FUZZ_SEED")
  local log=$build/fuzz/$1.log start=$SECONDS
  "$exe" "$build/fuzz/found/$1" "$corpus/$1" -dict="fuzz/$1.dict" "${budget[@]}" "${limits[@]}" \
    -print_final_stats=1 > "$log" 2>&1 || true
  grep -E '^(#[0-9]+.*(DONE|pulse)|Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY|fuzz finding)' "$log" || true
  local inputs cov
  inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | tail -1 | sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1\t\2/')
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "${inputs:-0}" "$((SECONDS - start))" "${cov:-0	0}" \
    "$(git rev-parse --short HEAD 2> /dev/null || echo unknown)" >> "$build/fuzz/runs.tsv"
  if compgen -G "$findings/*" > /dev/null; then
    echo "fuzz_$1: FINDINGS in $findings" >&2
    return 1
  fi
}

if [ "$action" = totals ]; then
  [ -f "$build/fuzz/runs.tsv" ] || { echo "no runs recorded in $build/fuzz/runs.tsv" >&2; exit 1; }
  printf "%-10s %-10s %12s %9s %6s %8s\n" target commit inputs seconds cov features
  awk -F'\t' '{ k = $1 " " ($6 == "" ? "unknown" : $6); n[k] += $2; s[k] += $3; c[k] = $4; f[k] = $5 }
    END { for (k in n) { split(k, p, " "); printf "%-10s %-10s %12d %9d %6d %8d\n", p[1], p[2], n[k], s[k], c[k], f[k] } }' \
    "$build/fuzz/runs.tsv" | sort
  exit 0
fi
make_corpus
[ "$action" = corpus ] && exit 0
status=0
for t in "${targets[@]}"; do
  if [ -n "${FUZZ_RUNS:-}" ]; then echo "fuzz_$t: $FUZZ_RUNS inputs"; else echo "fuzz_$t: $seconds s"; fi
  run_target "$t" || status=1
done
exit $status
