#!/usr/bin/env bash
# The VGIW study (Voitsechov & Etsion): installs what it needs, builds gputlm, then runs
# scripts/study/vgiw_study.py: every Table 2 kernel of traces/rodinia-like on fermi-gtx480, vgiw
# and vgiw with 128 virtual channels; writes vgiw_study.{csv,md}, fig_vgiw_speedup.png and
# fig_vgiw_lvc.png (default docs/results/). Arguments go to the script (--help lists them).
exec "$(dirname "$0")/study/launch.sh" vgiw_study.py "$@"
