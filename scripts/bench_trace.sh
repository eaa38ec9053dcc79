#!/usr/bin/env bash
# Trace record and replay, measured (issue 9): for a workload at study size, the trace's size (text
# and gzip) per million warp instructions, and the medians of 3 execution-driven runs against 3
# replays (seconds and peak memory). Then a trace of many launches (the workload's launches
# repeated REPEAT times, several GB) replayed to show memory stays bounded: a trace is streamed,
# not loaded. Usage: scripts/bench_trace.sh [WORKLOAD] [CONFIG] [REPEAT]   (defaults:
# traces/rodinia-like/hotspot configs/fermi-gtx480.json 20). Scratch files go to $TMPDIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
workload="${1:-traces/rodinia-like/hotspot}"
config="${2:-configs/fermi-gtx480.json}"
repeat="${3:-20}"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" --target gputlm
cd "$root"
bin=build/bin/gputlm
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
measure() {  # prints "<seconds> <peak KB>" of the command
  /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

$bin trace record --workload "$workload" --size study --out "$tmp/t.trace" | head -1
$bin trace record --workload "$workload" --size study --out "$tmp/t.trace.gz" >/dev/null
instructions=$($bin run --config "$config" --trace "$tmp/t.trace" | awk '/^warp instructions/ {print $3}')
text=$(stat -c %s "$tmp/t.trace"); gz=$(stat -c %s "$tmp/t.trace.gz")
awk -v i="$instructions" -v t="$text" -v g="$gz" 'BEGIN {
  printf "trace size          %.1f MB text, %.2f MB gzip for %.2f M warp instructions: %.1f MB / %.2f MB per million\n",
         t/1e6, g/1e6, i/1e6, t/i, g/i }'
for kind in exec replay replay-gz; do
  : >"$tmp/$kind"
  for _ in 1 2 3; do
    case $kind in
      exec) measure $bin run --config "$config" --workload "$workload" --size study ;;
      replay) measure $bin run --config "$config" --trace "$tmp/t.trace" ;;
      replay-gz) measure $bin run --config "$config" --trace "$tmp/t.trace.gz" ;;
    esac >>"$tmp/$kind"
  done
  printf "%-19s %s s, %s MB peak (medians of 3)\n" "$kind" "$(cut -d' ' -f1 "$tmp/$kind" | median)" \
    "$(( $(cut -d' ' -f2 "$tmp/$kind" | median) / 1024 ))"
done

# Many launches: the header and module once, then the launches REPEAT times (renumbered).
header_lines=$(awk '/^launch /{print NR-1; exit}' "$tmp/t.trace")
{
  head -n "$header_lines" "$tmp/t.trace"
  for r in $(seq 0 $((repeat - 1))); do
    tail -n +"$((header_lines + 1))" "$tmp/t.trace" | awk -v r="$r" '$1 == "launch" {$2 = $2 + r * 1000} {print}'
  done
} >"$tmp/big.trace"
big=$(stat -c %s "$tmp/big.trace")
rm -f "$tmp/t.trace.gz"
read -r secs kb < <(measure $bin run --config "$config" --trace "$tmp/big.trace")
awk -v b="$big" -v s="$secs" -v k="$kb" -v r="$repeat" 'BEGIN {
  printf "many launches       %.2f GB trace (%d x the workload): replayed in %s s, %.0f MB peak\n", b/1e9, r, s, k/1024 }'
