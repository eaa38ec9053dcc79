#!/usr/bin/python3
"""Deterministic DRAM request streams for the Ramulator 2 golden table (stdlib only).

    streams.py --out DIR [--format ours|ramulator|both]

writes DIR/<pattern>-<rate>.stl (DRAMSys STL text as tb_dram reads it, see
tb/mem/request_trace.h) and/or DIR/<pattern>-<rate>.ramulator.trace (Ramulator 2's
LoadStoreTrace format, `LD 0x<hex>` / `ST 0x<hex>`, one request a line; that format carries no
timing, so it only describes the address/op sequence -- the golden runs replay the .stl file
through gputlm's driver, scripts/dram_golden/ramulator_driver.cpp).

Every stream: 8000 requests of 64 bytes. Address layout assumed (Ramulator RoBaRaCoCh on
DDR4_8Gb_x8, 1 channel, 1 rank), from bit 0 up:
    [5:0] byte in the 64-B burst, [12:6] column block (128 per 8 KiB row),
    [14:13] bank group, [16:15] bank in group, [32:17] row.
The flat bank index 0..15 = bits [16:13] = bankgroup + 4*bank.

Patterns:
  seq          address 64*i, all reads (walks one whole 8 KiB row, then the next flat bank).
  random       uniform 64-B-aligned over 1 GiB (bits [29:6] random), all reads, seed 1.
  bank_stride  request i goes to flat bank i%16, column block (i//16)%128, row i//2048: it
               cycles all 16 banks and advances the column, so every revisit of a bank hits the
               row it opened (16 misses first, then a new row every 2048 requests: 3x16 more
               row changes over 8000 requests), all reads.
  row_pingpong flat bank 0, rows 0 and 1 alternating (row i%2, column block (i//2)%128), all
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
BYTES = 64
PATTERNS = ("seq", "random", "bank_stride", "row_pingpong", "mixed")
RATES = {"sat": 1, "light": 8}

COL_SHIFT, BANK_SHIFT, ROW_SHIFT = 6, 13, 17
COLS = 128


def stream(pattern):
    """Yield (is_write, address) for the pattern's N requests."""
    if pattern == "seq":
        for i in range(N):
            yield False, i * BYTES
    elif pattern == "random":
        rng = random.Random(1)
        for _ in range(N):
            yield False, rng.getrandbits(24) << 6
    elif pattern == "bank_stride":
        for i in range(N):
            bank, col, row = i % 16, (i // 16) % COLS, i // (16 * COLS)
            yield False, (row << ROW_SHIFT) | (bank << BANK_SHIFT) | (col << COL_SHIFT)
    elif pattern == "row_pingpong":
        for i in range(N):
            row, col = i % 2, (i // 2) % COLS
            yield False, (row << ROW_SHIFT) | (col << COL_SHIFT)
    elif pattern == "mixed":
        rng = random.Random(2)
        for _ in range(N):
            addr = rng.getrandbits(24) << 6
            yield rng.random() < 1 / 3, addr
    else:
        raise ValueError(pattern)


def write_all(out, fmt="both"):
    os.makedirs(out, exist_ok=True)
    names = []
    for pattern in PATTERNS:
        reqs = list(stream(pattern))
        for rate, gap in RATES.items():
            name = f"{pattern}-{rate}"
            names.append(name)
            if fmt in ("ours", "both"):
                with open(os.path.join(out, name + ".stl"), "w") as f:
                    f.write(f"# gputlm DRAM golden stream {name}: {N} x {BYTES} B\n")
                    for i, (w, a) in enumerate(reqs):
                        f.write(f"{gap * i}: {'write' if w else 'read'} 0x{a:x} bytes={BYTES}\n")
            if fmt in ("ramulator", "both"):
                with open(os.path.join(out, name + ".ramulator.trace"), "w") as f:
                    for w, a in reqs:
                        f.write(f"{'ST' if w else 'LD'} 0x{a:x}\n")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--format", choices=("ours", "ramulator", "both"), default="both")
    args = ap.parse_args()
    for name in write_all(args.out, args.format):
        print(name)


if __name__ == "__main__":
    main()
