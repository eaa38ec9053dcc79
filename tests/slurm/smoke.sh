#!/usr/bin/env bash
# Runs real jobs on the one-node cluster of scripts/slurm_local.sh (started if it is not up) and
# checks what `gputlm sweep`'s Slurm backend relies on, with the commands it will use; no slurmdbd
# (sacct does not work), so a task's outcome comes from `scontrol show job J_I` while MinJobAge
# keeps the job, and from the jobcomp file (<state dir>/jobcomp.txt) after that.
#   1. an array --array=0-11%4 whose task i writes out/<i> atomically; wait with squeue; 12 files
#   2. task 5 exits 3: FAILED and 3:0 in scontrol and in jobcomp; its log is DIR/<job>_5.log
#   3. scancel of one running task (J_7): CANCELLED, the other tasks complete, and
#      `sbatch --array=7` runs just the missing one; a pending task cancelled leaves no record
#   4. --partition, --time, --mem and the %4 throttle are accepted; --mem above the node's memory
#      is refused at submission
#   5. times 12 tasks of `true`, from sbatch to the last one done
# Exits 0 when every check passes. Leaves the cluster up; its work directory is removed on success.
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/slurm_local.sh start > /dev/null
eval "$(scripts/slurm_local.sh env)"
state_dir=$(dirname "$SLURM_CONF")
jobcomp=$state_dir/jobcomp.txt
work=$(mktemp -d "${TMPDIR:-/tmp}/gputlm-slurm-smoke.XXXXXX")
failures=0

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
pass() { echo "ok:   $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }

# Waits until job $1 (a whole array) has left the queue: squeue prints nothing, or, once
# slurmctld has purged it (MinJobAge), says "Invalid job id". Any other error is retried.
wait_job() {
  local job=$1 limit=${2:-300} out start=$SECONDS
  while :; do
    if out=$(squeue -h -j "$job" -o '%i' 2>&1); then
      [ -z "$out" ] && return 0
    elif [[ $out == *"Invalid job id"* ]]; then
      return 0
    fi
    [ $((SECONDS - start)) -ge "$limit" ] && { echo "job $job still queued after $limit s" >&2; return 1; }
    sleep 0.2
  done
}

# "STATE EXITCODE" of array task $1_$2 from slurmctld (e.g. "FAILED 3:0"); nothing if unknown.
task_state_scontrol() {
  scontrol show job "$1_$2" 2>/dev/null |
    awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "=");
           if (kv[1] == "JobState") s = kv[2]; if (kv[1] == "ExitCode") e = kv[2] } }
         END { if (s != "") print s, e }'
}
# The same from the jobcomp file (the last record of that task: a rerun appends another).
task_state_jobcomp() {
  awk -v a="ArrayJobId=$1" -v t="ArrayTaskId=$2" '
    { has_a = 0; has_t = 0; s = ""; e = ""
      for (i = 1; i <= NF; i++) { if ($i == a) has_a = 1; if ($i == t) has_t = 1
        split($i, kv, "="); if (kv[1] == "JobState") s = kv[2]; if (kv[1] == "ExitCode") e = kv[2] }
      if (has_a && has_t) last = s " " e }
    END { if (last != "") print last }' "$jobcomp"
}

# Task i records its start and end (for the concurrency check), then writes out/<i> atomically.
# FAIL_TASK exits 3 instead; SLOW_TASK sleeps 120 s (to be cancelled).
cat > "$work/task.sh" << 'EOF'
#!/bin/bash
i=$SLURM_ARRAY_TASK_ID
out=$WORK/out
start=$(date +%s.%N)
echo "task $i of job $SLURM_ARRAY_JOB_ID on $(hostname), cpus $SLURM_CPUS_ON_NODE"
if [ "$i" = "${SLOW_TASK:-}" ]; then sleep 120; else sleep "${SLEEP:-1}"; fi
if [ "$i" = "${FAIL_TASK:-}" ]; then echo "task $i fails on purpose" >&2; exit 3; fi
mkdir -p "$out"
echo "$start $(date +%s.%N)" > "$out/.$i.$$" && mv "$out/.$i.$$" "$out/$i"
EOF
chmod +x "$work/task.sh"
export WORK=$work

# 1, 2, 4: an array of 12, at most 4 at once, task 5 failing.
t0=$(date +%s.%N)
job=$(SLEEP=2 FAIL_TASK=5 sbatch --parsable --array=0-11%4 --partition=gputlm --time=10 \
      --mem=200M --job-name=smoke --output="$work/%A_%a.log" "$work/task.sh")
