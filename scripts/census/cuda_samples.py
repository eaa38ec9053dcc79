#!/usr/bin/env python3
"""Census of NVIDIA's CUDA samples under `gputlm cuda` (issue 40, part 3).

Usage: scripts/census/cuda_samples.py SAMPLES [--gputlm build/bin/gputlm] [--config configs/fermi-gtx480.json]
           [--functional] [--only NAME ...] [--timeout 600] [--out docs/results/census/cuda_samples] [--jobs N] [--reuse]

SAMPLES is a checkout of NVIDIA/cuda-samples at tag v13.0 (nothing of it is committed here; fetch it
and pass its path). Every sample of 0_Introduction, 2_Concepts_and_Techniques, 3_CUDA_Features,
5_Domain_Specific and 6_Performance is eligible unless it needs a graphics or display API (OpenGL,
GLUT, Vulkan, EGL, Direct3D, X11), a CUDA library shipped without PTX (cuBLAS, cuFFT, cuRAND's host
API, cuSPARSE, cuSOLVER, NPP, nvJPEG) or a second GPU or process (MPI, IPC, peer-to-peer, multi-GPU).
Each eligible sample is built with `nvcc -cudart shared` for the lowest target from sm_75 up that
compiles it (from FEATURE_TARGETS's target up, for a sample that needs a device feature from it), and run
under `gputlm cuda` with its default arguments (or the size flags of SIZE_ARGS below, when its default run
takes longer than the timeout) from its build folder, which links to its
source folder's files (its data). The simulated device reports the compute capability of that target
(the config's "device.compute_capability", in a copy of the config in OUT_build); a sample that waives
itself for want of a higher one (EXIT_WAIVED) is built and run again for the next target, so each runs
at the lowest target it supports. It passes when it exits 0 (its own check); an exit 2 with a `gputlm cuda:` line names
what gputlm is missing. Writes OUT.md (the table, the exclusions and the counts) and OUT.csv, each
headed by the commit and the command that made them.
"""
import argparse
import concurrent.futures
import os
import re

from census_common import REPO, built_before, census_row, compile_lowest, device_configs, failure, run_program, write_tables

CATEGORIES = ["0_Introduction", "2_Concepts_and_Techniques", "3_CUDA_Features", "5_Domain_Specific", "6_Performance"]
GRAPHICS = {"OpenGL": "OpenGL", "GLUT": "OpenGL (GLUT)", "Vulkan": "Vulkan", "EGL": "EGL", "X11": "X11"}
LIBRARIES = {"cublas": "cuBLAS", "cublasLt": "cuBLAS", "cufft": "cuFFT", "curand": "cuRAND host API", "cusparse": "cuSPARSE",
             "cusolver": "cuSOLVER", "nppc": "NPP", "nppial": "NPP", "nppif": "NPP", "nppig": "NPP", "nppisu": "NPP",
             "nvjpeg": "nvJPEG"}
SECOND_GPU_OR_PROCESS = re.compile(r"MultiGPU|P2P|p2p|IPC|MPI|CrossGPU")
CUDA_INCLUDE = "/usr/local/cuda/include"  # the toolkit's headers: beside --nvcc's bin folder (main())
# Samples whose default run simulates for longer than the timeout: their own size flags.
# matrixMul's default (A 320x320, B 640x320, 301 launches) is 1.3 G warp instructions; 128x128 matrices keep its
# 301 launches. reductionMultiBlockCG's default sums 2^25 elements; 2^20 with its -n. eigenvalues times
# 100 runs of its 2048x2048 case; one with -iters-timing (its input and reference files stay). radixSortThrust
# sorts 2^20 keys 100 times; 2^16 with -n. FDTD3d steps a 376^3 grid 5 times; a 96^3 one with its flags.
# UnifiedMemoryPerf multiplies matrices of 32^2 to 2048^2 20 times for each of 8 kinds of memory; once with
# -kernel-iterations (its only flag that shortens the run; the sizes stay).
SQUARE_128 = ["-wA=128", "-hA=128", "-wB=128", "-hB=128"]
SIZE_ARGS = {"matrixMul": SQUARE_128, "matrixMul_nvrtc": SQUARE_128, "globalToShmemAsyncCopy": SQUARE_128,
             "reductionMultiBlockCG": ["-n=1048576"], "eigenvalues": ["-iters-timing=1"], "radixSortThrust": ["-n=65536"],
             "FDTD3d": ["-dimx=96", "-dimy=96", "-dimz=96"], "UnifiedMemoryPerf": ["-kernel-iterations=1"]}
# Samples that need a device feature gputlm grants only from a compute capability above their lowest build target:
# their lowest target is that one (below it they waive themselves, as on a GPU without the feature).
# cudaCompressibleMemory allocates with CU_MEM_ALLOCATION_COMP_GENERIC, which devices have from compute capability
# 8.0 (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED; runtime/virtual_memory.h).
FEATURE_TARGETS = {"cudaCompressibleMemory": 80}


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


def include_folders(cmake, sample_dir):
    """The sample's own include folders its CMakeLists names (target_include_directories(NAME PRIVATE inc))."""
    found = []
    for block in re.findall(r"target_include_directories\([^)]*\)", cmake):
        found += [w for w in block[len("target_include_directories("):-1].split()
                  if os.path.isdir(os.path.join(sample_dir, w)) and w not in found]
    return found


