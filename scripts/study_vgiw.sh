#!/usr/bin/env bash
# The VGIW study (Voitsechov & Etsion): installs what it needs, builds gputlm, then runs
# scripts/study/vgiw_study.py: every Table 2 kernel of traces/rodinia-like on fermi-gtx480, vgiw,
# sgmf and the attribution variants (virtual channels, reconfiguration, tiles, perfect caches, a 4x
# grid), with each run's energy; writes vgiw_study.{csv,md}, fig_vgiw_speedup.png, fig_vgiw_lvc.png,
# fig_vgiw_cycles.png, fig_vgiw_energy.png and fig_vgiw_sgmf.png (the runs: the sweeps
# studies/vgiw/*.json; default sweeps/vgiw/results/; --out docs/results for the committed ones).
# 144 runs; about an hour on 2 cores shared with other studies (an idle machine was not measured). Arguments go to the script (--help lists them).
exec "$(dirname "$0")/study/launch.sh" vgiw_study.py "$@"
