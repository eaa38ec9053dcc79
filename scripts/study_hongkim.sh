#!/usr/bin/env bash
# The MWP/CWP model validation (Hong & Kim, ISCA 2009, Sec. 4-5): installs what it needs, builds
# gputlm, then runs scripts/study/hongkim_validation.py: Mb1-Mb7 (C and UC) and the Merge
# applications on configs/hongkim-analytical.json and fermi-gtx480, simulated vs predicted CPI,
# and the tiled matrix multiply threads-per-block sweep; writes hongkim_validation.{csv,md} and
# fig_hongkim_*.png (default docs/results/). Arguments go to the script (--help lists them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/study/setup_plotting.sh"
"$root/scripts/build.sh" --target gputlm
exec /usr/bin/python3 "$root/scripts/study/hongkim_validation.py" "$@"
