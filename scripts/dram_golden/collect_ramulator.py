#!/usr/bin/python3
"""Collect the per-run outputs of run_ramulator.sh into the golden CSV (stdlib only).

    collect_ramulator.py --runs DIR --out CSV --ramulator-commit H --our-commit H

DIR/<variant>/<pattern>-<rate>/ holds stats.txt (ramulator_driver's stdout) and cmd_counts.csv
(Ramulator's CommandCounter plugin output).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import streams  # noqa: E402

HEADER = """\
# Ramulator 2.1 golden results for gputlm's DRAM controller (tb_dram) streams.
# Ramulator 2 commit: {ram}  (github.com/CMU-SAFARI/ramulator2)
# Made by: scripts/dram_golden/run_ramulator.sh <ramulator checkout> tests/data/dram_golden/ramulator2.csv
# at gputlm commit: {ours}
# Streams: scripts/dram_golden/streams.py (8000 requests each, 64 B for DDR4, 32 B for HBM; rate
#   sat = trace cycle i, light = 8*i).
# Config: tests/data/dram_golden/ramulator2/<variant>.yaml -- refresh, norefresh: DDR4_8Gb_x8, 1 ch, 1 rank,
#   DDR4_2400R (nCL=nRCD=nRP=16 nRAS=39 nCWL=12 nWR=18 nBL=4 nCCDS=4 nCCDL=6 nRRDS=4 nRRDL=6
#   nFAW=26 nRTP=9 nWTRS=3 nWTRL=9 nRC=55 nRFC=433 nREFI=9364), GenericDDR (32 read + 32 write
#   entries, write watermarks 0.2/0.8), FRFCFS, Open rows, RoBaRaCoCh mapping (bits from 0:
#   6 offset, 7 column block, 2 bank group, 2 bank, 16 row). Replayed by
#   scripts/dram_golden/ramulator_driver.cpp: at most one request offered per DRAM cycle once its
#   trace cycle is reached, retried every cycle while refused; one controller tick per cycle;
#   the run ends when every request has completed.
# hbm2-*, hbm3-*: one HBM2 / HBM3 pseudo-channel (HBM12 / HBM34 controller, the same buffers,
#   watermarks, FRFCFS, Open rows and RoBaRaCoCh), every timing as gputlm's hbm2 / hbm3 preset
#   (see ramulator_config.py); 32 B a request. Ramulator ticks HBM3 at half clocks: its runs are
#   driven two ticks a trace cycle and every cycle figure below is converted to clocks (ticks / 2).
# Columns:
#   variant            refresh = AllBank refresh (one REFab per rank every nREFI, first at clk nREFI);
#                      norefresh = Ramulator's NoRefresh manager (never refreshes)
#   pattern, rate      the stream (see streams.py)
#   requests/reads/writes   requests accepted by the controller (all are)
#   act, pre, prea, ref     DRAM commands issued (CommandCounter): ACT; PREpb+PREab; PREab alone
#                      (issued only as the refresh's prerequisite when a bank is open); REFab
#   rd_cmds, wr_cmds   RD and WR commands issued (Open policy: never RDA/WRA)
#   row_hits, row_misses, row_conflicts   Ramulator's classification of each request, made when the
#                      request's FIRST command issues: hit = its row open in its bank (that command is
#                      RD/WR); conflict = bank open on another row (command is PRE); miss = bank
#                      closed (command is ACT). Forwarded reads / coalesced writes are not classified.
#   drain_cycles       DRAM cycles from cycle 0 (first request offered, arrive clock 0) to the last
#                      completion: a read completes at depart = its RD issue clock + nCL + nBL (20); a
#                      write completes when its WR command issues (Ramulator's write callback). Equals
#                      Ramulator's controller `cycles` stat (the driver stops ticking there).
#   bytes_per_cycle    request bytes (64 DDR4, 32 HBM) * requests / drain_cycles
#   avg_read_latency   Ramulator's avg_read_latency = sum(depart - arrive) / reads served, in DRAM
#                      cycles; arrive = controller clock when the request was accepted (the cycle
#                      before the first tick that can schedule it), depart = RD issue + 20. A row hit
#                      on an idle controller: 21.
#   avg_read_latency_from_offer   mean of (depart - trace cycle): includes the time a request waited
#                      in the source while the controller refused it (differs from the above for sat)
#   reads_forwarded    reads served from a buffered write to the same address (latency 1)
#   writes_coalesced   writes absorbed by a buffered write to the same address
#   refused_offers     offers the controller refused (buffer full)
"""

COLUMNS = ["variant", "pattern", "rate", "requests", "reads", "writes", "act", "pre", "prea", "ref",
           "rd_cmds", "wr_cmds", "row_hits", "row_misses", "row_conflicts", "drain_cycles",
           "bytes_per_cycle", "avg_read_latency", "avg_read_latency_from_offer",
           "reads_forwarded", "writes_coalesced", "refused_offers"]


def parse_stats(path):
    out = {}
    with open(path) as f:
        for line in f:
            key, sep, val = line.strip().partition(":")
            if sep and val.strip():
                out.setdefault(key.strip(), val.strip())
    return out


def parse_counts(path):
    out = {}
    with open(path) as f:
        for line in f:
            name, _, n = line.partition(",")
            if name.strip():
                out[name.strip()] = int(n)
    return out


def row(variant, name, d):
    s = parse_stats(os.path.join(d, "stats.txt"))
    c = parse_counts(os.path.join(d, "cmd_counts.csv"))
    pattern, rate = name.rsplit("-", 1)
    n = int(s["drv_requests"])
    reads, writes = int(s["num_read_reqs"]), int(s["num_write_reqs"])
    assert reads + writes == n and int(s["drv_reads_done"]) == reads, (variant, name)
    ticks = int(s.get("drv_ticks_per_cycle", 1))
    nbytes = streams.LAYOUTS[streams.layout_of(variant)][0]
    drain = int(s["drv_drain_cycles"])
    served = int(s["num_read_reqs_served"])
    lat = int(s["read_latency"]) / served / ticks if served else 0.0
    lat_offer = int(s["drv_read_latency_trace_sum"]) / reads / ticks if reads else 0.0
    drain_cycles = drain / ticks
    drain_text = str(drain) if ticks == 1 else f"{drain_cycles:g}"
    return [variant, pattern, rate, n, reads, writes, c["ACT"], c["PREpb"] + c["PREab"], c["PREab"],
            c["REFab"], c["RD"], c["WR"], s["row_hits"], s["row_misses"], s["row_conflicts"], drain_text,
            f"{nbytes * n / drain_cycles:.4f}", f"{lat:.3f}", f"{lat_offer:.3f}", s["num_read_reqs_forwarded"],
            s["num_write_reqs_coalesced"], s["drv_refused_offers"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ramulator-commit", required=True)
    ap.add_argument("--our-commit", required=True)
    a = ap.parse_args()
    rows = []
    for variant in ("refresh", "norefresh", "hbm2-refresh", "hbm2-norefresh", "hbm3-refresh",
                    "hbm3-norefresh"):
        for pattern in streams.PATTERNS:
            for rate in streams.RATES:
                name = f"{pattern}-{rate}"
                rows.append(row(variant, name, os.path.join(a.runs, variant, name)))
    with open(a.out, "w") as f:
        f.write(HEADER.format(ram=a.ramulator_commit, ours=a.our_commit))
        f.write(",".join(COLUMNS) + "\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")


if __name__ == "__main__":
    main()
