#!/usr/bin/python3
"""Compares tb_dram with the Ramulator 2 golden table, stream by stream.

    compare.py --tb-dram BUILD/bin/tb_dram [--table tests/data/dram_golden/ramulator2.csv]
               [--configs tests/data/dram_golden/gputlm] [--work DIR] [--jobs N] [--markdown FILE]
               [--scheduler NAME] [--expect FILE]

Makes the streams of streams.py (the hbm layout for the hbm2-* and hbm3-* variants), runs tb_dram
on each with tests/data/dram_golden/gputlm/<variant>.json, and prints per stream ours, Ramulator 2's, and their ratio for activates, row hits,
empties (Ramulator's "misses") and conflicts, drain time, bandwidth and mean read latency. Fails
(exit 1) where a figure is outside its tolerance:
  activates and row outcomes  within 2% of Ramulator's count (or 2, for counts below 100)
  drain time and bandwidth    within 5%
  mean read latency           within 10%
The HBM variants (hbm2-*, hbm3-*) are compared and marked but not gated: Ramulator's HBM
controllers issue a row and a column command a tick where gputlm issues one (docs/results/
dram_golden.md says what that does); the committed table (--expect) still fixes their figures.
--markdown writes the table with the commit and the command that made it (docs/results/
dram_golden*.md); --expect FILE also fails when the table differs from FILE's (the suite's check
that a committed table is the code's as it is: regenerate it with the command in its header).
Drain: the first request's arrival to the last request's end (tb_dram's active_cycles; Ramulator:
cycle 0 to the last completion, a write completing at its WR command). Read latency: arrival at
the controller to the end of the data (Ramulator: to RD + nCL + nBL, from the cycle it was sent).
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import streams  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# (label, ours from tb_dram's dram statistics, Ramulator's column, tolerance, kind)
METRICS = [
    ("activates", lambda d: d["activates"], "act", 0.02, "count"),
    ("row hits", lambda d: d["row_hits"], "row_hits", 0.02, "count"),
    ("row empties", lambda d: d["row_empties"], "row_misses", 0.02, "count"),
    ("row conflicts", lambda d: d["row_conflicts"], "row_conflicts", 0.02, "count"),
    ("drain cycles", lambda d: d["active_cycles"], "drain_cycles", 0.05, "ratio"),
    ("bytes/cycle", lambda d: d["bytes"] / d["active_cycles"], "bytes_per_cycle", 0.05, "ratio"),
    ("read latency", lambda d: d["average_read_latency"], "avg_read_latency", 0.10, "ratio"),
]


def within(ours, theirs, tol, kind):
    if kind == "count":
        return abs(ours - theirs) <= max(tol * theirs, 2)
    return abs(ours - theirs) <= tol * theirs


def header(args):
    """Where the table comes from: the commit and the command (paths relative to the repository)."""
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip()
    command = "scripts/dram_golden/compare.py --tb-dram build/bin/tb_dram"
    if args.scheduler:
        command += f" --scheduler {args.scheduler}"
    command += " --markdown " + os.path.relpath(os.path.abspath(args.markdown), ROOT)
    policy = args.scheduler or "the configs' fr-fcfs-ready"
    return (f"# tb_dram against Ramulator 2 ({policy})\n\n"
            f"Made at commit {commit}{' (with uncommitted changes)' if dirty else ''} by `{command}`.\n"
            "Ramulator 2's side: tests/data/dram_golden/ramulator2.csv (its header names the Ramulator commit and\n"
            "configuration). Ratio = gputlm / Ramulator 2; **out** marks a figure outside its tolerance.\n\n")


def run_one(tb_dram, config, trace):
    out = subprocess.run([tb_dram, "--config", config, "--trace", trace], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"tb_dram {config} {trace}: exit {out.returncode}\n{out.stderr}")
    return json.loads(out.stdout)["stats"]["dram"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tb-dram", required=True)
    ap.add_argument("--table", default=os.path.join(ROOT, "tests/data/dram_golden/ramulator2.csv"))
    ap.add_argument("--configs", default=os.path.join(ROOT, "tests/data/dram_golden/gputlm"))
    ap.add_argument("--work", help="directory for the streams (default: a temporary one)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--markdown", help="also write the side-by-side table here")
    ap.add_argument("--expect", help="fail unless the table equals this committed one")
    ap.add_argument("--scheduler", help="run tb_dram with this policy instead of the configs' (fr-fcfs-ready, as Ramulator's)")
    args = ap.parse_args()

    with open(args.table) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or tmp
        for layout in sorted({streams.layout_of(r["variant"]) for r in rows}):
            streams.write_all(os.path.join(work, layout), "ours", layout)
        configs = args.configs
        if args.scheduler:  # the configs with another policy, beside the streams
            configs = os.path.join(work, "configs")
            os.makedirs(configs, exist_ok=True)
            for variant in {r["variant"] for r in rows}:
                with open(os.path.join(args.configs, variant + ".json")) as f:
                    c = json.load(f)
                c["dram"]["scheduler"] = args.scheduler
                with open(os.path.join(configs, variant + ".json"), "w") as f:
                    json.dump(c, f)
        jobs = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for r in rows:
                key = (r["variant"], r["pattern"], r["rate"])
                config = os.path.join(configs, r["variant"] + ".json")
                trace = os.path.join(work, streams.layout_of(r["variant"]), f"{r['pattern']}-{r['rate']}.stl")
                jobs[key] = pool.submit(run_one, args.tb_dram, config, trace)
        ours = {k: j.result() for k, j in jobs.items()}

    lines = ["| variant | stream | figure | gputlm | Ramulator 2 | ratio | tolerance |", "|---|---|---|---:|---:|---:|---|"]
    failures = []
    for r in rows:
        key = (r["variant"], r["pattern"], r["rate"])
        d = ours[key]
        for label, get, column, tol, kind in METRICS:
            o, t = float(get(d)), float(r[column])
            ok = within(o, t, tol, kind)
            ratio = f"{o / t:.3f}" if t else "-"
            mark = "" if ok else " **out**"
            lines.append(f"| {key[0]} | {key[1]}-{key[2]} | {label} | {o:.6g} | {t:.6g} | {ratio}{mark} | {tol:.0%} |")
            if not ok and not streams.layout_of(key[0]) == "hbm":
                failures.append(f"{key[0]} {key[1]}-{key[2]} {label}: gputlm {o:.6g}, Ramulator 2 {t:.6g} (tolerance {tol:.0%})")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.markdown:
        made = header(args)  # before the file is opened: truncating it would count as a change
        with open(args.markdown, "w") as f:
            f.write(made + text)
    if args.expect:
        with open(args.expect) as f:
            committed = "".join(line for line in f if line.startswith("|"))
        if committed != text:
            failures.append(f"the table differs from {args.expect}: regenerate it with the command in its header")
    if failures:
        print(f"{len(failures)} figures outside tolerance:", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print(f"all {len(rows) * len(METRICS)} figures within tolerance (HBM variants: not gated)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
