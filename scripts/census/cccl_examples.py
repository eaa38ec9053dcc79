#!/usr/bin/env python3
"""Census of CCCL's Thrust and CUB examples under `gputlm cuda` (issue 40, part 3).

Usage: scripts/census/cccl_examples.py CCCL [--gputlm build/bin/gputlm] [--config configs/fermi-gtx480.json]
           [--functional] [--only NAME ...] [--timeout 600] [--out docs/results/census/cccl_examples] [--jobs N]
           [--reuse] [--filecheck FileCheck]

CCCL is a checkout of NVIDIA/cccl at the tag of the toolkit's CCCL (CUDA 13.0 ships CCCL 3.0.1: tag v3.0.1);
nothing of it is committed here. The examples are those CCCL's own CMake builds and tests: every .cu of
thrust/examples and thrust/examples/cuda, and every example_*.cu of cub/examples/block and cub/examples/device.
Each is built with `nvcc -cudart shared` against the toolkit's Thrust and CUB, for the lowest target from
sm_75 up that compiles it (the simulated device reports that target's compute capability), with the include
folders and definitions CCCL's CMake gives it (thrust/examples; cub/examples and c2h/include), and run under
`gputlm cuda` from its build folder with no arguments. It passes as it does in CCCL's own test: exit 0 and,
for a Thrust example, its standard output accepted by LLVM's FileCheck against CCCL's reference
(thrust/internal/test/thrust.example.NAME.filecheck; an empty reference means no output), as
thrust/cmake/ThrustRunExample.cmake runs it. Writes OUT.md and OUT.csv, headed by the commit and the command.
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess

from census_common import REPO, built_before, census_row, compile_lowest, device_configs, failure, run_program, write_tables


def examples(cccl):
    """(category, name, source, extra nvcc flags, FileCheck reference or None) of each example CCCL's CMake builds."""
    found = []
    thrust = os.path.join(cccl, "thrust", "examples")
    for sub, prefix in (("", ""), ("cuda", "cuda.")):
        for src in sorted(glob.glob(os.path.join(thrust, sub, "*.cu"))):
            name = prefix + os.path.basename(src)[:-3]
            ref = os.path.join(cccl, "thrust", "internal", "test", "thrust.example.%s.filecheck" % name)
            found.append(("thrust/examples", name, src, ["-I" + thrust, "-DTHRUST_EXAMPLE_DEVICE_SIDE"],
                          ref if os.path.exists(ref) else None))
    cub = os.path.join(cccl, "cub", "examples")
    for sub in ("block", "device"):
        for src in sorted(glob.glob(os.path.join(cub, sub, "example_*.cu"))):
            found.append(("cub/examples", os.path.basename(src)[len("example_"):-3], src,
                          ["-I" + cub, "-I" + os.path.join(cccl, "c2h", "include")], None))
    return found


def build(name, src, extra, out_dir, nvcc, reuse, archs):
    exe_dir = os.path.join(out_dir, "bin", name)
    os.makedirs(exe_dir, exist_ok=True)
    exe = os.path.join(exe_dir, name)
    if reuse and built_before(exe, archs):
        return exe, built_before(exe, archs), ""
    flags = ["-cudart", "shared", "-std=c++17", "--extended-lambda", "-Wno-deprecated-gpu-targets"] + extra
    arch, err = compile_lowest(lambda arch: [[nvcc, "-arch=sm_%d" % arch] + flags + [src, "-o", exe]], archs, exe)
    return (exe if arch else None), arch, err


def filecheck_failure(filecheck, reference, out):
    """None if the output passes CCCL's check against its reference, else why not."""
    if os.path.getsize(reference) == 0:
        return None if out == "" else "its check failed: output where the reference expects none"
    r = subprocess.run([filecheck, reference], input=out, capture_output=True, text=True)
    if r.returncode == 0:
        return None
    first = next((l for l in r.stderr.splitlines() if "error:" in l), "FileCheck failed")
    return "its check failed (FileCheck): " + first.split("error:", 1)[-1].strip()


def run(exe, reference, gputlm, config, functional, timeout, filecheck):
    rc, out, err, seconds = run_program(gputlm, config, functional, timeout, [exe], os.path.dirname(exe))
    if rc != 0:
        return False, failure(rc, out, err, timeout), seconds
    why = filecheck_failure(filecheck, reference, out) if reference else None
    return why is None, why or "", seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cccl")
    ap.add_argument("--gputlm", default=os.path.join(REPO, "build/bin/gputlm"))
    ap.add_argument("--config", default=os.path.join(REPO, "configs/fermi-gtx480.json"))
    ap.add_argument("--functional", action="store_true")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--filecheck", default="/usr/lib/llvm-14/bin/FileCheck", help="LLVM's FileCheck (Debian llvm-14-tools)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="docs/results/census/cccl_examples")
    ap.add_argument("--jobs", type=int, default=1, help="examples built and run at once")
    ap.add_argument("--update", action="store_true", help="keep the rows of OUT.csv for the examples not run now" )
    ap.add_argument("--reuse", action="store_true", help="run the programs an earlier run built in OUT_build (no nvcc)")
    a = ap.parse_args()
    if not os.path.exists(a.filecheck):
        ap.error("no FileCheck at %s (apt-get install llvm-14-tools, or give --filecheck)" % a.filecheck)
    gputlm, config = os.path.abspath(a.gputlm), os.path.abspath(a.config)
    out_dir = os.path.abspath(a.out + "_build")
    os.makedirs(os.path.join(out_dir, "bin"), exist_ok=True)
    configs = device_configs(config, out_dir)
    work = [e for e in examples(a.cccl) if not a.only or e[1] in a.only]

    def census(item):
        cat, name, src, extra, reference = item
        return census_row(cat, name, lambda archs: build(name, src, extra, out_dir, a.nvcc, a.reuse, archs),
                          lambda exe, arch: run(exe, reference, gputlm, configs[arch], a.functional, a.timeout,
                                                a.filecheck))

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:  # each example is a process of its own
        rows = list(pool.map(census, work))
    excluded = [("thrust/examples", "cpp_integration",
                 "CCCL's CMake neither builds nor tests it (a host.cpp linked with device.cu: not a program of its own)")]
    write_tables(a.out, "CCCL 3.0.1 Thrust and CUB examples", "CCCL_V3.0.1", a.cccl, a.config, a.functional, rows,
                 excluded, "example", a.update)


if __name__ == "__main__":
    main()
