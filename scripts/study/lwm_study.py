"""Large-warp / two-level-scheduling study (Narasiman: dissertation ch. 5, TR-HPS-2010-006 sec. 6).

Runs the 12 narasiman benchmarks with build/bin/gputlm on the main configurations (baseline,
TBC and DWF where their presets exist, LWM256, 2Lev8, LWM256+2Lev1) and on the papers' sweeps:
large-warp size, fetch-group size, the LWM optimisations, a perfect register file, the re-fetch
policy and busy threads; without --configs, the main configurations also on the paper's machine
(TR Table 1, configs/narasiman-tr.json, beside the dissertation's Table 5.1). Writes into --out (default sweeps/lwm/results/; docs/results/ holds the
committed ones), each with the commit and the command that made it:
  lwm_study.csv   one row per (configuration, benchmark)
  lwm_study.md    speedup tables, the headline numbers beside the papers', sweep tables
  fig09_ipc.png ... fig14_fetch_group.png   like the TR's Figures 9-13, the dissertation's 5.1-5.6
                  (not with --no-figures)
The runs are the sweeps studies/lwm/runs.json (every configuration a preset or a preset with a
merge patch) and studies/lwm/tr_machine.json (the paper's machine), run by `gputlm sweep` into sweeps/lwm/<part>/ (sweeps/lwm-test/<part>/ at test size),
which reuses every result it has (sweep_results.py).
Its parts, split by concern: lwm_configs.py (the benchmarks, configurations, sweeps, controls and
the papers' numbers), lwm_runs.py (what to run, the runs' numbers, the speedups, lwm_study.csv),
lwm_tables.py (lwm_study.md) and lwm_figures.py (the figures); study_common.py holds the geometric
mean, percentages and markdown tables every study shares.

Run through scripts/study_lwm.sh (installs matplotlib, builds), or after a build:
  /usr/bin/python3 scripts/study/lwm_study.py [--size study|test] [--workloads W ...]
      [--configs LABEL ...] [--out DIR] [--no-figures] [--sweeps DIR] [--gputlm PATH] [--jobs N]
      [--collect] [--fresh]
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep_results import output_dir, parse_study_args, study_parser  # noqa: E402
from study_common import pct_change  # noqa: E402
from lwm_configs import DERIVED, MAIN, NAMES, OPTIONAL, RUNS, TR_DERIVED, WORKLOADS  # noqa: E402
from lwm_runs import (add_derived, mean_speedups, planned_labels, run_all, run_labels, run_tr_machine,  # noqa: E402
                      write_csv)
from lwm_tables import write_markdown  # noqa: E402
from lwm_figures import write_figures  # noqa: E402


def parse_args():
    p = study_parser(__doc__)
    p.add_argument("--workloads", nargs="+", default=WORKLOADS, choices=WORKLOADS, metavar="W",
                   help="only these benchmarks (default: all 12): " + ", ".join(WORKLOADS))
    p.add_argument("--configs", nargs="+", choices=list(RUNS) + list(DERIVED), metavar="LABEL",
                   help="only these configurations and the baseline (default: all); labels: "
                   + ", ".join(list(RUNS) + list(DERIVED)))
    return parse_study_args(p, "lwm")


def print_summary(results, labels, workloads, failures):
    print("\nspeedup over baseline (geometric / arithmetic mean over "
          f"{len(workloads)} benchmarks):")
    for label in labels:
        g, a = mean_speedups(results, label, workloads)
        print(f"  {NAMES[label]:30} {pct_change(g):>8} {pct_change(a):>8}")
    for (label, workload), error in sorted(failures.items()):
        print(f"\nFAILED {label} {workload}:\n{error}", file=sys.stderr)


def main():
    args = parse_args()
    start = time.monotonic()
    workloads = [w for w in WORKLOADS if w in args.workloads]
    labels = planned_labels(args.configs)
    unmodelled = [l for l in MAIN if l in OPTIONAL and l not in planned_labels()]
    results, failures = run_all(run_labels(labels), args)
    add_derived(results, labels, workloads)
    csv_labels = run_labels(labels)
    if args.configs is None:  # the whole study: its main configurations on the paper's machine too
        tr_results, tr_failures = run_tr_machine(args)
        results.update(tr_results)
        failures.update(tr_failures)
        csv_labels += list(dict.fromkeys(l for l, _ in tr_results if l not in TR_DERIVED))
    out = output_dir(args)
    write_csv(out / "lwm_study.csv", results, csv_labels, workloads, args)
    write_markdown(out / "lwm_study.md", results, labels, workloads, args, unmodelled,
                   failures)
    if not args.no_figures:
        write_figures(out, results, labels, workloads, args)
    print_summary(results, labels, workloads, failures)
    print(f"\nwrote {out}/lwm_study.csv, lwm_study.md{'' if args.no_figures else ' and fig*.png'}; "
          f"{len(failures)} failed runs; wall time {time.monotonic() - start:.1f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
