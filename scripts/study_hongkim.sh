#!/usr/bin/env bash
# The MWP/CWP model validation (Hong & Kim, ISCA 2009, Sec. 4-5): installs what it needs, builds
# gputlm, then runs scripts/study/hongkim_validation.py: Mb1-Mb7 (C and UC) and the Merge
# applications on configs/hongkim-analytical.json and fermi-gtx480, simulated vs predicted CPI, and
# the tiled matrix multiply threads-per-block sweep; writes hongkim_validation.{csv,md} and
# fig_hongkim_*.png (the runs: the sweeps studies/hongkim/*.json; default sweeps/hongkim/results/;
# --out docs/results for the committed ones). Arguments go to the script (--help lists them).
exec "$(dirname "$0")/study/launch.sh" hongkim_validation.py "$@"
