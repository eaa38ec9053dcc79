#!/usr/bin/env bash
# A real one-node Slurm cluster on this machine, for the tests and for trying `gputlm sweep`'s
# Slurm backend without a site cluster.
#
#   scripts/slurm_local.sh start    install what is missing, bring the cluster up, wait for the
#                                   node to be idle, print the line to export; 0 if already up
#   scripts/slurm_local.sh stop     cancel every job, stop slurmd, slurmctld and munged; idempotent
#   scripts/slurm_local.sh status   up or down, the node's state, jobs pending and running;
#                                   exits 0 when up, 3 when down
#   scripts/slurm_local.sh env      print `export SLURM_CONF=...` (for eval)
#
# Installs (Debian packages, only those missing, as scripts/setup.sh does): slurmctld slurmd
# slurm-client munge. Package scripts are kept from starting their own services (a policy-rc.d is
# put in place for the install if the machine has none); no systemd is needed.
#
# Everything else lives in the state directory ${GPUTLM_SLURM_DIR:-/tmp/gputlm-slurm}: the munge
# key, munged's socket, slurm.conf, the controller's state, slurmd's spool, logs, pid files, and
# jobcomp.txt (one line per finished job or array task: JobId, State, ExitCode, ...; it is how a
# job's outcome is read without slurmdbd once MinJobAge has passed). Nothing is written to
# /etc/slurm or /etc/munge: the client commands find the cluster through SLURM_CONF, so run
#   eval "$(scripts/slurm_local.sh env)"      (or: export SLURM_CONF=<state dir>/slurm.conf)
# before sbatch, squeue, scontrol, scancel, sinfo. Jobs inherit it (sbatch exports the environment).
#
# The node is this host (NodeName = `hostname -s`, address 127.0.0.1), CPUs = the online CPUs,
# RealMemory = MemTotal of /proc/meminfo; one partition `gputlm` (Default, MaxTime=INFINITE).
# select/cons_tres with CR_CPU_Memory: a task takes one CPU unless it asks for more, and the
# default memory per CPU is RealMemory / CPUs, so as many tasks as CPUs run at once; --mem is
# accepted up to RealMemory (not enforced: no cgroups, task/none, proctrack/linuxproc). No
# accounting database (sacct does not work); finished jobs stay visible to `scontrol show job` for
# MinJobAge (1 hour). Ports: GPUTLM_SLURM_PORT (slurmctld, default 6817) and the next one (slurmd).
set -euo pipefail

dir=${GPUTLM_SLURM_DIR:-/tmp/gputlm-slurm}
ctld_port=${GPUTLM_SLURM_PORT:-6817}
slurmd_port=$((ctld_port + 1))
conf=$dir/slurm.conf
partition=gputlm
node=$(hostname -s)
packages=(slurmctld slurmd slurm-client munge)

die() { echo "slurm_local: $*" >&2; exit 1; }

# The pid in $1 if that process is alive and is the program $2 (so a reused pid does not count).
alive() {
  local pidfile=$1 comm=$2 pid
  [ -s "$pidfile" ] || return 1
  pid=$(cat "$pidfile")
  [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = "$comm" ] || return 1
  echo "$pid"
}

