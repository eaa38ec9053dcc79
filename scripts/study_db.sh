#!/usr/bin/env bash
# The database search study (Narasiman dissertation chapter 8): installs what it needs, builds
# gputlm, then runs scripts/study/db_study.py: the full table scan (COND_ACC, selectivity and
# bandwidth sweeps) and the index search (TREE_TRAVERSE, row-buffer hints) on narasiman-db and
# narasiman-db-hold; writes db_study.{csv,md} and fig_db_*.png (default docs/results/). About
# 10 minutes on 2 cores; each index run holds a 3.8 GB sparse tree (about 4 GB of memory).
# Arguments go to the script (--help lists them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/study/setup_plotting.sh"
"$root/scripts/build.sh" --target gputlm
exec /usr/bin/python3 "$root/scripts/study/db_study.py" "$@"
