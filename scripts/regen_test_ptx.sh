#!/usr/bin/env bash
# Regenerates the committed PTX of the front end's test sources, tests/data/ptx/<name>.cu ->
# <name>.O3.sm_75.ptx (as a user would build) and <name>.G.sm_75.ptx (-G: debug functions, .loc
# and .section bodies). Builds and tests never run this: they read the committed PTX. Needs CUDA
# 13 (nvcc on PATH or in the standard prefix). Usage: scripts/regen_test_ptx.sh
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "regen_test_ptx: nvcc not found" >&2; exit 2; }
for cu in tests/data/ptx/*.cu; do
  base=${cu%.cu}
  "$nvcc" -ptx -arch=sm_75 -O3 -o "$base.O3.sm_75.ptx" "$cu"
  "$nvcc" -ptx -arch=sm_75 -G -o "$base.G.sm_75.ptx" "$cu"
  # -G names the source by its absolute path: keep the repository-relative one.
  sed -i "s|\"$(pwd)/|\"|" "$base.G.sm_75.ptx"
  echo "regen_test_ptx: $base.O3.sm_75.ptx $base.G.sm_75.ptx"
done