def link_toolkit_headers(cmake, exe_dir):
    """The toolkit headers a sample's CMakeLists copies beside the program (NVRTC samples find
    cooperative_groups.h there at run time): linked from the toolkit's include folder."""
    for rel, dest in re.findall(r"\$\{CUDA_INCLUDE_DIR\}/(\S+)(?:\s+\$\{CMAKE_CURRENT_BINARY_DIR\}/(\S+))?", cmake):
        link = os.path.join(exe_dir, dest.rstrip(")") if dest else os.path.basename(rel))
        if not os.path.lexists(link):
            os.symlink(os.path.join(CUDA_INCLUDE, rel), link)


def build(sample_dir, name, cmake, out_dir, nvcc, reuse, archs):
    exe_dir = os.path.join(out_dir, "bin", name)  # a folder each: modules of the same name
    os.makedirs(exe_dir, exist_ok=True)
    exe = os.path.join(exe_dir, name)
    if reuse and built_before(exe, archs):
        return exe, built_before(exe, archs), ""
    kernel = re.search(r'set\(\s*CUDA_KERNEL_SOURCE\s+"\$\{CMAKE_CURRENT_SOURCE_DIR\}/([^"]+)"', cmake)
    kernel = os.path.join(sample_dir, kernel.group(1)) if kernel else None
    modules = [(f, kind) for f, kind in ((side_module(cmake, "CUDA_FATBIN_FILE"), "-fatbin"), (side_module(cmake, "CUDA_PTX_FILE"), "-ptx")) if f]
    sources = executable_sources(cmake, name, sample_dir) or sorted(
        os.path.join(sample_dir, f) for f in os.listdir(sample_dir)
        if f.endswith((".cu", ".cpp", ".c")) and not (modules and os.path.join(sample_dir, f) == kernel))
    link_toolkit_headers(cmake, exe_dir)
    common = os.path.join(sample_dir, "..", "..", "..", "Common")
    flags = ["-cudart", "shared", "-std=c++17", "--extended-lambda", "-Wno-deprecated-gpu-targets", "-I" + common,
             "-I" + sample_dir] + ["-I" + os.path.join(sample_dir, d) for d in include_folders(cmake, sample_dir)]
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

    def commands(arch):
        return [[nvcc, "-arch=sm_%d" % arch] + flags + sources + libs + ["-o", exe]] + [
            [nvcc, "-arch=sm_%d" % arch, kind, "-I" + common, "-o", os.path.join(exe_dir, module), kernel]
            for module, kind in modules]
    arch, err = compile_lowest(commands, archs, exe)
    return (exe if arch else None), arch, err


def run(exe, sample_dir, name, gputlm, config, functional, timeout):
    """Runs the sample from its build folder, which links to every file of its source folder (its data, found
    relative to the working directory as the samples' sdkFindFilePath looks) beside the modules built for it."""
    exe_dir = os.path.dirname(exe)
    for f in os.listdir(sample_dir):
        link = os.path.join(exe_dir, f)
        if not os.path.lexists(link):
            os.symlink(os.path.join(sample_dir, f), link)
    rc, out, err, seconds = run_program(gputlm, config, functional, timeout, [exe] + SIZE_ARGS.get(name, []), exe_dir)
    return rc == 0, ("" if rc == 0 else failure(rc, out, err, timeout)), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("samples")
    ap.add_argument("--gputlm", default=os.path.join(REPO, "build/bin/gputlm"))
    ap.add_argument("--config", default=os.path.join(REPO, "configs/fermi-gtx480.json"))
    ap.add_argument("--functional", action="store_true")
    ap.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--out", default="docs/results/census/cuda_samples")
    ap.add_argument("--jobs", type=int, default=1, help="samples built and run at once")
    ap.add_argument("--update", action="store_true", help="keep the rows of OUT.csv for the samples not run now" )
    ap.add_argument("--reuse", action="store_true", help="run the programs an earlier run built in OUT_build (no nvcc)")
    a = ap.parse_args()
    gputlm, config = os.path.abspath(a.gputlm), os.path.abspath(a.config)
    global CUDA_INCLUDE
    CUDA_INCLUDE = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(a.nvcc))), "include")
    out_dir = os.path.abspath(a.out + "_build")
    os.makedirs(os.path.join(out_dir, "bin"), exist_ok=True)
    configs = device_configs(config, out_dir)
    rows, excluded, work = [], [], []
    for cat in CATEGORIES:
        for name in sorted(os.listdir(os.path.join(a.samples, "Samples", cat))):
            d = os.path.join(a.samples, "Samples", cat, name)
            cmake_file = os.path.join(d, "CMakeLists.txt")
            if not os.path.isdir(d) or not os.path.exists(cmake_file):
                continue
            cmake = open(cmake_file).read()
            why = exclusion(name, cmake)
            if why:
                excluded.append((cat, name, why))  # all of them, whatever --only runs
            elif not a.only or name in a.only:
                work.append((cat, name, d, cmake))

    def census(item):
        cat, name, d, cmake = item
        lowest = FEATURE_TARGETS.get(name, 0)
        return census_row(cat, name,
                          lambda archs: build(d, name, cmake, out_dir, a.nvcc, a.reuse, [x for x in archs if x >= lowest]),
                          lambda exe, arch: run(exe, d, name, gputlm, configs[arch], a.functional, a.timeout))

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:  # each sample is a process of its own
        rows = list(pool.map(census, work))
    write_tables(a.out, "CUDA samples (v13.0)", "CUDA_SAMPLES_V13.0", a.samples, a.config, a.functional, rows, excluded,
                 "sample", a.update)


if __name__ == "__main__":
    main()
