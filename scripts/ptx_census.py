#!/usr/bin/env python3
"""PTX census (issue 21): how much of what nvcc emits the front end takes.

Compiles every CUDA source of the repository (traces/**/*.cu, tests/**/*.cu) with nvcc at -O3 and
at -G, for sm_75 and sm_90, into a temporary directory, runs `gputlm ptx check` on each set and
prints kernels found / parsed / bound per flag set and architecture. With --errors, also the
distinct errors (file:line stripped) and where they occur. nvcc itself fails at sm_90 on the
sources that use the dissertation's own instructions by inline asm (cond.acc, tree.traverse,
.rowhint): for sm_90 it checks the PTX with ptxas, which does not know them.

Usage: scripts/ptx_census.py [--gputlm build/bin/gputlm] [--nvcc PATH] [--jobs N] [--errors]
Python 3 standard library only. Exit 0 when every kernel found was bound.
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FLAG_SETS = {"-O3": ["-O3"], "-G": ["-G"]}
ARCHS = ["sm_75", "sm_90"]


def sources():
    found = []
    for top in ("traces", "tests"):
        found += sorted((ROOT / top).rglob("*.cu"))
    return found


def compile_one(nvcc, src, flags, arch, out_dir):
    rel = src.relative_to(ROOT)
    out = out_dir / (str(rel).replace(os.sep, "__")[:-3] + ".ptx")
    cmd = [nvcc, "-ptx", f"-arch={arch}", *flags, "-o", str(out), str(src)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return (out if r.returncode == 0 else None), (rel, r.stderr.strip().splitlines()[-1:] if r.returncode else None)


def check(gputlm, files):
    r = subprocess.run([gputlm, "ptx", "check", *map(str, files)], capture_output=True, text=True)
    m = re.search(r"kernels: found (\d+), parsed (\d+), bound (\d+)", r.stdout)
    if not m:
        sys.exit(f"ptx_census: unexpected output of gputlm ptx check:\n{r.stdout}\n{r.stderr}")
    errors = [line for line in r.stdout.splitlines() if "error:" in line]
    return tuple(int(x) for x in m.groups()), errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gputlm", default=str(ROOT / "build" / "bin" / "gputlm"))
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--errors", action="store_true", help="list the distinct errors")
    args = ap.parse_args()
    for tool in (args.gputlm, args.nvcc):
        if not os.access(tool, os.X_OK):
            sys.exit(f"ptx_census: {tool} not found or not executable")
    srcs = sources()
    print(f"{len(srcs)} CUDA sources")
    rows, all_errors, ok = [], {}, True
    with tempfile.TemporaryDirectory(prefix="ptx_census_") as tmp:
        for name, flags in FLAG_SETS.items():
            for arch in ARCHS:
                out_dir = pathlib.Path(tmp) / f"{name.strip('-')}_{arch}"
                out_dir.mkdir()
                with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                    results = list(pool.map(lambda s: compile_one(args.nvcc, s, flags, arch, out_dir), srcs))
                ptx = [p for p, _ in results if p]
                failed = [f for p, f in results if not p]
                (found, parsed, bound), errors = check(args.gputlm, ptx) if ptx else ((0, 0, 0), [])
                rows.append((name, arch, len(ptx), len(failed), found, parsed, bound))
                for rel, last in failed:
                    all_errors.setdefault(f"nvcc failed on {rel}: {' '.join(last)}", set()).add(f"{name} {arch}")
                ok = ok and bound == found and not failed
                for e in errors:
                    key = re.sub(r"^\S+: kernel \S+: ", "", e)
                    key = re.sub(r"[^\s:]+\.ptx:\d+: ", "", key)
                    all_errors.setdefault(key, set()).add(f"{name} {arch}")
    print(f"{'flags':6} {'arch':6} {'ptx files':>9} {'nvcc failed':>11} {'kernels':>8} {'parsed':>7} {'bound':>6}")
    for name, arch, files, failed, found, parsed, bound in rows:
        print(f"{name:6} {arch:6} {files:9d} {failed:11d} {found:8d} {parsed:7d} {bound:6d}")
    if args.errors and all_errors:
        print("\nerrors (where):")
        for e, where in sorted(all_errors.items()):
            print(f"  [{', '.join(sorted(where))}] {e[:300]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
