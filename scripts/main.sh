#!/usr/bin/env bash
# The main job: builds gputlm and runs the default testbench on the default workload, printing
# its statistics and writing waves/main.vcd (+ waves/main.gtkw) and waves/main.json.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target gputlm
build/bin/gputlm run --functional --workload traces/micro/divergence \
  --stats waves/main.json --vcd waves/main.vcd "$@"
