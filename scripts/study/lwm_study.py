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

Run through scripts/study_lwm.sh (installs matplotlib, builds), or after a build:
  /usr/bin/python3 scripts/study/lwm_study.py [--size study|test] [--workloads W ...]
      [--configs LABEL ...] [--out DIR] [--no-figures] [--sweeps DIR] [--gputlm PATH] [--jobs N]
      [--collect] [--fresh]
"""
import json
import math
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep_results import (CONFIGS, csv_writer, figure_link, markdown_provenance, output_dir, parse_study_args,  # noqa: E402
                           pyplot, save_figure, spec_configs, study_parser, study_sweep)

# The papers' order (dissertation Table 5.2, TR Table 2): the leftmost four are branch-intensive.
WORKLOADS = ["blackjack", "sort", "viterbi", "kmeans", "decrypt", "blackscholes", "needleman",
             "hotspot", "matrix_mult", "reduction", "histogram", "bfs"]
# TR Table 2: (divergent branch intensity, idle FU intensity).
PAPER_CLASS = {
    "blackjack": ("high", "low"), "sort": ("high", "low"), "viterbi": ("medium", "low"),
    "kmeans": ("medium", "low"), "decrypt": ("low", "low"), "blackscholes": ("low", "medium"),
    "needleman": ("low", "medium"), "hotspot": ("low", "high"), "matrix_mult": ("low", "medium"),
    "reduction": ("low", "high"), "histogram": ("low", "high"), "bfs": ("high", "high"),
}

# label -> (preset in configs/, JSON merge patch over it or None): the configs of the study's
# sweep (studies/lwm/runs.json); a preset's label is its name except the baseline's.
ALIASES = {"narasiman-baseline": "baseline"}
RUNS = spec_configs("lwm", "runs", ALIASES)
NAMES = {
    "baseline": "Baseline", "tbc256": "TBC", "dwf": "DWF majority", "dwf-pdom": "DWF PDOM",
    "dwf-best": "DWF", "lwm256": "LWM256", "2lev8": "2Lev8",
    "lwm256-2lev1": "LWM256+2Lev1", "lwm32": "LWM32", "lwm64": "LWM64", "lwm128": "LWM128",
    "lwm512": "LWM512", "2lev1": "2Lev1", "2lev2": "2Lev2", "2lev4": "2Lev4", "2lev16": "2Lev16",
    "2lev32": "2Lev32", "lwm256-nomemrows": "LWM256 mem-div opt off",
    "lwm256-nojump": "LWM256 uncond-branch opt off", "lwm256-noopt": "LWM256 both opts off",
    "lwm256-perfrf": "LWM256 perfRF", "lwm256-refetchall": "LWM256 re-fetch after all",
    "lwm256-busywait": "LWM256 busy threads wait",
    "baseline-frfcfs": "Baseline FR-FCFS", "2lev8-frfcfs": "2Lev8 FR-FCFS",
    "srr": "Baseline sticky RR", "tbc256-rr": "TBC round-robin",
    "baseline-perfect-l1": "Baseline perfect L1", "lwm256-perfect-l1": "LWM256 perfect L1",
    "baseline-l1mshr128": "Baseline 128 L1 MSHRs", "2lev8-l1mshr128": "2Lev8 128 L1 MSHRs",
    "lwm256-l1mshr128": "LWM256 128 L1 MSHRs", "baseline-frfcfs-l1mshr128": "Baseline FR-FCFS 128 L1 MSHRs",
    "2lev8-frfcfs-l1mshr128": "2Lev8 FR-FCFS 128 L1 MSHRs",
}
NAMES.update({"tr-" + label: name + " (paper's machine)" for label, name in list(NAMES.items())})
MAIN = ["baseline", "tbc256", "dwf-best", "lwm256", "2lev8", "lwm256-2lev1"]
OPTIONAL = {"tbc256", "dwf", "dwf-pdom", "dwf-best"}  # included only when their preset exists
# Labels not run but taken per benchmark from the run with the higher IPC: "For DWF, we
# implemented both the majority and post dominator priority scheduling policies and chose the
# best performing of the two for each benchmark" (TR Sec. 6).
DERIVED = {"dwf-best": ("dwf", "dwf-pdom")}
# The main configurations again on the paper's machine (studies/lwm/tr_machine.json: TR-HPS-2010-006
# / MICRO 2011 Table 1, configs/narasiman-tr.json: 32KB D-cache, 128 GB/s) as "tr-<label>".
TR_PREFIX = "tr-"
TR_ALIASES = {"narasiman-tr": "tr-baseline"}
TR_DERIVED = {"tr-dwf-best": ("tr-dwf", "tr-dwf-pdom")}
TR_COMPARED = ["lwm256", "2lev8", "lwm256-2lev1", "tbc256", "dwf-best"]
# (title, figure file or None, the papers' figures, labels); every sweep is relative to baseline.
LWM_SIZES = ["lwm32", "lwm64", "lwm128", "lwm256", "lwm512"]
FETCH_GROUPS = ["2lev1", "2lev2", "2lev4", "2lev8", "2lev16", "2lev32"]
SWEEPS = [
    ("Large-warp size (round-robin among large warps)", "fig11_lwm_size.png",
     "dissertation Fig. 5.3, TR Fig. 11", LWM_SIZES),
    ("LWM with the one-thread-per-column restriction vs a perfect register file",
     "fig12_lwm_perfrf.png", "dissertation Fig. 5.4", ["lwm256", "lwm256-perfrf"]),
    ("LWM optimisations (memory divergence, unconditional branch)", "fig13_lwm_opts.png",
     "dissertation Fig. 5.5, TR Fig. 12",
     ["lwm256", "lwm256-nomemrows", "lwm256-nojump", "lwm256-noopt"]),
    ("Fetch-group size, two-level scheduling on the baseline core", "fig14_fetch_group.png",
     "dissertation Fig. 5.6, TR Fig. 13", FETCH_GROUPS),
    ("LWM re-fetch policy and busy threads", None, "no figure in the papers",
     ["lwm256", "lwm256-refetchall", "lwm256-busywait"]),
    ("DWF issue priority: majority vs post-dominator priority", None,
     "TR Sec. 6 keeps the better of the two per benchmark", ["dwf", "dwf-pdom", "dwf-best"]),
]
# Section 6: (title, what it tests, [(column, label, over)]): row-buffer hit rate and memory stall
# cycles of each label per benchmark, and its speedup over `over` (none where label is `over`).
CONTROLS = [
    ("DRAM scheduler under two-level scheduling",
     "2Lev8's row-buffer locality and speedup with the papers' FCFS DRAM scheduler and with "
     "FR-FCFS (the dissertation's Ch. 8 scheduler), each against round-robin on the same DRAM.",
     [("RR", "baseline", "baseline"), ("2Lev8", "2lev8", "baseline"),
      ("RR FR-FCFS", "baseline-frfcfs", "baseline-frfcfs"),
      ("2Lev8 FR-FCFS", "2lev8-frfcfs", "baseline-frfcfs")]),
    ("TBC: block synchronisation vs sticky round-robin",
     "Which half of TBC moves the DRAM and memory-stall figures: sticky round-robin on static "
     "warps, TBC with plain round-robin, and TBC with sticky round-robin (the preset).",
     [("RR", "baseline", "baseline"), ("sticky RR", "srr", "baseline"),
      ("TBC RR", "tbc256-rr", "baseline"), ("TBC sticky RR", "tbc256", "baseline")]),
    ("LWM on the memory-bound benchmarks: every L1 access a hit",
     "Whether LWM256's loss on matrix_mult, reduction and histogram comes from waiting for memory: "
     "both cores with a perfect D-cache (every access a 1-cycle hit, nothing sent below). A large "
     "warp forms its next instruction only from threads whose last one completed, and fetches the "
     "one after only once that one is formed (MICRO 2011 Sec. 3.1, dissertation Sec. 4.2.1-4.2.2), "
     "so its 256 threads move at the pace of their slowest line; 8 warps of 32 do not.",
     [("RR", "baseline", "baseline"), ("LWM256", "lwm256", "baseline"),
      ("RR perfect L1", "baseline-perfect-l1", "baseline-perfect-l1"),
      ("LWM256 perfect L1", "lwm256-perfect-l1", "baseline-perfect-l1")]),
    ("L1 MSHRs: 64 (our reading) or 128",
     "The papers do not give the D-cache's MSHRs; narasiman-baseline chose 64 (one 128 B line each, "
     "8 KB in flight). With the 128-bit loads of reduction, 32 warps ask for 128 lines at once, and "
     "64 MSHRs bound the bandwidth by latency: a scheduler that bunches requests (2Lev8's fetch "
     "groups) then waits longer per line. With 128 MSHRs the same runs are bound by the DRAM bus. "
     "The last two columns add FR-FCFS (section 6.1): both readings the papers leave open at once.",
     [("RR", "baseline", "baseline"), ("2Lev8", "2lev8", "baseline"),
      ("RR 128", "baseline-l1mshr128", "baseline-l1mshr128"),
      ("2Lev8 128", "2lev8-l1mshr128", "baseline-l1mshr128"),
      ("LWM256 128", "lwm256-l1mshr128", "baseline-l1mshr128"),
      ("RR FR-FCFS 128", "baseline-frfcfs-l1mshr128", "baseline-frfcfs-l1mshr128"),
      ("2Lev8 FR-FCFS 128", "2lev8-frfcfs-l1mshr128", "baseline-frfcfs-l1mshr128")]),
]
UTIL_CONFIGS = ["baseline", "tbc256", "dwf-best", "lwm256", "2lev8", "lwm256-2lev1"]
UTIL_BUCKETS = [("0", 0, 0), ("1-7", 1, 7), ("8-15", 8, 15), ("16-23", 16, 23),
                ("24-31", 24, 31), ("32", 32, 32)]
# Papers' headline improvements over the baseline (%); the TR compares with DWF, not TBC.
PAPER_HEADLINE = [("LWM256 over baseline", "lwm256", "baseline", "+7.9%", "+7.6%"),
                  ("2Lev8 over baseline", "2lev8", "baseline", "+9.9%", "+10.1%"),
                  ("LWM256+2Lev over baseline", "lwm256-2lev1", "baseline", "+19.1%", "+17.0%"),
                  ("LWM256+2Lev over TBC", "lwm256-2lev1", "tbc256", "+11.5%", "(not evaluated)"),
                  ("DWF over baseline", "dwf-best", "baseline", "(not evaluated)",
                   "degrades (no number)")]
# Where PAPER_HEADLINE's numbers come from (the figures' captions cite them).
PAPER_HEADLINE_CITE = ("dissertation Sec. 5.2.1", "TR Sec. 6.1")
# Every other paper number the figures show. The extracted papers keep no bar values, so the only
# numbers are the ones their text states; per-benchmark values exist only where listed here.
PAPER_FIGURES = {
    # Fig. 5.6 / TR Fig. 13: one fetch group of all 32 warps "is by definition equivalent to the
    # baseline round-robin policy and therefore performs identically to it" (diss. Sec. 5.2.3,
    # TR Sec. 3.2.1).
    "2lev32": 1.0,
    # Fig. 5.4 (diss. Sec. 5.2.2.2): "For sort, the flexibility of allowing arbitrary sub-warping
    # improves performance by 15.2%"; LWM "comes within at least 90% of the performance of the
    # perfect register file for each benchmark (... except for sort)".
    "perfrf_over_lwm_sort": 1.152,
    "lwm_share_of_perfrf_min": 0.90,
    # Fig. 5.5 / TR Fig. 12 (diss. Sec. 5.2.2.3, TR Sec. 6.2): the unconditional-branch optimisation
    # "does slightly improve performance (by about 1%)"; the memory-divergence one "does not
    # provide much benefit" (no number).
    "jump_opt_gain": 1.01,
    # TR Sec. 1 (Fig. 1) and diss. Sec. 4.1 (Fig. 4.1), baseline: "bfs ... spends approximately 95%
    # of its execution time stalling" (cycles with no FU active).
    "bfs_idle_share": 0.95,
    # TR Sec. 5, Table 2's idle-FU intensity (PAPER_CLASS) on the baseline: the share of cycles
    # with every FU idle is below 20% (low), 20-40% (medium) or above 40% (high).
    "idle_class_range": {"low": (0.0, 0.2), "medium": (0.2, 0.4), "high": (0.4, 1.0)},
}
CSV_FIELDS = ["label", "workload", "size", "cycles", "thread_instructions", "warp_instructions",
              "ipc", "idle_fu_share", "dram_row_hit_rate", "dram_requests", "subwarps",
              "subwarp_bubble_cycles", "fetch_group_switches", "memory_stall_cycles", "mean_resident_threads"]


def parse_args():
    p = study_parser(__doc__)
    p.add_argument("--workloads", nargs="+", default=WORKLOADS, choices=WORKLOADS, metavar="W",
                   help="only these benchmarks (default: all 12): " + ", ".join(WORKLOADS))
    p.add_argument("--configs", nargs="+", choices=list(RUNS) + list(DERIVED), metavar="LABEL",
                   help="only these configurations and the baseline (default: all); labels: "
                   + ", ".join(list(RUNS) + list(DERIVED)))
    return parse_study_args(p, "lwm")


def planned_labels(only=None):
    """Main configurations (TBC/DWF when their presets exist), then the sweeps, no duplicates;
    with only, just those and the baseline (every speedup needs it)."""
    def exists(label):
        return all((CONFIGS / RUNS[l][0]).exists() for l in DERIVED.get(label, (label,)))
    labels = [l for l in MAIN if l not in OPTIONAL or exists(l)]
    for _, _, _, sweep in SWEEPS:
        labels += [l for l in sweep if l not in labels and exists(l)]
    for _, _, columns in CONTROLS:
        labels += [l for _, l, _ in columns if l not in labels and exists(l)]
    labels = [l for l in labels if only is None or l in only or l == "baseline"]
    for derived, sources in DERIVED.items():  # run what a derived label is taken from
        if derived in labels:
            labels += [l for l in sources if l not in labels]
    return labels


def run_labels(labels):
    return [l for l in labels if l not in DERIVED]


def add_derived(results, labels, workloads, derived_labels=DERIVED):
    """Each derived label's result per benchmark: the source run with the higher IPC."""
    for derived, sources in derived_labels.items():
        if derived not in labels:
            continue
        for w in workloads:
            runs = [(results[(l, w)], l) for l in sources if (l, w) in results]
            if len(runs) == len(sources):
                best, label = max(runs, key=lambda r: r[0]["ipc"])
                results[(derived, w)] = dict(best, source=label)


