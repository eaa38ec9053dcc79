#!/usr/bin/env bash
# What every study script does first: installs what it needs (Debian packages, idempotent; no
# matplotlib with --no-figures), builds only the simulator, then runs the study's Python script with
# Debian's python3 (it has matplotlib; not whichever python3 comes first on PATH).
# Usage: launch.sh <script.py> [args...]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
script="$1"
shift
"$root/scripts/setup.sh"
case " $* " in *" --no-figures "*) ;; *) "$root/scripts/study/setup_plotting.sh" ;; esac
"$root/scripts/build.sh" --target gputlm
exec /usr/bin/python3 "$root/scripts/study/$script" "$@"
