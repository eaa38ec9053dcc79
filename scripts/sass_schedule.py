#!/usr/bin/env python3
"""What ptxas scheduled: each SASS instruction of a cubin's kernels with its control codes.

Usage: scripts/sass_schedule.py CUBIN [KERNEL_SUBSTRING]
       scripts/sass_schedule.py --ptx KERNELS.ptx --arch sm_75 [KERNEL_SUBSTRING]

There is no disassembler on these machines (no cuobjdump or nvdisasm), but ptxas is: the second
form compiles PTX to a cubin with it first. Volta and later encode an instruction in 128 bits with
its scheduling in the top bits of the high word (Jia et al., "Dissecting the NVIDIA Volta GPU
Architecture via Microbenchmarking", 2018, Sec. 2.2): the stall count (cycles the warp waits before
its next instruction: the compiler's latency for a fixed-latency result), the yield bit, the
scoreboard the instruction sets when its result is written (wbar) or its operands read (rbar), 7
meaning none, and the scoreboards it waits on (wait mask). A variable-latency instruction (MUFU, a
load, a conversion) sets one; its reader waits on it.

Printed per instruction: byte offset, opcode (the low 12 bits; the low 9 name the operation, the
high 3 its operand form), its name where known, the destination and first source register, and the
control codes. Names come from compiling one-instruction PTX kernels with ptxas (CUDA 13, sm_75,
sm_80, sm_90): FFMA, FADD, FMUL, MUFU, I2F, FSETP, FSEL, MOV, BRA, EXIT, STG, NOP; the rest
(marked ~) from where they stand in larger kernels (an LDC where PTX has ld.const, BSSY/BSYNC
around a branch's two paths). Others print as hex.

Used for the derivation of the modern presets' units.float_div (docs/models/modern-presets.md):
  scripts/sass_schedule.py --ptx div.ptx --arch sm_75
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

NAMES = {
    0x023: "FFMA", 0x021: "FADD", 0x020: "FMUL", 0x108: "MUFU", 0x106: "I2F", 0x00B: "FSETP",
    0x008: "FSEL", 0x002: "MOV", 0x147: "BRA", 0x14D: "EXIT", 0x186: "STG", 0x118: "NOP",
    0x00C: "~ISETP", 0x012: "~LOP3", 0x019: "~SHF", 0x024: "~IMAD", 0x025: "~IMAD.WIDE",
    0x010: "~IADD3", 0x011: "~LEA", 0x007: "~SEL", 0x102: "~FCHK", 0x144: "~CALL", 0x150: "~RET",
    0x145: "~BSSY", 0x141: "~BSYNC", 0x119: "~S2R", 0x181: "~LDG", 0x182: "~LDC", 0x184: "~LDS",
    0x188: "~STS", 0x11D: "~BAR", 0x0B9: "~ULDC",
}


def sections(data):
    """(name, bytes) of every .text.<kernel> section of an ELF64 cubin."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not an ELF64 file (a cubin from ptxas)")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab_at = heads[shstrndx][4]
    for h in heads:
        start = strtab_at + h[0]
        name = data[start:data.index(b"\0", start)].decode()
        if name.startswith(".text."):
            yield name[len(".text."):], data[h[4]:h[4] + h[5]]


def decode(code):
    for at in range(0, len(code) - 15, 16):
        lo, hi = struct.unpack_from("<QQ", code, at)
        op = lo & 0xFFF
        ctl = hi >> 41
        yield {
            "at": at, "op": op, "name": NAMES.get(op & 0x1FF, "?"),
            "rd": (lo >> 16) & 0xFF, "ra": (lo >> 24) & 0xFF,
            "stall": ctl & 0xF, "yield": (ctl >> 4) & 1, "wbar": (ctl >> 5) & 7,
            "rbar": (ctl >> 8) & 7, "wait": (ctl >> 11) & 0x3F,
        }


def compile_ptx(ptx, arch, out_dir):
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(ptxas):
        raise FileNotFoundError("no ptxas on PATH or in /usr/local/cuda/bin")
    cubin = os.path.join(out_dir, "kernels.cubin")
    subprocess.run([ptxas, "-arch=" + arch, ptx, "-o", cubin], check=True)
    return cubin


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cubin", nargs="?", help="a cubin (ELF) from ptxas")
    ap.add_argument("kernel", nargs="?", default="", help="only kernels whose name holds this")
    ap.add_argument("--ptx", help="compile this PTX with ptxas first")
    ap.add_argument("--arch", default="sm_75", help="ptxas -arch for --ptx (default sm_75)")
    a = ap.parse_args()
    if a.ptx and a.cubin and not a.kernel:
        a.kernel, a.cubin = a.cubin, None  # --ptx F KERNEL: the positional is the kernel
    if bool(a.ptx) == bool(a.cubin):
        ap.error("give a CUBIN or --ptx PTX")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = compile_ptx(a.ptx, a.arch, tmp) if a.ptx else a.cubin
            with open(path, "rb") as f:
                data = f.read()
            found = False
            for name, code in sections(data):
                if a.kernel not in name:
                    continue
                found = True
                print(f"# {name}: {len(code) // 16} instructions")
                for i in decode(code):
                    print(f"{i['at']:05x} {i['op']:03x} {i['name']:11s} R{i['rd']:<3d} R{i['ra']:<3d} "
                          f"stall={i['stall']:2d} yield={i['yield']} wbar={i['wbar']} "
                          f"rbar={i['rbar']} wait={i['wait']:06b}")
            if not found:
                print(f"sass_schedule: no kernel matching '{a.kernel}'", file=sys.stderr)
                return 1
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"sass_schedule: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
