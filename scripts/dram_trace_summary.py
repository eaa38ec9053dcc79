#!/usr/bin/env python3
"""Summarise a per-request DRAM trace (gputlm run --dram-trace FILE).

For each trace: requests and row-buffer hit rate by access kind and instruction (pc); the length
of row runs (consecutive accesses a bank serves from one open row) and of instruction runs (requests
arriving back to back from one load or store instruction, any warp); and, for every row conflict,
who had opened the row it closed: the same or another instruction, the same or another warp, the
same or another fetch group (warp slot // --group-size). Give several traces to compare them.

  scripts/dram_trace_summary.py [--group-size N] [--top K] TRACE.csv [TRACE.csv ...]
"""
import argparse
import collections
import csv
import statistics
import sys


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    need = {"channel", "core", "warp", "pc", "kind", "bank", "row", "start", "outcome", "queued"}
    if rows and not need <= rows[0].keys():
        sys.exit(f"{path}: not a gputlm DRAM trace (needs columns {', '.join(sorted(need))})")
    # The order each bank served its requests.
    rows.sort(key=lambda r: (int(r["channel"]), int(r["start"])))
    return rows


def summarise(path, group_size, top):
    rows = load(path)
    print(f"{path}: {len(rows)} requests")
    if not rows:
        return
    by_source = collections.defaultdict(collections.Counter)
    for r in rows:
        by_source[(r["kind"], r["pc"])][r["outcome"]] += 1
    hits = sum(c["hit"] for c in by_source.values())
    print(f"  row-buffer hit rate {hits / len(rows):.3f}")
    print("  by instruction (kind, pc): requests, hit rate")
    for (kind, pc), c in sorted(by_source.items(), key=lambda kv: -sum(kv[1].values()))[:top]:
        n = sum(c.values())
        print(f"    {kind:9s} pc {pc:>5s}  {n:7d}  {c['hit'] / n:.3f}")

    last = {}
    runs, run = [], {}
    conflicts = collections.Counter()
    pairs = collections.Counter()
    for r in rows:
        bank = (r["channel"], r["bank"])
        p = last.get(bank)
        if p is None or r["outcome"] != "hit":
            if bank in run:
                runs.append(run[bank])
            run[bank] = 1
        else:
            run[bank] += 1
        if r["outcome"] == "conflict" and p is not None:
            same_pc = (p["kind"], p["pc"]) == (r["kind"], r["pc"])
            same_warp = (p["core"], p["warp"]) == (r["core"], r["warp"])
            same_group = p["core"] == r["core"] and int(p["warp"]) // group_size == int(r["warp"]) // group_size
            conflicts[("same instruction" if same_pc else "other instruction",
                       "same warp" if same_warp else "same group" if same_group else "other group")] += 1
            pairs[(f"{p['kind']} {p['pc']}", f"{r['kind']} {r['pc']}")] += 1
        last[bank] = r
    runs.extend(run.values())
    print(f"  row runs (accesses served from one opened row): {len(runs)}, mean {statistics.mean(runs):.1f}, "
          f"median {statistics.median(runs):g}, max {max(runs)}")
    # Instruction runs: in arrival order per channel, requests of one (kind, pc) back to back.
    arrivals = sorted(rows, key=lambda r: (int(r["channel"]), int(r["arrival"]), int(r["id"])))
    instr_runs, n, prev = [], 0, None
    for r in arrivals:
        if prev is not None and (prev["channel"], prev["kind"], prev["pc"]) == (r["channel"], r["kind"], r["pc"]):
            n += 1
        else:
            if n:
                instr_runs.append(n)
            n = 1
        prev = r
    instr_runs.append(n)
    print(f"  instruction runs (requests arriving back to back from one instruction): mean "
          f"{statistics.mean(instr_runs):.1f}, median {statistics.median(instr_runs):g}")
    queued = [int(r["queued"]) for r in rows]
    print(f"  requests waiting when one starts: median {statistics.median(queued):g}, max {max(queued)}")
    total = sum(conflicts.values())
    if total:
        print(f"  row conflicts: {total}; the row closed was opened by (group = warp slot // {group_size}):")
        for (a, b), n in conflicts.most_common():
            print(f"    {a:17s} {b:11s} {n:7d}  {n / total:.1%}")
        print("  most frequent (opener -> closer) pairs:")
        for (a, b), n in pairs.most_common(top):
            print(f"    {a:>14s} -> {b:14s} {n:7d}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--group-size", type=int, default=8, help="warps per fetch group (default 8)")
    ap.add_argument("--top", type=int, default=8, help="rows of the per-instruction tables (default 8)")
    a = ap.parse_args()
    if a.group_size < 1:
        sys.exit("--group-size must be at least 1")
    for t in a.traces:
        try:
            summarise(t, a.group_size, a.top)
        except OSError as e:
            sys.exit(f"{t}: {e.strerror}")


if __name__ == "__main__":
    main()
