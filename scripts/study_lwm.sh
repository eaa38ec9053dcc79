#!/usr/bin/env bash
# The large-warp / two-level-scheduling study (Narasiman's dissertation ch. 5, TR-HPS-2010-006):
# installs what it needs (scripts/setup.sh, Debian python3-matplotlib), builds gputlm, then runs
# scripts/study/lwm_study.py, which simulates the 12 narasiman benchmarks on every configuration and
# writes lwm_study.csv, lwm_study.md and fig*.png (the runs: the sweep studies/lwm/runs.json;
# default sweeps/lwm/results/; --out docs/results for the committed ones).
# Arguments go to lwm_study.py (--help lists them), e.g. a quick check:
#   scripts/study_lwm.sh --size test --workloads blackjack reduction --out /tmp/lwm
exec "$(dirname "$0")/study/launch.sh" lwm_study.py "$@"
