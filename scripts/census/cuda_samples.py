#!/usr/bin/env python3
"""Census of NVIDIA's CUDA samples under `gputlm cuda` (issue 40, part 3).

Usage: scripts/census/cuda_samples.py SAMPLES [--gputlm build/bin/gputlm] [--config configs/fermi-gtx480.json]
           [--functional] [--only NAME ...] [--timeout 600] [--out docs/results/census/cuda_samples] [--reuse]

SAMPLES is a checkout of NVIDIA/cuda-samples at tag v13.0 (nothing of it is committed here; fetch it
and pass its path). Every sample of 0_Introduction, 2_Concepts_and_Techniques, 3_CUDA_Features,
5_Domain_Specific and 6_Performance is eligible unless it needs a graphics or display API (OpenGL,
GLUT, Vulkan, EGL, Direct3D, X11), a CUDA library shipped without PTX (cuBLAS, cuFFT, cuRAND's host
API, cuSPARSE, cuSOLVER, NPP, nvJPEG) or a second GPU or process (MPI, IPC, peer-to-peer, multi-GPU).
Each eligible sample is built with `nvcc -cudart shared` for the lowest target from sm_75 up that
compiles it, and run under `gputlm cuda` with its default arguments (or the size flags of SIZE_ARGS
below, when its default run takes longer than the timeout) from its build folder, which links to its
source folder's files (its data). It passes when it exits 0 (its own check); an exit 2 with a `gputlm cuda:` line names
what gputlm is missing. Writes OUT.md (the table, the exclusions and the counts) and OUT.csv, each
headed by the commit and the command that made them.
"""
import argparse
import csv
import os
import re
import shlex
import signal
import subprocess
import sys
import time

CATEGORIES = ["0_Introduction", "2_Concepts_and_Techniques", "3_CUDA_Features", "5_Domain_Specific", "6_Performance"]
GRAPHICS = {"OpenGL": "OpenGL", "GLUT": "OpenGL (GLUT)", "Vulkan": "Vulkan", "EGL": "EGL", "X11": "X11"}
LIBRARIES = {"cublas": "cuBLAS", "cublasLt": "cuBLAS", "cufft": "cuFFT", "curand": "cuRAND host API", "cusparse": "cuSPARSE",
             "cusolver": "cuSOLVER", "nppc": "NPP", "nppial": "NPP", "nppif": "NPP", "nppig": "NPP", "nppisu": "NPP",
             "nvjpeg": "nvJPEG"}
SECOND_GPU_OR_PROCESS = re.compile(r"MultiGPU|P2P|p2p|IPC|MPI|CrossGPU")
ARCHS = [75, 80, 86, 89, 90]
CUDA_INCLUDE = "/usr/local/cuda/include"  # the toolkit's headers: beside --nvcc's bin folder (main())
# Samples whose default run simulates for longer than the timeout: their own size flags.
SIZE_ARGS = {}


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def exclusion(name, cmake):
    if "D3D1" in name:
        return "graphics or display API: Direct3D"
    for key, what in GRAPHICS.items():
        if re.search(r"find_package\(\s*" + key + r"\b", cmake):
            return "graphics or display API: " + what
    for lib, what in LIBRARIES.items():
        if re.search(r"CUDA::" + lib + r"\b", cmake):
            return "CUDA library without PTX: " + what
    if SECOND_GPU_OR_PROCESS.search(name) or re.search(r"find_package\(\s*MPI\b", cmake):
        return "a second GPU or process"
    return None


def side_module(cmake, variable):
    """The file a sample's CMakeLists builds from its kernel source apart from the program (set(CUDA_FATBIN_FILE
    ".../x64.fatbin")), which the program loads at run time with the driver API; None if it builds none."""
    m = re.search(r"set\(\s*" + variable + r'\s+"\$\{CMAKE_CURRENT_BINARY_DIR\}/([^"]+)"', cmake)
    return m.group(1) if m else None


def executable_sources(cmake, name, sample_dir):
    """The sources its CMakeLists gives the program (add_executable(NAME files...)): an NVRTC sample's
    kernel source is not among them (the program compiles it at run time)."""
    m = re.search(r"add_executable\(\s*" + re.escape(name) + r"\s+([^)]*)\)", cmake)
    if not m:
        return None
    return [os.path.normpath(os.path.join(sample_dir, f)) for f in m.group(1).split() if "$" not in f]


