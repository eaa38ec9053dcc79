#!/usr/bin/env bash
# Regenerates every committed traces/<suite>/<name>/kernel.ptx (and tests/data/workloads/<name>/kernel.ptx
# of the test fixtures that have a kernel.cu) from its kernel.cu with nvcc.
# Builds and tests never run this: they read the committed PTX. Needs CUDA 13 (nvcc on PATH or in
# the standard prefix). Usage: scripts/regen_ptx.sh [traces/<suite>/<name> ...]
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "regen_ptx: nvcc not found" >&2; exit 2; }
# sm_75 is the oldest target CUDA 13 supports, unless the kernel.cu names another in a line
# "// nvcc-arch: sm_NN" (cp.async needs sm_80); -O3 as a user would build, plus the flags of a line
# "// nvcc-flags: ..." (-jtd 0: switches as jump tables); no line info, so the PTX does not change
# with the path of the checkout.
flags=(-ptx -O3)
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && mapfile -t dirs < <(find traces tests/data/workloads -name kernel.cu -printf '%h\n' | sort)
for d in "${dirs[@]}"; do
  arch=$(sed -n 's|^// nvcc-arch: \(sm_[0-9]*\).*|\1|p' "$d/kernel.cu" | head -1)
  read -r -a extra <<< "$(sed -n 's|^// nvcc-flags: ||p' "$d/kernel.cu" | head -1)"
  "$nvcc" "${flags[@]}" "${extra[@]}" -arch="${arch:-sm_75}" -o "$d/kernel.ptx" "$d/kernel.cu"
  echo "regen_ptx: $d/kernel.ptx"
done
