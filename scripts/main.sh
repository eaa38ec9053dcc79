#!/usr/bin/env bash
# The main job: builds gputlm and runs the default testbench (the narasiman-baseline GPU: one core
# and its memory system, as in Narasiman's Table 5.1) on the default workload (micro/divergence),
# printing its statistics and writing waves/main.json, waves/main.vcd and waves/main.gtkw.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target gputlm
build/bin/gputlm run --config configs/narasiman-baseline.json --workload traces/micro/divergence \
  --stats waves/main.json --vcd waves/main.vcd --vcd-scope gpu.core0 "$@"
