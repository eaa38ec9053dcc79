#!/usr/bin/env bash
# The large-warp / two-level-scheduling study (Narasiman's dissertation ch. 5, TR-HPS-2010-006):
# installs what it needs (scripts/setup.sh, Debian python3-matplotlib), builds gputlm, then runs
# scripts/study/lwm_study.py, which simulates the 12 narasiman benchmarks on every configuration
# and writes lwm_study.csv, lwm_study.md and fig*.png (default docs/results/).
# Arguments go to lwm_study.py (--help lists them), e.g. a quick check:
#   scripts/study_lwm.sh --size test --workloads blackjack reduction --out /tmp/lwm
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/study/setup_plotting.sh"
"$root/scripts/build.sh" --target gputlm  # the study needs only the simulator
# Debian's python3 (it has matplotlib), not whichever python3 comes first on PATH.
exec /usr/bin/python3 "$root/scripts/study/lwm_study.py" "$@"
