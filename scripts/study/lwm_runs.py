"""The large-warp study's runs (lwm_study.py): which configurations to run, their sweeps through
`gputlm sweep` (sweep_results.py), the study's numbers from each run's statistics, DWF's better
policy per benchmark, the speedups and their means, and lwm_study.csv.
"""
import re

from lwm_configs import (ALIASES, CONTROLS, CSV_FIELDS, DERIVED, MAIN, OPTIONAL, RUNS, SWEEPS, TR_ALIASES,
                         TR_DERIVED, WORKLOADS)
from study_common import geomean
from sweep_results import CONFIGS, csv_writer, study_sweep


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
    return geomean(vals), sum(vals) / len(vals)


def mean_speedups(results, label, workloads, over="baseline"):
    return means([speedup(results, label, w, over) for w in workloads])



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