def link_toolkit_headers(cmake, exe_dir):
    """The toolkit headers a sample's CMakeLists copies beside the program (NVRTC samples find
    cooperative_groups.h there at run time): linked from the toolkit's include folder."""
    for rel, dest in re.findall(r"\$\{CUDA_INCLUDE_DIR\}/(\S+)(?:\s+\$\{CMAKE_CURRENT_BINARY_DIR\}/(\S+))?", cmake):
        link = os.path.join(exe_dir, dest.rstrip(")") if dest else os.path.basename(rel))
        if not os.path.lexists(link):
            os.symlink(os.path.join(CUDA_INCLUDE, rel), link)


def build(sample_dir, name, cmake, out_dir, nvcc, reuse):
    exe_dir = os.path.join(out_dir, "bin", name)  # a folder each: modules of the same name
    os.makedirs(exe_dir, exist_ok=True)
    exe, arch_file = os.path.join(exe_dir, name), os.path.join(exe_dir, name + ".arch")
    if reuse and os.path.exists(exe) and os.path.exists(arch_file):
        return exe, int(open(arch_file).read()), ""
    kernel = re.search(r'set\(\s*CUDA_KERNEL_SOURCE\s+"\$\{CMAKE_CURRENT_SOURCE_DIR\}/([^"]+)"', cmake)
    kernel = os.path.join(sample_dir, kernel.group(1)) if kernel else None
    modules = [(f, kind) for f, kind in ((side_module(cmake, "CUDA_FATBIN_FILE"), "-fatbin"), (side_module(cmake, "CUDA_PTX_FILE"), "-ptx")) if f]
    sources = executable_sources(cmake, name, sample_dir) or sorted(
        os.path.join(sample_dir, f) for f in os.listdir(sample_dir)
        if f.endswith((".cu", ".cpp", ".c")) and not (modules and os.path.join(sample_dir, f) == kernel))
    link_toolkit_headers(cmake, exe_dir)
    common = os.path.join(sample_dir, "..", "..", "..", "Common")
    flags = ["-cudart", "shared", "-std=c++17", "--extended-lambda", "-Wno-deprecated-gpu-targets", "-I" + common,
             "-I" + sample_dir]
    libs = []
    if "CUDA::cuda_driver" in cmake:
        libs += ["-L/usr/local/cuda/lib64/stubs", "-lcuda"]
    if "CUDA::nvrtc" in cmake:
        libs += ["-lnvrtc"]
    if "OpenMP" in cmake:
        flags += ["-Xcompiler", "-fopenmp"]
    if "CUDA_SEPARABLE_COMPILATION" in cmake and re.search(r"cdp|CDP", name):
        flags += ["-rdc=true"]
        libs += ["-lcudadevrt"]
    last = ""
    for arch in ARCHS:
        r = sh([nvcc, "-arch=sm_%d" % arch] + flags + sources + libs + ["-o", exe])
        for module, kind in modules:
            if r.returncode == 0:
                r = sh([nvcc, "-arch=sm_%d" % arch, kind, "-I" + os.path.join(sample_dir, "..", "..", "..", "Common"),
                        "-o", os.path.join(exe_dir, module), kernel])
        if r.returncode == 0:
            open(arch_file, "w").write(str(arch))
            return exe, arch, ""
        last = (r.stderr.strip().splitlines() or ["nvcc failed"])[-1]
    return None, None, last


