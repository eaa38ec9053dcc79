#!/usr/bin/python3
"""Deterministic DRAM request streams for the Ramulator 2 golden table (stdlib only).

    streams.py --out DIR [--format ours|ramulator|both] [--layout ddr4|hbm]

writes DIR/<pattern>-<rate>.stl (DRAMSys STL text as tb_dram reads it, see
tb/mem/request_trace.h) and/or DIR/<pattern>-<rate>.ramulator.trace (Ramulator 2's
LoadStoreTrace format, `LD 0x<hex>` / `ST 0x<hex>`, one request a line; that format carries no
timing, so it only describes the address/op sequence -- the golden runs replay the .stl file
through gputlm's driver, scripts/dram_golden/ramulator_driver.cpp).

Every stream: 8000 requests of one transaction each. Address layout assumed (Ramulator
RoBaRaCoCh), from bit 0 up, per layout:
  ddr4 (DDR4_8Gb_x8, 1 channel, 1 rank; 64 B requests)
    [5:0] byte in the 64-B burst, [12:6] column block (128 per 8 KiB row),
    [14:13] bank group, [16:15] bank in group, [32:17] row.
  hbm (HBM2 and HBM3, one pseudo-channel, one stack ID; 32 B requests, one BL4 burst on 64 bits
    or one BL8 burst on 32 bits)
    [4:0] byte in the 32-B burst, [9:5] column block (32 per 1 KiB row),
    [11:10] bank group, [13:12] bank in group, [29:14] row.
The flat bank index 0..15 = the four bits above the column = bankgroup + 4*bank.

Patterns:
  seq          address bytes*i (bytes: the request size), all reads (walks one whole row, then
               the next flat bank).
  random       uniform over 1 GiB, aligned to the request size, all reads, seed 1.
  bank_stride  request i goes to flat bank i%16, column block (i//16)%COLS, row i//(16*COLS): it
               cycles all 16 banks and advances the column, so every revisit of a bank hits the
               row it opened (16 misses first, then a new row every 16*COLS requests; ddr4: 3x16
               more row changes over 8000 requests), all reads.
  row_pingpong flat bank 0, rows 0 and 1 alternating (row i%2, column block (i//2)%COLS), all
               reads -- every request needs the other row: a row conflict each time.
  mixed        uniform over 1 GiB like random (seed 2), each request a write with probability
               1/3 (same generator), else a read.
Rates (the STL cycle field):
  sat    cycle = i: one request offered per DRAM cycle; the source holds back (and retries the
         same request the next cycle) while the controller refuses it.
  light  cycle = 8*i: one request every 8 DRAM cycles.
"""
import argparse
import os
import random

N = 8000
PATTERNS = ("seq", "random", "bank_stride", "row_pingpong", "mixed")
RATES = {"sat": 1, "light": 8}

# Per layout: request bytes (= the column shift), bank shift, row shift, column blocks per row.
LAYOUTS = {"ddr4": (64, 13, 17, 128), "hbm": (32, 10, 14, 32)}


def stream(pattern, layout="ddr4"):
    """Yield (is_write, address) for the pattern's N requests."""
    nbytes, bank_shift, row_shift, cols = LAYOUTS[layout]
    col_shift = nbytes.bit_length() - 1
    random_bits = 30 - col_shift  # uniform over 1 GiB
    if pattern == "seq":
        for i in range(N):
            yield False, i * nbytes
    elif pattern == "random":
        rng = random.Random(1)
        for _ in range(N):
            yield False, rng.getrandbits(random_bits) << col_shift
    elif pattern == "bank_stride":
        for i in range(N):
            bank, col, row = i % 16, (i // 16) % cols, i // (16 * cols)
            yield False, (row << row_shift) | (bank << bank_shift) | (col << col_shift)
    elif pattern == "row_pingpong":
        for i in range(N):
            row, col = i % 2, (i // 2) % cols
            yield False, (row << row_shift) | (col << col_shift)
    elif pattern == "mixed":
        rng = random.Random(2)
        for _ in range(N):
            addr = rng.getrandbits(random_bits) << col_shift
            yield rng.random() < 1 / 3, addr
    else:
        raise ValueError(pattern)


def layout_of(variant):
    """The address layout a golden variant's streams use: hbm for hbm2-*/hbm3-*, else ddr4."""
    return "hbm" if variant.startswith("hbm") else "ddr4"


def write_all(out, fmt="both", layout="ddr4"):
    os.makedirs(out, exist_ok=True)
    nbytes = LAYOUTS[layout][0]
    names = []
    for pattern in PATTERNS:
        reqs = list(stream(pattern, layout))
        for rate, gap in RATES.items():
            name = f"{pattern}-{rate}"
            names.append(name)
            if fmt in ("ours", "both"):
                with open(os.path.join(out, name + ".stl"), "w") as f:
                    f.write(f"# gputlm DRAM golden stream {name}: {N} x {nbytes} B\n")
                    for i, (w, a) in enumerate(reqs):
                        f.write(f"{gap * i}: {'write' if w else 'read'} 0x{a:x} bytes={nbytes}\n")
            if fmt in ("ramulator", "both"):
                with open(os.path.join(out, name + ".ramulator.trace"), "w") as f:
                    for w, a in reqs:
                        f.write(f"{'ST' if w else 'LD'} 0x{a:x}\n")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--format", choices=("ours", "ramulator", "both"), default="both")
    ap.add_argument("--layout", choices=tuple(LAYOUTS), default="ddr4")
    args = ap.parse_args()
    for name in write_all(args.out, args.format, args.layout):
        print(name)


if __name__ == "__main__":
    main()