def run_all(labels, args):
    """The sweep's results: ({(label, workload): metrics}, {(label, workload): failure})."""
    names = {label: name for name, label in ALIASES.items()}
    sweep = study_sweep("lwm", "runs", args, configs=None if args.configs is None else [names.get(l, l) for l in labels],
                        workloads=None if args.workloads == WORKLOADS else args.workloads)
    label = lambda c: ALIASES.get(c, c)  # noqa: E731
    results = {(label(c), w): metrics(stats) for (c, w, _), stats in sweep.stats.items()}
    return results, {(label(c), w): e for (c, w, _), e in sweep.failures.items()}


def run_tr_machine(args):
    """The main configurations on the paper's machine: ({("tr-<label>", workload): metrics},
    failures), with the derived tr-dwf-best."""
    sweep = study_sweep("lwm", "tr_machine", args, workloads=None if args.workloads == WORKLOADS else args.workloads)
    label = lambda c: TR_ALIASES.get(c, c)  # noqa: E731
    results = {(label(c), w): metrics(stats) for (c, w, _), stats in sweep.stats.items()}
    add_derived(results, list(TR_DERIVED), WORKLOADS, TR_DERIVED)
    return results, {(label(c), w): e for (c, w, _), e in sweep.failures.items()}


def metrics(stats):
    """The study's numbers from one run's --stats JSON (summed over cores and DRAM channels)."""
    mods = stats["modules"]
    cores = [v for k, v in mods.items() if re.fullmatch(r"gpu\.core\d+", k)]
    drams = [v for k, v in mods.items() if re.fullmatch(r"gpu\.dram\d+", k)]
    cycles = mods["gpu"]["cycles"]
    # simd_lanes_started counts warp instructions started with k lanes; a cycle starts at most one.
    util = [sum(c["simd_lanes_started"][k] for c in cores) for k in range(33)]
    util[0] += cycles * len(cores) - sum(util)
    row_hits = sum(d["row_hits"] for d in drams)
    requests = sum(d["row_hits"] + d["row_conflicts"] + d["row_empties"] for d in drams)
    thread_instructions = sum(c["thread_instructions"] for c in cores)
    return {
        "size": stats.get("size", ""),
        "config_hash": stats.get("config", {}).get("hash", ""),
        "cycles": cycles,
        "thread_instructions": thread_instructions,
        "warp_instructions": sum(c["warp_instructions"] for c in cores),
        "ipc": thread_instructions / cycles,
        "util": util,
        "idle_fu_share": util[0] / sum(util),
        "dram_row_hit_rate": row_hits / requests if requests else None,
        "dram_row_hits": row_hits,
        "dram_requests": requests,
        "subwarps": sum(c.get("subwarps", 0) for c in cores),
        "subwarp_bubble_cycles": sum(c.get("subwarp_bubble_cycles", 0) for c in cores),
        "fetch_group_switches": int(sum(c.get("fetch_group_switches", 0) for c in cores)),
        "memory_stall_cycles": stats["total"]["fetch_stall_cycles"]["memory"],
        # Threads resident per core, averaged over the run (1024 fill a narasiman-baseline core).
        "mean_resident_threads": sum(c["resident_thread_cycles"] for c in cores) / (cycles * len(cores)),
    }


