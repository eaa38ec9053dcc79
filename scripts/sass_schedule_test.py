#!/usr/bin/env python3
"""ctest sass_schedule: scripts/sass_schedule.py reads ptxas's schedule of div.rn.f32 as the modern
presets' units.float_div derivation says it is (docs/models/modern-presets.md), for sm_75, sm_80
and sm_90: a MUFU (reciprocal) that sets a scoreboard, then five FFMAs, the first waiting on that
scoreboard and each later one on the one before (fixed latency: a stall of 4 before it, or of 1
when it is the last), then a BRA past the slow-path call that waits on the FCHK's scoreboard.
Exit 77 (skipped) without ptxas."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sass_schedule  # noqa: E402

PTX = os.path.join(HERE, "..", "tests", "data", "sass", "div_rn_f32.ptx")


def check(arch):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "div.ptx")
        with open(PTX) as f:
            text = f.read().replace(".target sm_75", ".target " + arch)
        with open(src, "w") as f:
            f.write(text)
        with open(sass_schedule.compile_ptx(src, arch, tmp), "rb") as f:
            data = f.read()
    (name, code), = [s for s in sass_schedule.sections(data) if s[0] == "k"]
    ins = list(sass_schedule.decode(code))
    names = [i["name"] for i in ins]
    m = names.index("MUFU")
    ffma = [k for k in range(m + 1, len(ins)) if ins[k]["name"] == "FFMA"]
    problems = []
    if len(ffma) < 5:
        problems.append(f"{len(ffma)} FFMAs after the MUFU, expected 5")
    else:
        first = ins[ffma[0]]
        if not (first["wait"] >> ins[m]["wbar"]) & 1:
            problems.append("the first FFMA does not wait on the MUFU's scoreboard")
        if ffma[4] - ffma[0] != 4:
            problems.append("the five FFMAs are not back to back")
        bra = next((k for k in range(ffma[4] + 1, len(ins)) if ins[k]["name"] == "BRA"), None)
        chk = next((k for k in range(m, len(ins)) if ins[k]["name"] == "~FCHK"), None)
        if bra is None or chk is None:
            problems.append("no FCHK and BRA round the slow path")
        elif not (ins[bra]["wait"] >> ins[chk]["wbar"]) & 1:
            problems.append("the BRA does not wait on the FCHK's scoreboard")
        stalls = [ins[k]["stall"] for k in ffma[:5]]
        if stalls[:4] != [4, 4, 4, 4]:
            problems.append(f"FFMA stalls {stalls}, expected 4 between dependent FFMAs")
    return problems


def main():
    if not (shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas")):
        print("sass_schedule_test: no ptxas, skipped")
        return 77
    failed = False
    for arch in ("sm_75", "sm_80", "sm_90"):
        try:
            problems = check(arch)
        except (subprocess.CalledProcessError, ValueError, OSError) as e:
            problems = [str(e)]
        for p in problems:
            print(f"{arch}: {p}")
        failed |= bool(problems)
        if not problems:
            print(f"{arch}: MUFU, five dependent FFMAs, BRA on FCHK: as the derivation says")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
