#!/usr/bin/env python3
"""Two bench_sim executables side by side in one run on one machine (a commit before a change and
one after it): each workload runs one repeat under the one, then one under the other, in turns, so
that the machine's load falls alike on both; each side's row is its median run. Prints one table:
each workload and mode with the before and after rates, the speedup (before's median host time
over after's) and whether the two simulated the same thread instructions and cycles (a speed
change must not change results).

  scripts/bench_compare.py --before OLD/bench_sim --after build/bin/bench_sim [--before-root OLD] [--json out.json]
                           [--size study] [--repeat 3] [--config C ...] [--timed-only] [workloads...]

Modes only one of the two has (an older bench_sim lacks timed+window) show "-" on the other side.
Run from the repository root (bench_sim finds its workloads and configs from there).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

DEFAULT_WORKLOADS = ["traces/micro/divergence", "traces/narasiman/blackjack", "traces/narasiman/matrix_mult",
                     "traces/narasiman/reduction", "traces/narasiman/bfs"]


def run(binary, options, workload, scratch, cwd=None):
    out = os.path.join(scratch, "bench.json")
    r = subprocess.run([os.path.abspath(binary), *options, "--json", out, workload], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, cwd=cwd)
    if r.returncode != 0:
        sys.exit(f"bench_compare: {binary} failed on {workload}:\n{r.stdout}")
    return {row["mode"]: row for row in json.load(open(out)) if row.get("workload") == workload}


def median_rows(runs):
    """Each mode's row of the run whose host time is that mode's median over the runs."""
    rows = {}
    for mode in runs[0]:
        by_time = sorted((r[mode] for r in runs if mode in r), key=lambda x: x["median_seconds"])
        rows[mode] = by_time[len(by_time) // 2]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the bench_sim of the earlier commit")
    ap.add_argument("--after", required=True, help="the bench_sim of the later commit")
    ap.add_argument("--before-root", help="run the earlier bench_sim from this checkout of its commit (its configs "
                                          "and workloads; default: here, as the later one)")
    ap.add_argument("--json", help="also write the merged rows as JSON")
    ap.add_argument("--size", default="test", help="bench_sim --size")
    ap.add_argument("--repeat", default="3", help="bench_sim --repeat")
    ap.add_argument("--config", action="append", help="bench_sim --config (repeatable; default: bench_sim's)")
    ap.add_argument("--timed-only", action="store_true", help="bench_sim --timed-only (each config's timed run)")
    ap.add_argument("workloads", nargs="*", default=DEFAULT_WORKLOADS)
    args = ap.parse_args()
    options = ["--size", args.size, "--repeat", "1"] + [x for c in args.config or [] for x in ("--config", c)]
    options += ["--timed-only"] if args.timed_only else []
    workloads = args.workloads
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for w in workloads:
            # One repeat of each in turns, so that a slow spell of the machine falls on both.
            befores, afters = [], []
            for _ in range(int(args.repeat)):
                befores.append(run(args.before, options, w, scratch, args.before_root))
                afters.append(run(args.after, options, w, scratch))
            before, after = median_rows(befores), median_rows(afters)
            for mode in list(after) + [m for m in before if m not in after]:
                rows.append({"workload": w, "mode": mode, "before": before.get(mode), "after": after.get(mode)})
    head = f"{'workload':<24}{'mode':<24}{'before M thr/s':>15}{'after M thr/s':>15}{'speedup':>9}" \
           f"{'after M cyc/s':>15}{'after K SM-cyc/s':>17}{'before /func':>13}{'after /func':>12}{'same results':>14}"
    print(head)
    for r in rows:
        b, a = r["before"], r["after"]
        fmt = lambda x, key, scale=1e6: f"{x[key] / scale:.2f}" if x and key in x else "-"
        speed = f"{b['median_seconds'] / a['median_seconds']:.2f}x" if a and b else "-"
        same = "-"
        if a and b:
            same = "yes" if (a["thread_instructions"], a["cycles"]) == (b["thread_instructions"], b["cycles"]) else "NO"
        rel = lambda x: f"{x['rate_relative_to_functional']:.3f}" if x else "-"
        print(f"{r['workload'].split('/', 1)[1]:<24}{r['mode']:<24}{fmt(b, 'thread_instructions_per_second'):>15}"
              f"{fmt(a, 'thread_instructions_per_second'):>15}{speed:>9}{fmt(a, 'cycles_per_second'):>15}{fmt(a, 'sm_cycles_per_second', 1e3):>17}{rel(b):>13}{rel(a):>12}{same:>14}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 1 if any(r["before"] and r["after"] and r["before"]["cycles"] != r["after"]["cycles"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
