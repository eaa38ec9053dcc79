#!/usr/bin/env bash
# The database search study (Narasiman dissertation chapter 8): installs what it needs, builds
# gputlm, then runs scripts/study/db_study.py: the full table scan (COND_ACC, selectivity and
# bandwidth sweeps, and under each reading of the DRAM bus, row conflicts and the L2's whole-line
# stores) and the index search (TREE_TRAVERSE, row-buffer hints, and where its cycles go) on
# narasiman-db and narasiman-db-hold; writes db_study.{csv,md} and fig_db_*.png (the runs: the 53 of
# the sweeps studies/db/*.json; default sweeps/db/results/; --out docs/results for the committed
# ones). 24 minutes measured on 2 cores shared with two other studies' runs (the runs' host time 43
# minutes); each index run holds a 3.8 GB sparse tree (about 4 GB of memory). Arguments go to the
# script (--help lists them).
exec "$(dirname "$0")/study/launch.sh" db_study.py "$@"
