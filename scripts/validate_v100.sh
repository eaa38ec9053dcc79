#!/usr/bin/env bash
# The Volta (GV100) validation of issue 42: `gputlm validate` on the CUDA samples that AccelWattch's
# hardware table measured (validation/v100/cuda_samples.json), against that table's measured rows.
# docs/user-guide/validation.md "Validating against the V100" says which rows are in and why.
#
# Usage: scripts/validate_v100.sh SAMPLES_CHECKOUT HW_CSV [--config C] [--out DIR]
#                                 [--time-limit SECONDS] [--gputlm BIN] [--manifest M]
#                                 [--timed-launches N] [--reuse-stats]
#   SAMPLES_CHECKOUT  a checkout of NVIDIA/cuda-samples in the flat layout (Samples/<name>/, Common/):
#                     tag v11.5, the first tag that holds all eight samples (v11.0 holds only
#                     cudaTensorCoreGemm; the others were then only in the CUDA 11.0 toolkit)
#   HW_CSV            the measured table (AccelWattch's hw_perf.csv layout); not in the repository
#   --config C        the GPU config; default configs/volta-v100.json if it exists, else
#                     configs/fermi-gtx480.json (a stand-in: the plumbing runs, the errors mean little)
#   --out DIR         the output folder; default build/validate_v100
#   --time-limit S    each program's `gputlm cuda --time-limit`; default 900
#   --gputlm BIN      the gputlm executable; default $GPUTLM, else build/bin/gputlm
#   --timed-launches N  time the first N launches of each kernel, run the rest on the functional
#                     engine (sampled simulation; validate.md counts them apart); default: time all
#   --reuse-stats     gputlm validate --reuse-stats: programs whose statistics are in DIR/stats/
#                     already are compared without running again (joins parts run apart)
#   --manifest M      the programs; default validation/v100/cuda_samples.json (a subset of it
#                     runs a part, e.g. two parts side by side on two cores)
# Each timed launch starts with empty caches (gputlm cuda --cache-control all): the table was
# measured by Nsight Compute run without --cache-control (accel-sim-framework's
# util/hw_stats/run_hw.py), whose default flushes every cache before each kernel it measures.
# gputlm runs from the repository root; the checkout and the CSV are reached through links that
# this script makes in DIR/inputs/, so the command validate.md records names no folder of this
# machine when DIR is inside the repository.
# Exit status: gputlm validate's (0 all ran and matched, 1 a program failed or a row never
# launched, 2 bad input); 2 with one message for a missing checkout, CSV or option value.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
usage="usage: scripts/validate_v100.sh SAMPLES_CHECKOUT HW_CSV [--config C] [--out DIR] [--time-limit SECONDS] [--gputlm BIN] [--manifest M] [--timed-launches N] [--reuse-stats]"
fail() { echo "validate_v100: $*" >&2; exit 2; }

positional=()
config="" out="" time_limit=900 gputlm="${GPUTLM:-}" manifest="" timed=()
while [ $# -gt 0 ]; do
  case "$1" in
    --config|--out|--time-limit|--gputlm|--manifest|--timed-launches)
      [ $# -ge 2 ] || fail "$1 needs a value; $usage"
      case "$1" in
        --config) config="$2" ;;
        --out) out="$2" ;;
        --time-limit) time_limit="$2" ;;
        --gputlm) gputlm="$2" ;;
        --manifest) manifest="$2" ;;
        --timed-launches) timed+=(--timed-launches "$2") ;;
      esac
      shift 2 ;;
    --reuse-stats) timed+=(--reuse-stats); shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    -*) fail "unknown option $1; $usage" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || fail "need SAMPLES_CHECKOUT and HW_CSV; $usage"
samples="${positional[0]}" hw="${positional[1]}"
[ -d "$samples" ] || fail "no samples checkout at $samples"
[ -f "$samples/Common/helper_cuda.h" ] ||
  fail "$samples is not a cuda-samples checkout (no Common/helper_cuda.h)"
[ -f "$hw" ] && [ -r "$hw" ] || fail "no hardware CSV at $hw"
[[ "$time_limit" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "--time-limit takes seconds, not '$time_limit'"

# Paths given relative to the caller's folder, made absolute before the cd to the root.
samples="$(realpath "$samples")" hw="$(realpath "$hw")"
[ -z "$out" ] || out="$(realpath -m "$out")"
[ -z "$config" ] || config="$(realpath -m "$config")"
[ -z "$gputlm" ] || gputlm="$(realpath -m "$gputlm")"
cd "$root"
rel() {  # $1 relative to the root when it lies inside it
  local r; r="$(realpath -m --relative-to="$root" "$1")"
  case "$r" in ../*) echo "$1" ;; *) echo "$r" ;; esac
}

if [ -z "$config" ]; then
  if [ -f configs/volta-v100.json ]; then
    config=configs/volta-v100.json
    echo "config              configs/volta-v100.json (the V100 preset)"
  else
    config=configs/fermi-gtx480.json
    echo "config              configs/fermi-gtx480.json (no configs/volta-v100.json yet: a stand-in on the wrong GPU, a check of the plumbing, not a validation)"
  fi
else
  config="$(rel "$config")"
  echo "config              $config (--config)"
fi
[ -f "$config" ] || fail "no config at $config"
if [ -z "$gputlm" ]; then gputlm=build/bin/gputlm; else gputlm="$(rel "$gputlm")"; fi
[ -x "$gputlm" ] || fail "no gputlm executable at $gputlm (build it, or name it with --gputlm or GPUTLM)"
out="$(rel "${out:-$root/build/validate_v100}")"

manifest="$(rel "${manifest:-$root/validation/v100/cuda_samples.json}")"
[ -f "$manifest" ] || fail "no manifest at $manifest"
for s in dct8x8 binomialOptions fastWalshTransform histogram mergeSort quasirandomGenerator \
         SobolQRNG cudaTensorCoreGemm; do
  [ -d "$samples/Samples/$s" ] ||
    echo "note                $samples has no Samples/$s (a checkout of v11.0? use v11.5): it will fail to build"
done

mkdir -p "$out/inputs"
ln -sfn "$samples" "$out/inputs/cuda-samples"
ln -sfn "$hw" "$out/inputs/hw.csv"
set +e
"$gputlm" validate --config "$config" --hw "$out/inputs/hw.csv" --programs "$manifest" \
  --root "$out/inputs/cuda-samples" --out "$out" --time-limit "$time_limit" --cache-control all \
  "${timed[@]}"
status=$?
set -e
exit "$status"