echo "submitted array job $job"
check "array job $job leaves the queue" wait_job "$job"
echo "    12 tasks of 2 s: $(elapsed "$t0") s from sbatch to done"
n=0
for i in $(seq 0 11); do [ -f "$work/out/$i" ] && n=$((n + 1)); done
check "11 of 12 output files (all but the failing task 5): $n" [ "$n" = 11 ]
check "no output file from task 5" [ ! -e "$work/out/5" ]
s=$(task_state_scontrol "$job" 5); echo "    scontrol show job ${job}_5: $s"
check "task 5 is FAILED 3:0 in scontrol" [ "$s" = "FAILED 3:0" ]
s=$(task_state_jobcomp "$job" 5); echo "    jobcomp, ArrayJobId=$job ArrayTaskId=5: $s"
check "task 5 is FAILED 3:0 in jobcomp" [ "$s" = "FAILED 3:0" ]
s=$(task_state_scontrol "$job" 4)
check "task 4 is COMPLETED 0:0 ($s)" [ "$s" = "COMPLETED 0:0" ]
check "task 5's log $work/${job}_5.log has its stderr" grep -q "fails on purpose" "$work/${job}_5.log"
info=$(scontrol show job "${job}_0")
for want in Partition=gputlm TimeLimit=00:10:00 ArrayTaskThrottle=4 mem=200M; do
  check "scontrol show job ${job}_0 has $want" grep -q "$want" <<< "$info"
done
# How many tasks ran at once, from their own start and end times: at most min(4, CPUs), and more
# than one when the node has several CPUs.
cpus=$(sinfo -h -N -o '%c' | head -n 1)
overlap=$(cat "$work"/out/[0-9]* | awk '{ print $1, 1; print $2, -1 }' | sort -k1,1g -k2,2n |
          awk '{ c += $2; if (c > m) m = c } END { print m }')
limit=$((cpus < 4 ? cpus : 4))
check "at most $limit tasks at once (saw $overlap)" [ "$overlap" -le "$limit" ]
[ "$cpus" -ge 2 ] && check "several tasks at once on $cpus CPUs (saw $overlap)" [ "$overlap" -ge 2 ]

# --mem more than the node has is refused by sbatch itself.
check "--mem above RealMemory is refused" \
  bash -c '! sbatch --parsable --mem=100000000M --wrap=true > /dev/null 2>&1'

# 3: cancel one running task, the others complete, rerun only that one.
rm -rf "$work/out"
job=$(SLOW_TASK=7 sbatch --parsable --array=0-11 --output="$work/%A_%a.log" "$work/task.sh")
echo "submitted array job $job (task 7 sleeps 120 s)"
for _ in $(seq 1 300); do
  [ "$(squeue -h -j "${job}_7" -o '%T' 2>/dev/null)" = RUNNING ] && break
  sleep 0.2
done
check "task ${job}_7 is running" [ "$(squeue -h -j "${job}_7" -o '%T')" = RUNNING ]
scancel "${job}_7"
check "array job $job leaves the queue after scancel ${job}_7" wait_job "$job" 60
s=$(task_state_scontrol "$job" 7); echo "    scontrol show job ${job}_7: $s"
check "task 7 is CANCELLED in scontrol" [ "${s%% *}" = CANCELLED ]
s=$(task_state_jobcomp "$job" 7); echo "    jobcomp, ArrayJobId=$job ArrayTaskId=7: $s"
check "task 7 is CANCELLED in jobcomp" [ "${s%% *}" = CANCELLED ]
missing=()
for i in $(seq 0 11); do [ -f "$work/out/$i" ] || missing+=("$i"); done
check "only task 7 has no output (missing: ${missing[*]})" [ "${missing[*]}" = 7 ]
rerun=$(sbatch --parsable --array=7 --output="$work/%A_%a.log" "$work/task.sh")
check "rerun $rerun of task 7 leaves the queue" wait_job "$rerun"
s=$(task_state_scontrol "$rerun" 7)
check "rerun ${rerun}_7 is COMPLETED 0:0 ($s)" [ "$s" = "COMPLETED 0:0" ]
check "out/7 written by the rerun" [ -f "$work/out/7" ]

# A pending task cancelled is dropped without a trace: neither scontrol nor jobcomp knows it
# (a sweep must treat "no record and no output" as not run). Plain scancel J_I only: with
# --signal=KILL, Slurm 22.05 cancels every pending task of the array, not just task I.
job=$(sbatch --parsable --array=0-3%1 --output=/dev/null --wrap='sleep 2')
sleep 0.5
check "task ${job}_3 is pending" [ "$(squeue -h -j "${job}_3" -o '%T')" = PENDING ]
scancel "${job}_3"
wait_job "$job" 60
check "a pending task cancelled has no record in scontrol" [ -z "$(task_state_scontrol "$job" 3)" ]
check "... nor in jobcomp" [ -z "$(task_state_jobcomp "$job" 3)" ]
check "... while its siblings completed" [ "$(task_state_jobcomp "$job" 2)" = "COMPLETED 0:0" ]

# 5: scheduling overhead: 12 tasks that do nothing.
t0=$(date +%s.%N)
job=$(sbatch --parsable --array=0-11 --output=/dev/null --wrap=true)
wait_job "$job"
echo "    12 tasks of true: $(elapsed "$t0") s from sbatch to done"

if [ $failures -eq 0 ]; then
  rm -rf "$work"
  echo "slurm smoke: all checks pass"
else
  echo "slurm smoke: $failures checks failed (work directory $work kept)"
  exit 1
fi