install_missing() {
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "slurm_local: installing ${missing[*]}"
  local sudo_cmd=() policy=/usr/sbin/policy-rc.d made_policy=0
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  # The packages' maintainer scripts would start a system munged (and try slurmctld, slurmd)
  # through invoke-rc.d; this script runs its own daemons, so forbid that during the install.
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" > /dev/null
    "${sudo_cmd[@]}" chmod 755 "$policy"
    made_policy=1
    # shellcheck disable=SC2064  # expanded now on purpose: the locals are gone at exit
    trap "${sudo_cmd[*]} rm -f $policy" EXIT  # also when interrupted
  fi
  local rc=0
  { "${sudo_cmd[@]}" apt-get update -q &&
    "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } || rc=$?
  if [ $made_policy = 1 ]; then "${sudo_cmd[@]}" rm -f "$policy"; trap - EXIT; fi
  [ $rc = 0 ] || die "apt-get failed ($rc)"
}

write_conf() {
  local cpus mem_mb def_mem
  cpus=$(getconf _NPROCESSORS_ONLN)
  mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  def_mem=$((mem_mb / cpus))
  cat > "$conf.new" << EOF
# Written by scripts/slurm_local.sh; rewritten by each start.
ClusterName=gputlm
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/slurmd
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups, no accounting database.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobcomp.txt
MpiDefault=none
MailProg=/bin/true
SwitchType=switch/none
SchedulerType=sched/backfill
# Schedule as soon as a task ends (the default batch_sched_delay=3 leaves a CPU idle for up to 3 s).
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=$def_mem
ReturnToService=2
# Finished jobs stay in scontrol show job for an hour.
MinJobAge=3600
MaxArraySize=100001
MaxJobCount=200000
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF
  if [ -f "$conf" ] && cmp -s "$conf" "$conf.new"; then
    rm -f "$conf.new"
  else
    mv "$conf.new" "$conf"
  fi
}

start_munged() {
  alive "$dir/munge/munged.pid" munged > /dev/null && return 0
  if [ ! -s "$dir/munge/munge.key" ]; then
    if command -v mungekey > /dev/null; then
      mungekey --create --keyfile="$dir/munge/munge.key" --force
    else
      dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    fi
  fi
  chmod 600 "$dir/munge/munge.key"
  rm -f "$dir/munge/munge.socket" "$dir/munge/munge.socket.lock"
  munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed" --force ||
    die "munged did not start; $dir/munge/munged.log ends with:
$(tail -n 20 "$dir/munge/munged.log" 2>/dev/null)"
}

show_logs() {
  local f
  for f in "$dir/munge/munged.log" "$dir/slurmctld.log" "$dir/slurmd.log"; do
    [ -f "$f" ] && { echo "--- last lines of $f"; tail -n 15 "$f"; }
  done
  return 0
}

node_state() { { sinfo -h -N -n "$node" -o '%T' 2>/dev/null || true; } | head -n 1; }

# A start that failed: the end of each log, then stop whatever it did start.
fail_start() {
  show_logs
  cmd_stop > /dev/null 2>&1 || true
  die "$* (the daemons it started are stopped again)"
}

cmd_start() {
  export SLURM_CONF=$conf
  local state=
  if alive "$dir/munge/munged.pid" munged > /dev/null &&
     alive "$dir/slurmctld.pid" slurmctld > /dev/null &&
     alive "$dir/slurmd.pid" slurmd > /dev/null; then
    state=$(node_state)
    case $state in
      idle|mixed|allocated)
        echo "slurm_local: already up ($dir, node $node $state)"
        echo "export SLURM_CONF=$conf"
        return 0 ;;
    esac
  fi
  local t0=$SECONDS
  install_missing
  mkdir -p "$dir/munge" "$dir/ctld" "$dir/slurmd"
  chmod 755 "$dir" "$dir/munge"
  write_conf
  # Another cluster (or a second state directory) on the same ports would answer our clients.
  local port
  for port in "$ctld_port" "$slurmd_port"; do
    if ! alive "$dir/slurmctld.pid" slurmctld > /dev/null && ! alive "$dir/slurmd.pid" slurmd > /dev/null &&
       (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
      die "port $port is in use (another Slurm? choose others with GPUTLM_SLURM_PORT)"
    fi
  done
  start_munged
  if ! alive "$dir/slurmctld.pid" slurmctld > /dev/null; then
    slurmctld -f "$conf" || fail_start "slurmctld did not start"
  fi
  if ! alive "$dir/slurmd.pid" slurmd > /dev/null; then
    slurmd -f "$conf" || fail_start "slurmd did not start"
  fi
  local n
  for n in $(seq 1 120); do
    state=$(node_state)
    if [ "$n" -gt 4 ]; then  # the daemons have written their pid files by now
      alive "$dir/slurmctld.pid" slurmctld > /dev/null || fail_start "slurmctld exited"
      alive "$dir/slurmd.pid" slurmd > /dev/null || fail_start "slurmd exited"
    fi
    case $state in
      idle|mixed|allocated) break ;;
      drain*|down*|fail*) scontrol update NodeName="$node" State=RESUME > /dev/null 2>&1 || true ;;
    esac
    sleep 0.5
  done
  case $state in
    idle|mixed|allocated) ;;
    *) fail_start "node $node is not up after 60 s (state: ${state:-no answer from slurmctld})" ;;
  esac
  echo "slurm_local: up in $((SECONDS - t0)) s: node $node ($state), partition $partition," \
       "$(sinfo -h -N -n "$node" -o '%c CPUs, %m MB'); state in $dir"
  echo "Use it with:"
  echo "export SLURM_CONF=$conf"
}

stop_daemon() {
  local pidfile=$1 comm=$2 pid
  pid=$(alive "$pidfile" "$comm") || { rm -f "$pidfile"; return 0; }
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    [ -d "/proc/$pid" ] || break
    sleep 0.1
  done
  if [ -d "/proc/$pid" ]; then
    echo "slurm_local: $comm ($pid) ignored SIGTERM for 10 s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

cmd_stop() {
  export SLURM_CONF=$conf
  local jobs any=0
  if alive "$dir/slurmctld.pid" slurmctld > /dev/null; then
    jobs=$(squeue -h -o '%F' 2>/dev/null | sort -un | tr '\n' ' ')
    if [ -n "${jobs// /}" ]; then
      echo "slurm_local: cancelling jobs $jobs"
      # shellcheck disable=SC2086
      scancel $jobs 2>/dev/null || true
      for _ in $(seq 1 40); do
        [ -z "$(squeue -h -o '%A' 2>/dev/null)" ] && break
        sleep 0.25
      done
    fi
  fi
  alive "$dir/slurmd.pid" slurmd > /dev/null && any=1
  alive "$dir/slurmctld.pid" slurmctld > /dev/null && any=1
  alive "$dir/munge/munged.pid" munged > /dev/null && any=1
  stop_daemon "$dir/slurmd.pid" slurmd
  stop_daemon "$dir/slurmctld.pid" slurmctld
  stop_daemon "$dir/munge/munged.pid" munged
  if [ $any = 1 ]; then echo "slurm_local: stopped"; else echo "slurm_local: not running"; fi
}

cmd_status() {
  export SLURM_CONF=$conf
  local up=1 d pidfile
  for d in munged slurmctld slurmd; do
    pidfile=$dir/$d.pid
    [ $d = munged ] && pidfile=$dir/munge/munged.pid
    if pid=$(alive "$pidfile" $d); then echo "$d: running (pid $pid)"; else echo "$d: not running"; up=0; fi
  done
  if [ $up = 0 ]; then
    echo "slurm_local: down ($dir)"
    return 3
  fi
  echo "node: $(sinfo -h -N -n "$node" -o '%N %T, CPUs allocated/idle/other/total %C, %m MB')"
  echo "jobs: $(squeue -h -t PENDING -r 2>/dev/null | wc -l) pending, $(squeue -h -t RUNNING -r 2>/dev/null | wc -l) running (array tasks counted one by one)"
  echo "slurm_local: up ($dir)"
  echo "export SLURM_CONF=$conf"
}

case ${1:-} in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  env) echo "export SLURM_CONF=$conf" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