def speedup(results, label, workload, over="baseline"):
    a, b = results.get((label, workload)), results.get((over, workload))
    return a["ipc"] / b["ipc"] if a and b else None


def means(values):
    """(geometric mean, arithmetic mean) of the values present, or (None, None)."""
    vals = [v for v in values if v is not None]
    if not vals:
        return None, None
    return math.exp(sum(math.log(v) for v in vals) / len(vals)), sum(vals) / len(vals)


def mean_speedups(results, label, workloads, over="baseline"):
    return means([speedup(results, label, w, over) for w in workloads])


def fmt(value, digits=3, missing="—"):
    return missing if value is None else f"{value:.{digits}f}"


def pct(ratio):
    return "—" if ratio is None else f"{(ratio - 1) * 100:+.1f}%"


def md_table(header, rows, numeric=True):
    """A markdown table; numeric: columns after the first right-aligned."""
    lines = ["| " + " | ".join(header) + " |",
             "| --- |" + (" ---: |" if numeric else " --- |") * (len(header) - 1)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def speedup_table(results, workloads, labels, unmodelled=(), extra=None):
    """IPC over baseline per benchmark and the two means; extra = (name, fn(workload)) column."""
    header = ["benchmark"] + [NAMES[l] for l in labels] + ([extra[0]] if extra else [])
    rows = []
    for w in workloads:
        row = [w] + ["not yet modelled" if l in unmodelled else fmt(speedup(results, l, w))
                     for l in labels]
        rows.append(row + ([fmt(extra[1](w))] if extra else []))
    for i, name in enumerate(["geometric mean", "arithmetic mean"]):
        row = [f"**{name}**"] + ["—" if l in unmodelled else
                                 fmt(mean_speedups(results, l, workloads)[i]) for l in labels]
        rows.append(row + ([fmt(means([extra[1](w) for w in workloads])[i])] if extra else []))
    return md_table(header, rows)


def best_label(results, labels, workloads, which=0):
    """The name of the label with the highest mean speedup (which: 0 geometric, 1 arithmetic)
    among those run on every benchmark, or "—"."""
    complete = [l for l in labels if all((l, w) in results for w in workloads)]
    if not complete:
        return "—"
    best = max(complete, key=lambda l: mean_speedups(results, l, workloads)[which])
    return NAMES[best] + ("" if len(complete) == len(labels) else " (incomplete sweep)")


def row_hit_summary(results, label, workloads):
    """(mean of per-benchmark hit rates, hit rate pooled over all requests)."""
    runs = [results[(label, w)] for w in workloads if (label, w) in results]
    rates = [r["dram_row_hit_rate"] for r in runs if r["dram_row_hit_rate"] is not None]
    requests = sum(r["dram_requests"] for r in runs)
    pooled = sum(r["dram_row_hits"] for r in runs) / requests if requests else None
    return (sum(rates) / len(rates) if rates else None), pooled


def hit_rate_change(rate, base):
    if rate is None or base is None:
        return "—"
    relative = f", {pct(rate / base)} relative" if base else ""
    return (f"2Lev8 {rate * 100:.1f}% vs baseline {base * 100:.1f}%: "
            f"{(rate - base) * 100:+.1f} points{relative}")


def intensity(value, low, high, reverse=False):
    """The papers' classes: idle FU share <20% low, 20-40% medium, >40% high; active threads
    per warp instruction >30 low, 20-30 medium, <20 high branch intensity (reverse)."""
    if reverse:
        return "low" if value > high else "medium" if value >= low else "high"
    return "low" if value < low else "medium" if value <= high else "high"


def write_csv(path, results, labels, workloads, args):
    with open(path, "w", newline="") as f:
        writer = csv_writer(f, args, CSV_FIELDS, extrasaction="ignore")
        for label in labels:
            for w in workloads:
                if (label, w) in results:
                    r = dict(results[(label, w)], label=label, workload=w)
                    r["ipc"] = f"{r['ipc']:.4f}"
                    r["idle_fu_share"] = f"{r['idle_fu_share']:.4f}"
                    r["mean_resident_threads"] = f"{r['mean_resident_threads']:.1f}"
                    rate = r["dram_row_hit_rate"]
                    r["dram_row_hit_rate"] = "" if rate is None else f"{rate:.4f}"
                    writer.writerow(r)


def headline_section(results, workloads, unmodelled):
    rows = []
    for text, label, over, diss, tr in PAPER_HEADLINE:
        if label in unmodelled or over in unmodelled:
            ours = "not yet modelled"
        else:
            geo, arith = mean_speedups(results, label, workloads, over)
            ours = f"{pct(geo)} (geometric mean), {pct(arith)} (arithmetic mean)"
        rows.append([text, diss, tr, ours])
    for text, sweep, paper in (("best large-warp size", LWM_SIZES, "LWM256"),
                               ("best fetch-group size", FETCH_GROUPS, "2Lev8")):
        geo, arith = (best_label(results, sweep, workloads, i) for i in (0, 1))
        rows.append([text, paper, paper, f"{geo} (geometric mean), {arith} (arithmetic mean)"])
    for text, which in (("mean of the per-benchmark hit rates", 0),
                        ("pooled over all DRAM requests", 1)):
        base, lev = (row_hit_summary(results, l, workloads)[which] for l in ("baseline", "2lev8"))
        rows.append([f"DRAM row-buffer hit rate, 2Lev8 vs round-robin ({text})",
                     "within 1.7% on average", "(not given)", hit_rate_change(lev, base)])
    table = md_table(["quantity", "dissertation", "TR-HPS-2010-006 / MICRO 2011", "ours"], rows,
                     numeric=False)
    return table + (
        "\n\nThe dissertation combines LWM256 with 2Lev1 (our lwm256-2lev1), the TR with 2Lev2; "
        "the TR compares with DWF, the dissertation with TBC (block of 256, sticky round-robin). "
        "Neither paper says which mean it uses, nor whether 'within 1.7%' is in points or "
        "relative.")


def classification_section(results, workloads):
    rows = []
    for w in workloads:
        base = results.get(("baseline", w))
        if not base:
            continue
        active = base["thread_instructions"] / base["warp_instructions"]
        idle = base["idle_fu_share"]
        branch_paper, idle_paper = PAPER_CLASS[w]
        rows.append([w, branch_paper, f"{intensity(active, 20, 30, reverse=True)} ({active:.1f})",
                     idle_paper, f"{intensity(idle * 100, 20, 40)} ({idle * 100:.1f}%)"])
    return md_table(["benchmark", "branch intensity (paper)",
                     "ours (active threads per warp instruction)", "idle FU intensity (paper)",
                     "ours (baseline idle FU share)"], rows, numeric=False)


def idle_section(results, workloads):
    rows = []
    for w in workloads:
        rows.append([w] + [fmt(results[(l, w)]["idle_fu_share"] * 100, 1)
                           if (l, w) in results else "—" for l in UTIL_CONFIGS])
    avg = [means([results[(l, w)]["idle_fu_share"] * 100 for w in workloads
                  if (l, w) in results])[1] for l in UTIL_CONFIGS]
    rows.append(["**arithmetic mean**"] + [fmt(a, 1) for a in avg])
    return md_table(["benchmark"] + [f"{NAMES[l]} (%)" for l in UTIL_CONFIGS], rows)


def controls_section(results, workloads):
    """Per control: row-buffer hit rate, memory stall cycles and speedup, a row per benchmark."""
    parts = []
    for i, (title, text, columns) in enumerate(CONTROLS, 1):
        compared = [(c, l, over) for c, l, over in columns if l != over]
        header = (["benchmark"] + [f"{c}: {q}" for q in ("row hits (%)", "mem. stall (K cycles)")
                                   for c, _, _ in columns]
                  + [f"{c}: speedup" for c, _, _ in compared])
        rows = []
        for w in workloads:
            def cell(label, key, scale):
                r = results.get((label, w))
                return fmt(r[key] * scale if r and r[key] is not None else None, 1)
            rows.append([w] + [cell(l, "dram_row_hit_rate", 100) for _, l, _ in columns]
                        + [cell(l, "memory_stall_cycles", 1e-3) for _, l, _ in columns]
                        + [fmt(speedup(results, l, w, over)) for _, l, over in compared])
        rates = [row_hit_summary(results, l, workloads)[0] for _, l, _ in columns]
        stalls = [[results[(l, w)]["memory_stall_cycles"] * 1e-3 for w in workloads if (l, w) in results]
                  for _, l, _ in columns]
        stalls = [sum(v) / len(v) if v else None for v in stalls]
        geo = [means([speedup(results, l, w, over) for w in workloads])[0] for _, l, over in compared]
        rows.append(["**mean** (arithmetic; speedup geometric)"]
                    + [fmt(r * 100 if r is not None else None, 1) for r in rates]
                    + [fmt(s, 1) for s in stalls] + [fmt(g) for g in geo])
        parts += [f"### 6.{i} {title}", text, md_table(header, rows)]
    return "\n\n".join(parts)


def tr_machine_section(results, workloads):
    """The main configurations' mean speedups on both machines beside the papers', which ranks
    first on each, and per benchmark the speedups and the baseline's idle share on the TR machine."""
    tr = lambda l: TR_PREFIX + l  # noqa: E731
    paper = {label: (diss, trp) for _, label, over, diss, trp in PAPER_HEADLINE if over == "baseline"}
    rows = []
    for l in TR_COMPARED:
        diss_geo, diss_arith = mean_speedups(results, l, workloads)
        tr_geo, tr_arith = mean_speedups(results, tr(l), workloads, over=tr("baseline"))
        rows.append([NAMES[l], f"{pct(diss_geo)} / {pct(diss_arith)}", f"{pct(tr_geo)} / {pct(tr_arith)}",
                     *paper.get(l, ("—", "—"))])
    table = md_table(["configuration", "ours, dissertation's machine (geo / arith)",
                      "ours, paper's machine (geo / arith)", "dissertation", "TR / MICRO 2011"], rows, numeric=False)

    def ranking(over, prefix):
        geo = {l: mean_speedups(results, prefix + l, workloads, over=over)[0] for l in ("lwm256", "2lev8")}
        if None in geo.values():
            return "—"
        first, second = sorted(geo, key=geo.get, reverse=True)
        return f"{NAMES[first]} ahead of {NAMES[second]} ({pct(geo[first])} vs {pct(geo[second])})"

    per = []
    for w in workloads:
        b, t = results.get(("baseline", w)), results.get((tr("baseline"), w))
        per.append([w] + [fmt(speedup(results, tr(l), w, over=tr("baseline"))) for l in TR_COMPARED[:3]]
                   + [fmt(b["idle_fu_share"] * 100 if b else None, 1), fmt(t["idle_fu_share"] * 100 if t else None, 1),
                      fmt(b["memory_stall_cycles"] * 1e-3 if b else None, 1), fmt(t["memory_stall_cycles"] * 1e-3 if t else None, 1)])
    per_table = md_table(["benchmark"] + [f"{NAMES[l]} (paper's machine)" for l in TR_COMPARED[:3]]
                         + ["baseline idle FU %, dissertation's", "paper's", "baseline mem. stall K cycles, dissertation's", "paper's"], per)
    return "\n\n".join([
        "The dissertation's Table 5.1 (configs/narasiman-baseline.json: 128KB D-cache, 32 GB/s, "
        "at the chosen 1 GHz clock 32 B a cycle) and the paper's Table 1 (configs/narasiman-tr.json: "
        "32KB D-cache, 128 GB/s) disagree; every other figure is the same. The main configurations "
        "on both (studies/lwm/tr_machine.json), speedup over the round-robin baseline of the same machine:",
        table,
        f"Ranking of the two mechanisms alone (geometric mean): on the dissertation's machine "
        f"{ranking('baseline', '')}; on the paper's machine {ranking(tr('baseline'), TR_PREFIX)}. "
        "Both papers rank 2Lev8 ahead of LWM256.",
        per_table,
    ])


def unmodelled_note(unmodelled):
    if not unmodelled:
        return ""
    names = " and ".join(NAMES[u] for u in unmodelled)
    verb = "are" if len(unmodelled) > 1 else "is"
    return f"{names} {verb} not yet modelled (no preset in configs/): no numbers for them."


def write_markdown(path, results, labels, workloads, args, unmodelled, failures):
    main = [l for l in MAIN if l in labels or l in unmodelled]
    parts = [
        "# Large warps and two-level warp scheduling: study results",
        markdown_provenance(args),
        f"Size `{args.size}`. Benchmarks in the papers' order (the leftmost four are "
        f"branch-intensive): {', '.join(workloads)}. IPC is thread instructions per cycle; "
        "speedup is IPC over the baseline's IPC on the same benchmark. Means are over the "
        f"{len(workloads)} benchmarks: the geometric mean and the arithmetic mean of the "
        "per-benchmark speedups (the papers do not state their mean type). Raw numbers: "
        "`lwm_study.csv`.",
    ]
    if failures:
        parts.append("**Failed runs (missing from every table):** "
                     + ", ".join(f"{l}/{w}" for l, w in sorted(failures)))
    parts += [
        "## 1. IPC normalised to the baseline, main configurations (Fig. 9)",
        "Baseline: 32 warps of 32 threads, round-robin. " + unmodelled_note(unmodelled)
        + "\n\n" + figure_link(args, "Fig. 9", "fig09_ipc.png"),
        speedup_table(results, workloads, main, unmodelled, extra=(
            "baseline IPC", lambda w: results.get(("baseline", w), {}).get("ipc"))),
        "## 2. Headline numbers beside the papers'",
        headline_section(results, workloads, unmodelled),
    ]
    for i, (title, fig, paper_fig, sweep) in enumerate(SWEEPS, 1):
        parts.append(f"## 3.{i} {title} ({paper_fig})")
        if fig and not args.no_figures:
            parts.append(figure_link(args, title, fig))
        extra = None
        if "lwm256-perfrf" in sweep:
            extra = ("LWM256 / LWM256 perfRF",
                     lambda w: speedup(results, "lwm256", w, over="lwm256-perfrf"))
        parts.append(speedup_table(results, workloads, sweep, extra=extra))
    parts += [
        "## 4. Share of cycles with no SIMD lane active (idle FU), % of core cycles (Fig. 10)",
        figure_link(args, "Fig. 10", "fig10_fu_utilisation.png"),
        idle_section(results, workloads),
        "## 5. Benchmark classes (TR Table 2 thresholds) on the baseline",
        classification_section(results, workloads),
        "## 6. Controls behind the differences to the papers",
        "Each configuration changes one thing against a main one; speedups are over the column's "
        "own round-robin run. Per-request evidence: `gputlm run --dram-trace` and "
        "`scripts/dram_trace_summary.py` (see lwm_study_notes.md).",
        controls_section(results, workloads),
    ]
    if (TR_PREFIX + "baseline", workloads[0]) in results:
        parts += ["## 7. The paper's machine (TR Table 1) beside the dissertation's (Table 5.1)",
                  tr_machine_section(results, workloads)]
    parts += [
        "## Configurations",
        md_table(["label", "preset", "patch", "config hash"],
                 [[l, RUNS[l][0], f"`{json.dumps(RUNS[l][1])}`" if RUNS[l][1] else "",
                   next((results[(l, w)]["config_hash"] for w in workloads if (l, w) in results),
                        "—")] for l in run_labels(labels)]
                 + [[l, "per benchmark the better of " + " and ".join(s), "", ""]
                    for l, s in DERIVED.items() if l in labels], numeric=False),
        "## Where we match and where we differ",
        "See [lwm_study_notes.md](lwm_study_notes.md): written by hand from a run of this script, with the measurements"
        " behind each difference (re-check it after a re-run).",
    ]
    path.write_text("\n\n".join(p.strip() for p in parts if p.strip()) + "\n")


def paper_means():
    """{label: (dissertation, TR)}: the mean speedups over the baseline the papers state, a float,
    or the paper's words where it gives no number (PAPER_HEADLINE, PAPER_FIGURES)."""
    def value(text):
        return 1 + float(text.rstrip("%")) / 100 if text[:1] in "+-" else text.removeprefix("(").removesuffix(")")
    out = {label: (value(d), value(t)) for _, label, over, d, t in PAPER_HEADLINE if over == "baseline"}
    out["2lev32"] = (PAPER_FIGURES["2lev32"], PAPER_FIGURES["2lev32"])
    return out


def bar_offset(j, n):
    """x offset of the j-th of n bars in a group 0.8 wide."""
    return (j - (n - 1) / 2) * 0.8 / n


def grouped_bars(path, title, results, workloads, labels, paper_fig, args, notes=(), panel=None):
    """Speedup over baseline per benchmark, one bar per label, the geometric mean, then the papers'
    stated means (hatched; PAPER_HEADLINE, PAPER_FIGURES) at the right. notes: caption lines.
    panel: a second plot of ratios between labels per benchmark, {"ylabel", "ratios": [(label,
    over, name)], "lines": [(y, text)], "points": [(workload, ratio index, y, text)]}."""
    plt = pyplot()
    paper = paper_means()
    sources = [(i, name) for i, name in enumerate(("dissertation", "TR"))
               if any(isinstance(paper.get(l, (None, None))[i], float) for l in labels)]
    groups = workloads + ["geomean"] + [f"paper:\n{name}" for _, name in sources]
    width = 0.8 / len(labels)
    rows = 2 if panel else 1
    fig, axes = plt.subplots(rows, 1, figsize=(max(8.0, 1.1 * len(groups) + 1), 5 + 3.2 * (rows - 1)),
                             squeeze=False, gridspec_kw={"height_ratios": [5, 3][:rows]})
    ax = axes[0, 0]
    cmap = plt.get_cmap("tab10")
    highest = 1.0
    for j, label in enumerate(labels):
        values = [speedup(results, label, w) for w in workloads]
        values.append(means(values)[0])
        xs = [i + bar_offset(j, len(labels)) for i in range(len(workloads) + 1)]
        ax.bar(xs, [math.nan if v is None else v for v in values], width, label=NAMES[label],
               color=cmap(j % 10), edgecolor="black", linewidth=0.4)
        if values[-1] is not None:
            ax.text(xs[-1], values[-1], f" {values[-1]:.3f}", ha="center", va="bottom",
                    rotation=90, fontsize=7)
        highest = max([highest] + [v for v in values if v is not None])
        for k, (i, _) in enumerate(sources):
            x = len(workloads) + 1 + k + bar_offset(j, len(labels))
            v = paper.get(label, (None, None))[i]
            if isinstance(v, float):
                ax.bar(x, v, width, color=cmap(j % 10), alpha=0.5, hatch="///", edgecolor="black",
                       linewidth=0.4)
                ax.text(x, v, f" {v:.3f}", ha="center", va="bottom", rotation=90, fontsize=7,
                        fontweight="bold")
                highest = max(highest, v)
            elif label != "baseline":
                ax.text(x, 0.02, v or "no number", ha="center", va="bottom", rotation=90, fontsize=7,
                        color="dimgrey")
    ax.set_ylim(0, highest * 1.15)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.axvline(len(workloads) - 0.5, color="grey", linewidth=0.8)
    if sources:
        ax.axvline(len(workloads) + 0.5, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right", fontsize=10)
    ax.set_ylabel("IPC normalised to baseline")
    ax.set_title(f"{title}\n(cf. {paper_fig})", fontsize=11)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.grid(axis="y", linewidth=0.3)
    handles, names = ax.get_legend_handles_labels()
    if sources:
        handles.append(plt.Rectangle((0, 0), 1, 1, facecolor="white", hatch="///", edgecolor="black",
                                     linewidth=0.4))
        names.append("paper's stated mean")
    ax.legend(handles, names, loc="lower center", bbox_to_anchor=(0.5, 1.13),
              ncol=min(len(handles), 7), fontsize=9, frameon=False)
    caption = []
    if sources:
        caption.append(f"Hatched: the mean speedup over the baseline each paper states ({PAPER_HEADLINE_CITE[0]}, "
                       f"{PAPER_HEADLINE_CITE[1]}" + ("; 2Lev32 = baseline: diss. Sec. 5.2.3, TR Sec. 3.2.1"
                                                       if "2lev32" in labels else "")
                       + "); the papers do not say which mean. Ours: geometric mean.")
    caption.append("The papers give no per-benchmark values (their bar charts' values are not stated)"
                   + ("." if not panel or not panel.get("points") else ", except those marked below."))
    caption += list(notes)
    if panel:
        _ratio_panel(axes[1, 0], results, workloads, panel, plt)
    fig.tight_layout()
    fig.text(0.01, 0.0, "\n".join(caption), ha="left", va="top", fontsize=8, wrap=True)
    save_figure(fig, path, args, dpi=130)


def _ratio_panel(ax, results, workloads, panel, plt):
    """panel["ratios"] per benchmark and their geometric means, the papers' numbers over them."""
    groups = workloads + ["geomean"]
    n = len(panel["ratios"])
    colors = plt.get_cmap("Set2")
    highest = 1.0
    for j, (label, over, name) in enumerate(panel["ratios"]):
        values = [speedup(results, label, w, over) for w in workloads]
        values.append(means(values)[0])
        xs = [i + bar_offset(j, n) for i in range(len(groups))]
        ax.bar(xs, [math.nan if v is None else v for v in values], 0.8 / n, label=f"ours: {name}",
               color=colors(j), edgecolor="black", linewidth=0.4)
        if values[-1] is not None:
            ax.text(xs[-1], values[-1], f" {values[-1]:.3f}", ha="center", va="bottom", rotation=90, fontsize=7)
        highest = max([highest] + [v for v in values if v is not None])
    for k, (y, text) in enumerate(panel.get("lines", [])):
        ax.axhline(y, color=["crimson", "darkblue"][k % 2], linewidth=1.2, linestyle=":", label=text)
        highest = max(highest, y)
    for workload, j, y, text in panel.get("points", []):
        x = workloads.index(workload) + bar_offset(j, n)
        ax.plot([x], [y], marker="D", color="crimson", markeredgecolor="black", markersize=7,
                linestyle="none", label=text)
        highest = max(highest, y)
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--")
    ax.axvline(len(workloads) - 0.5, color="grey", linewidth=0.8)
    ax.set_ylim(0, highest * 1.18)
    ax.set_xlim(-0.6, len(groups) - 0.4)
    ax.set_xticks(range(len(groups)), groups, rotation=30, ha="right", fontsize=10)
    ax.set_ylabel(panel["ylabel"])
    ax.grid(axis="y", linewidth=0.3)
    ax.legend(loc="lower left", fontsize=8, framealpha=0.9)


def utilisation_figure(path, results, workloads, args):
    """Stacked shares of cycles by SIMD lanes active, one bar per configuration, per benchmark."""
    plt = pyplot()
    labels = UTIL_CONFIGS
    short = {"baseline": "Base", "tbc256": "TBC", "dwf-best": "DWF", "lwm256": "LWM", "2lev8": "2Lev",
             "lwm256-2lev1": "L+2L"}
    groups = workloads + ["mean"]
    step = len(labels) + 1
    fig, ax = plt.subplots(figsize=(max(9, 1.25 * len(groups)), 5))
    colors = ["#202020"] + [plt.get_cmap("RdYlGn")(0.05 + 0.9 * i / 4) for i in range(5)]
    positions, ticks = [], []
    shares = {}  # (label, group) -> share per bucket
    for label in labels:
        per_workload = []
        for w in workloads:
            r = results.get((label, w))
            if r:
                total = sum(r["util"])
                s = [sum(r["util"][lo:hi + 1]) / total for _, lo, hi in UTIL_BUCKETS]
                shares[(label, w)] = s
                per_workload.append(s)
        if per_workload:
            shares[(label, "mean")] = [sum(c) / len(per_workload) for c in zip(*per_workload)]
    for g, group in enumerate(groups):
        for j, label in enumerate(labels):
            x = g * step + j
            positions.append(x)
            ticks.append(short[label])
            s = shares.get((label, group))
            if s is None:
                continue
            bottom = 0.0
            for b, share in enumerate(s):
                ax.bar(x, share, 0.85, bottom=bottom, color=colors[b], edgecolor="white",
                       linewidth=0.3, label=f"{UTIL_BUCKETS[b][0]} lanes" if x == 0 else None)
                bottom += share
        ax.text(g * step + (len(labels) - 1) / 2, -0.11, group, ha="center", va="top",
                fontsize=10, transform=ax.get_xaxis_transform(), rotation=20)
    # The papers' baseline figures beside each Base bar: Table 2's idle-FU class as the range the
    # 0-lanes share falls in, and bfs's stated idle share (PAPER_FIGURES).
    paper_marks = {}  # legend text -> handle
    for g, group in enumerate(workloads):
        lo, hi = PAPER_FIGURES["idle_class_range"][PAPER_CLASS[group][1]]
        paper_marks["TR Table 2 (Sec. 5): Base's\n0-lanes share is < 20%,\n20-40% or > 40%"] = ax.errorbar(
            [g * step - 0.6], [(lo + hi) / 2], yerr=[[(hi - lo) / 2]] * 2, fmt="none", ecolor="#1f5fbf",
            elinewidth=2.2, capsize=3)
    if "bfs" in workloads:
        paper_marks["TR Sec. 1 (Fig. 1), diss.\nSec. 4.1: bfs Base idle\n~95% of cycles"] = ax.plot(
            [workloads.index("bfs") * step], [PAPER_FIGURES["bfs_idle_share"]], marker="D", color="crimson",
            markeredgecolor="white", markersize=8, linestyle="none")[0]
    ax.set_xticks(positions, ticks, fontsize=7, rotation=90)
    ax.axvline(len(workloads) * step - 1, color="grey", linewidth=0.8)
    ax.set_ylim(0, 1)
    ax.set_xlim(-0.8, positions[-1] + 0.8)
    ax.set_ylabel("share of core cycles")
    ax.set_title("Functional-unit utilisation: cycles by number of SIMD lanes active\n"
                 "Base = Baseline, TBC = TBC256, DWF = DWF (better policy), LWM = LWM256, "
                 "2Lev = 2Lev8, L+2L = LWM256+2Lev1\n"
                 "mean = arithmetic mean of the shares (cf. dissertation Fig. 5.2, TR Fig. 10)",
                 fontsize=11)
    handles, names = ax.get_legend_handles_labels()
    lanes = ax.legend(handles[::-1], names[::-1], loc="upper left", bbox_to_anchor=(1.0, 1.0),
                      fontsize=9, title="active lanes", frameon=False)
    ax.add_artist(lanes)
    ax.legend(list(paper_marks.values()), list(paper_marks), loc="lower left", bbox_to_anchor=(1.0, 0.0), fontsize=8, title="paper (baseline)", frameon=False)
    fig.text(0.01, -0.08, "Blue bars left of each Base bar: the paper's idle-FU class (TR Table 2) as the range "
             "its baseline 0-lanes share falls in. The papers give no other per-benchmark values "
             "(their bar charts' values are not stated).", ha="left", va="top", fontsize=8)
    save_figure(fig, path, args, dpi=130)


def figure_extras(results, workloads):
    """Per figure file: grouped_bars' notes and panel, the papers' other numbers (PAPER_FIGURES)."""
    over_tbc = next(d for _, label, over, d, _ in PAPER_HEADLINE if over == "tbc256")
    ours_tbc = mean_speedups(results, "lwm256-2lev1", workloads, "tbc256")[0]
    fig = PAPER_FIGURES
    return {
        "fig09_ipc.png": {"notes": [
            f"{PAPER_HEADLINE_CITE[0]}: LWM256+2Lev1 is {over_tbc} over TBC (ours: {pct(ours_tbc)}, geometric "
            "mean); no number for TBC over the baseline. TR Sec. 6.1: DWF \"degrades performance\" (no number).",
            "The TR's LWM+2Lev has fetch groups of 2 large warps (LWM256+2Lev2); ours and the dissertation's: 1."]},
        "fig11_lwm_size.png": {"notes": [
            "No number for LWM32-LWM128 or LWM512: 256 is best on average, 512 slightly worse "
            "(TR Sec. 6.2, diss. Sec. 5.2.2.1)."]},
        "fig12_lwm_perfrf.png": {"panel": {
            "ylabel": "LWM256 perfRF / LWM256 IPC",
            "ratios": [("lwm256-perfrf", "lwm256", "perfRF over LWM256")],
            "lines": [(1 / fig["lwm_share_of_perfrf_min"],
                       f"diss. Sec. 5.2.2.2: at most {1 / fig['lwm_share_of_perfrf_min']:.3f} "
                       f"(LWM within {fig['lwm_share_of_perfrf_min']:.0%} of perfRF) for every benchmark but sort")],
            "points": [("sort", 0, fig["perfrf_over_lwm_sort"],
                        f"diss. Sec. 5.2.2.2: sort {fig['perfrf_over_lwm_sort']:.3f} (+15.2%)")]}},
        "fig13_lwm_opts.png": {
            "notes": ["TR Sec. 6.2, diss. Sec. 5.2.2.3: the memory-divergence optimisation \"does not provide "
                      "much benefit\" (no number)."],
            "panel": {"ylabel": "LWM256 IPC / IPC with the opt off",
                      "ratios": [("lwm256", "lwm256-nojump", "unconditional-branch opt gain"),
                                 ("lwm256", "lwm256-nomemrows", "memory-divergence opt gain")],
                      "lines": [(fig["jump_opt_gain"], "TR Sec. 6.2, diss. Sec. 5.2.2.3: unconditional-branch "
                                 "opt gains \"about 1%\" (mean)")]}},
        "fig14_fetch_group.png": {"notes": [
            "No number for 2Lev1-2Lev4 or 2Lev16: 8 is best, 16 helps less, too small or too large gives "
            "no benefit (TR Sec. 6.3, diss. Sec. 5.2.3; the dissertation evaluates only 8, 16 and 32)."]},
    }


def write_figures(out, results, labels, workloads, args):
    main = [l for l in MAIN if l in labels]
    extras = figure_extras(results, workloads)
    grouped_bars(out / "fig09_ipc.png", "IPC of the main configurations", results, workloads, main,
                 "dissertation Fig. 5.1, TR Fig. 9", args, **extras["fig09_ipc.png"])
    utilisation_figure(out / "fig10_fu_utilisation.png", results, workloads, args)
    for title, fig, paper_fig, sweep in SWEEPS:
        if fig:
            grouped_bars(out / fig, title, results, workloads, sweep, paper_fig, args, **extras.get(fig, {}))


def print_summary(results, labels, workloads, failures):
    print("\nspeedup over baseline (geometric / arithmetic mean over "
          f"{len(workloads)} benchmarks):")
    for label in labels:
        g, a = mean_speedups(results, label, workloads)
        print(f"  {NAMES[label]:30} {pct(g):>8} {pct(a):>8}")
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