def run(exe, sample_dir, name, gputlm, config, functional, timeout):
    """Runs the sample from its build folder, which links to every file of its source folder (its data, found
    relative to the working directory as the samples' sdkFindFilePath looks) beside the modules built for it."""
    exe_dir = os.path.dirname(exe)
    for f in os.listdir(sample_dir):
        link = os.path.join(exe_dir, f)
        if not os.path.lexists(link):
            os.symlink(os.path.join(sample_dir, f), link)
    cmd = [gputlm, "cuda", "--config", config] + (["--functional"] if functional else []) + ["--", exe] + SIZE_ARGS.get(name, [])
    start = time.time()
    # A session of its own: on a timeout the whole group goes (gputlm and the program it started).
    p = subprocess.Popen(cmd, cwd=exe_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return False, "timeout after %d s" % timeout, time.time() - start, None
    r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
    seconds = time.time() - start
    ours = [l for l in r.stderr.splitlines() if l.startswith("gputlm cuda: ")]
    if r.returncode == 0:
        return True, "", seconds, 0
    if ours:
        return False, ours[0][len("gputlm cuda: "):], seconds, r.returncode
    tail = (r.stdout.strip().splitlines() or r.stderr.strip().splitlines() or ["(no output)"])[-1]
    why = "the sample waived itself (EXIT_WAIVED): " if r.returncode == 2 else "its check failed (exit %d): " % r.returncode
    return False, why + tail.strip(), seconds, r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("samples")
    ap.add_argument("--gputlm", default="build/bin/gputlm")
    ap.add_argument("--config", default="configs/fermi-gtx480.json")
    ap.add_argument("--functional", action="store_true")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="docs/results/census/cuda_samples")
    ap.add_argument("--reuse", action="store_true", help="run the programs an earlier run built in OUT_build (no nvcc)")
    a = ap.parse_args()
    gputlm, config = os.path.abspath(a.gputlm), os.path.abspath(a.config)
    global CUDA_INCLUDE
    CUDA_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(a.nvcc))), "include")
    out_dir = os.path.abspath(a.out + "_build")
    os.makedirs(os.path.join(out_dir, "bin"), exist_ok=True)
    rows, excluded = [], []
    for cat in CATEGORIES:
        for name in sorted(os.listdir(os.path.join(a.samples, "Samples", cat))):
            d = os.path.join(a.samples, "Samples", cat, name)
            cmake_file = os.path.join(d, "CMakeLists.txt")
            if not os.path.isdir(d) or not os.path.exists(cmake_file) or (a.only and name not in a.only):
                continue
            cmake = open(cmake_file).read()
            why = exclusion(name, cmake)
            if why:
                excluded.append((cat, name, why))
                continue
            exe, arch, err = build(d, name, cmake, out_dir, a.nvcc, a.reuse)
            if not exe:
                rows.append(dict(category=cat, sample=name, target="", passed="no", seconds="", reason="does not build: " + err))
            else:
                ok, why, seconds, _ = run(exe, d, name, gputlm, config, a.functional, a.timeout)
                rows.append(dict(category=cat, sample=name, target="sm_%d" % arch, passed="yes" if ok else "no",
                                 seconds="%.1f" % seconds, reason=why))
            print("%-36s %-5s %s" % (name, rows[-1]["passed"], rows[-1]["reason"]), flush=True)
    commit = sh(["git", "rev-parse", "--short", "HEAD"]).stdout.strip()
    command = "scripts/census/cuda_samples.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    passed = sum(r["passed"] == "yes" for r in rows)
    head = "commit %s; made by: %s" % (commit, command.replace(a.samples, "CUDA_SAMPLES_V13.0"))
    with open(a.out + ".csv", "w", newline="") as f:
        f.write("# " + head + "\n")
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()) if rows else ["sample"])
        w.writeheader()
        w.writerows(rows)
    with open(a.out + ".md", "w") as f:
        f.write("# CUDA samples (v13.0) under gputlm cuda\n\n%s\n\n" % head)
        f.write("%d of %d eligible samples pass (%.0f%%) on %s%s.\n\n" % (passed, len(rows), 100.0 * passed / max(len(rows), 1),
                                                                         os.path.basename(a.config), ", functional" if a.functional else ""))
        f.write("| category | sample | target | passed | seconds | reason |\n|---|---|---|---|---:|---|\n")
        for r in rows:
            f.write("| %s | %s | %s | %s | %s | %s |\n" % (r["category"], r["sample"], r["target"], r["passed"], r["seconds"],
                                                      r["reason"].replace("|", "\\|")))
        f.write("\nExcluded (%d):\n\n| category | sample | why |\n|---|---|---|\n" % len(excluded))
        for c, n, w in excluded:
            f.write("| %s | %s | %s |\n" % (c, n, w))
    print("%d of %d eligible samples pass; %d excluded; %s.md" % (passed, len(rows), len(excluded), a.out))


if __name__ == "__main__":
    main()
