#!/usr/bin/env python3
"""Time series of timing runs over simulated cycles (like AerialVision for GPGPU-Sim): IPC, active
lanes, fetch stall causes, L1D/L2 hit rates, DRAM bandwidth and row-buffer hit rate, from the
"samples" that `gputlm run --sample N --stats FILE` records.

  /usr/bin/python3 scripts/plot_samples.py STATS.json --out run.png            # one run
  /usr/bin/python3 scripts/plot_samples.py A.json B.json --label rr --label gto --out cmp.png
  /usr/bin/python3 scripts/plot_samples.py --sweep sweeps/NAME --out cmp.png    # every run of a sweep
                                                                                # (spec "sample": N)
One run: stall causes are stacked (share of core-cycles); several: each panel has a line per run and
the stall panel shows the memory-stall share. Needs Debian's python3-matplotlib
(scripts/study/setup_plotting.sh installs it).
"""
import argparse
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

CAUSES = ["idle", "pipeline", "memory", "barrier", "icache", "backpressure"]
PANELS = [("ipc", "IPC (thread instr./cycle)"), ("active_lanes", "active lanes per warp instr."),
          ("stalls", "fetch stall cycles (share)"), ("hit_rates", "hit rate (L1D solid, L2 dashed)"),
          ("dram_gbps", "DRAM bandwidth (GB/s)"), ("row_buffer_hit_rate", "DRAM row-buffer hit rate")]


def load(path):
    stats = json.loads(Path(path).read_text())
    if "samples" not in stats:
        sys.exit(f"{path}: no samples (run gputlm run with --sample N)")
    return stats


def sweep_runs(sweep_dir):
    """(label, stats) of every run of a sweep output directory (its manifest.json) that has samples."""
    manifest = Path(sweep_dir) / "manifest.json"
    if not manifest.exists():
        sys.exit(f"{sweep_dir}: no manifest.json (not a gputlm sweep output directory)")
    runs = []
    for run in json.loads(manifest.read_text())["runs"]:
        stats_path = Path(sweep_dir) / "runs" / run["id"] / "stats.json"
        if not stats_path.exists():
            continue
        stats = json.loads(stats_path.read_text())
        if "samples" not in stats:
            continue
        parts = [run["config"], run["workload"]] + [f"{k}={v}" for k, v in sorted(run.get("axes", {}).items())]
        runs.append((" ".join(parts), stats))
    if not runs:
        sys.exit(f"{sweep_dir}: no run with samples (give the spec \"sample\": N)")
    return runs


def value(row, key):
    """A row's value, NaN for a rate over no events (null): a gap in the line, not a drop to 0."""
    v = row.get(key)
    return float("nan") if v is None else v


def stall_share(row, cause):
    total = sum(row.get(f"stall_cycles.{c}", 0) for c in CAUSES)
    return row.get(f"stall_cycles.{cause}", 0) / total if total else 0.0


def plot(runs, out, title):
    fig, axes = plt.subplots(len(PANELS), 1, figsize=(10, 2.1 * len(PANELS)), sharex=True)
    single = len(runs) == 1
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (label, stats) in enumerate(runs):
        color = colors[i % len(colors)]
        rows = stats["samples"]["rows"]
        x = [r["cycle"] for r in rows]
        for ax, (key, ylabel) in zip(axes, PANELS):
            ax.set_ylabel(ylabel, fontsize=8)
            if key == "stalls" and single:
                ax.stackplot(x, *[[stall_share(r, c) for r in rows] for c in CAUSES], labels=CAUSES, step="pre")
                ax.legend(fontsize=7, ncol=len(CAUSES), loc="upper center")
            elif key == "stalls":
                ax.step(x, [stall_share(r, "memory") for r in rows], where="pre", label=label, color=color)
                ax.set_ylabel("memory stall share", fontsize=8)
            elif key == "hit_rates":
                for level, style in (("l1d", "-"), ("l2", "--")):
                    ax.step(x, [value(r, f"{level}_hit_rate") for r in rows], style, where="pre",
                            label=level.upper() if single else f"{label} {level.upper()}", color=None if single else color)
                ax.legend(fontsize=7)
            else:
                ax.step(x, [value(r, key) for r in rows], where="pre", label=label, color=color)
    if not single:
        axes[0].legend(fontsize=7)
    axes[-1].set_xlabel(f"core cycle (a row every {runs[0][1]['samples']['every']} cycles)")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("stats", nargs="*", help="--stats JSON files of runs made with --sample N")
    p.add_argument("--label", action="append", default=[], help="a label per stats file (default: config and workload)")
    p.add_argument("--sweep", help="a gputlm sweep output directory: every run with samples")
    p.add_argument("--out", required=True, help="the PNG to write")
    args = p.parse_args()
    if args.sweep:
        runs = sweep_runs(args.sweep)
    elif args.stats:
        if args.label and len(args.label) != len(args.stats):
            sys.exit("give one --label per stats file")
        loaded = [load(s) for s in args.stats]
        labels = args.label or [f"{s['config']['name']} {s['workload']}" for s in loaded]
        runs = list(zip(labels, loaded))
    else:
        sys.exit("give stats files or --sweep DIR")
    first = runs[0][1]
    title = f"{first['workload']} on {first['config']['name']}" if len(runs) == 1 else f"{len(runs)} runs"
    plot(runs, args.out, title)


if __name__ == "__main__":
    main()
