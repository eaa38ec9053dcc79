#!/usr/bin/env bash
# The sweep tool's own cost, measured (issue 22): a sweep of 1,024 test-size runs
# (sweeps-examples/bench_1024.json) run locally on JOBS processes, then again fully cached, then on
# the one-node Slurm cluster (scripts/slurm_local.sh; started here if it is not up, stopped again
# after). Overhead = wall time minus the runs' own time (each run's process wall time, summed, over
# the jobs), as a share of the wall time. Prints a table and one JSON line.
# Usage: scripts/bench_sweep.sh [JOBS] [RUNS_PER_SLURM_TASK]   (defaults: the cores; the runs over
#   the cluster's CPUs, one array task per CPU). The Slurm sweep polls squeue every second.
#   GPUTLM_BENCH_SKIP_SLURM=1 measures the local backend only. Scratch output goes to $TMPDIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="${1:-$(nproc)}"
per_task="${2:-}"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" --target gputlm
cd "$root"
bin=build/bin/gputlm
spec=sweeps-examples/bench_1024.json
tmp="$(mktemp -d)"
started_slurm=0
cleanup() {
  [ "$started_slurm" = 1 ] && scripts/slurm_local.sh stop > /dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

now() { date +%s.%N; }
# The runs' own time: each run's process wall time from its result.json, summed.
run_seconds() {
  /usr/bin/python3 - "$1" <<'PY'
import json, pathlib, sys
print(sum(json.loads(p.read_text()).get("host_seconds", 0) for p in pathlib.Path(sys.argv[1]).glob("runs/*/result.json")))
PY
}
# measure LABEL OUT PARALLEL -- command...: runs it, prints one table line, appends a JSON field.
json=""
measure() {
  local label=$1 out=$2 parallel=$3; shift 4
  local start end wall runs
  start=$(now)
  "$@" > "$tmp/$label.log" 2>&1 || { tail -20 "$tmp/$label.log"; echo "bench_sweep: $label failed" >&2; exit 1; }
  end=$(now)
  wall=$(/usr/bin/python3 -c "print($end - $start)")
  runs=$(run_seconds "$out")
  /usr/bin/python3 - "$label" "$wall" "$runs" "$parallel" <<'PY'
import sys
label, wall, runs, parallel = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
over = wall - runs / parallel
print(f"{label:<22} wall {wall:8.2f} s   runs {runs:8.2f} s / {parallel} = {runs / parallel:8.2f} s   overhead {over:7.2f} s ({100 * over / wall:5.1f}%)")
PY
  json+="\"$label\": {\"wall_s\": $wall, \"run_s\": $runs, \"parallel\": $parallel},"
}

echo "bench_sweep: $($bin sweep $spec --out "$tmp/local" --dry-run | tail -1 | grep -o '[0-9]* runs') of $spec, $jobs jobs, $($bin --version)"
measure local "$tmp/local" "$jobs" -- $bin sweep $spec --out "$tmp/local" --jobs "$jobs"
start=$(now); $bin sweep $spec --out "$tmp/local" --jobs "$jobs" > "$tmp/cached.log" 2>&1; end=$(now)
cached=$(/usr/bin/python3 -c "print($end - $start)")
printf "%-22s wall %8.2f s   (%s)\n" "local, all cached" "$cached" "$(grep -o '[0-9]* cached' "$tmp/cached.log" | head -1)"
json+="\"cached_wall_s\": $cached,"

if [ "${GPUTLM_BENCH_SKIP_SLURM:-0}" != 1 ]; then
  if ! scripts/slurm_local.sh status > /dev/null 2>&1; then
    scripts/slurm_local.sh start > /dev/null
    started_slurm=1
  fi
  eval "$(scripts/slurm_local.sh env)"
  cpus=$(sinfo -h -o %c | head -1)
  runs=$($bin sweep $spec --out "$tmp/slurm" --dry-run | tail -1 | grep -o '^[^:]*: [0-9]*' | grep -o '[0-9]*$')
  [ -n "$per_task" ] || per_task=$(( (runs + cpus - 1) / cpus ))
  echo "slurm: $cpus CPUs, $per_task runs per array task"
  measure slurm "$tmp/slurm" "$cpus" -- $bin sweep $spec --out "$tmp/slurm" --backend slurm --runs-per-task "$per_task" --poll-seconds 1
  /usr/bin/python3 - "$tmp/local/sweep.csv" "$tmp/slurm/sweep.csv" <<'PY'
import csv, sys
def rows(p):
    return sorted(tuple((k, v) for k, v in r.items() if k != "host_seconds") for r in csv.DictReader(open(p)))
a, b = rows(sys.argv[1]), rows(sys.argv[2])
print(f"slurm vs local CSV     {'identical' if a == b else 'DIFFERENT'} ({len(a)} rows; host_seconds aside)")
PY
fi
echo "{${json%,}}"
