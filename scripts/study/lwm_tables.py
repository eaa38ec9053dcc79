"""lwm_study.md, the large-warp study's tables (lwm_study.py): the speedups of the main
configurations and of each sweep over the baseline, the headline numbers beside the papers', the
idle-FU shares, the benchmark classes, the controls, the paper's machine beside the dissertation's,
and the configurations.
"""
import json

from lwm_configs import (CONTROLS, DERIVED, FETCH_GROUPS, LWM_SIZES, MAIN, NAMES, PAPER_CLASS, PAPER_HEADLINE,
                         RUNS, SWEEPS, TR_COMPARED, TR_PREFIX, UTIL_CONFIGS)
from lwm_runs import mean_speedups, means, run_labels, speedup
from study_common import md_table, pct_change
from sweep_results import figure_link, markdown_provenance


def fmt(value, digits=3, missing="—"):
    return missing if value is None else f"{value:.{digits}f}"


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
    return md_table(header, rows, spaced=True)


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
    relative = f", {pct_change(rate / base)} relative" if base else ""
    return (f"2Lev8 {rate * 100:.1f}% vs baseline {base * 100:.1f}%: "
            f"{(rate - base) * 100:+.1f} points{relative}")


def intensity(value, low, high, reverse=False):
    """The papers' classes: idle FU share <20% low, 20-40% medium, >40% high; active threads
    per warp instruction >30 low, 20-30 medium, <20 high branch intensity (reverse)."""
    if reverse:
        return "low" if value > high else "medium" if value >= low else "high"
    return "low" if value < low else "medium" if value <= high else "high"



def headline_section(results, workloads, unmodelled):
    rows = []
    for text, label, over, diss, tr in PAPER_HEADLINE:
        if label in unmodelled or over in unmodelled:
            ours = "not yet modelled"
        else:
            geo, arith = mean_speedups(results, label, workloads, over)
            ours = f"{pct_change(geo)} (geometric mean), {pct_change(arith)} (arithmetic mean)"
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
                     numeric=False, spaced=True)
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
                     "ours (baseline idle FU share)"], rows, numeric=False, spaced=True)


def idle_section(results, workloads):
    rows = []
    for w in workloads:
        rows.append([w] + [fmt(results[(l, w)]["idle_fu_share"] * 100, 1)
                           if (l, w) in results else "—" for l in UTIL_CONFIGS])
    avg = [means([results[(l, w)]["idle_fu_share"] * 100 for w in workloads
                  if (l, w) in results])[1] for l in UTIL_CONFIGS]
    rows.append(["**arithmetic mean**"] + [fmt(a, 1) for a in avg])
    return md_table(["benchmark"] + [f"{NAMES[l]} (%)" for l in UTIL_CONFIGS], rows, spaced=True)


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
        parts += [f"### 6.{i} {title}", text, md_table(header, rows, spaced=True)]
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
        rows.append([NAMES[l], f"{pct_change(diss_geo)} / {pct_change(diss_arith)}", f"{pct_change(tr_geo)} / {pct_change(tr_arith)}",
                     *paper.get(l, ("—", "—"))])
    table = md_table(["configuration", "ours, dissertation's machine (geo / arith)",
                      "ours, paper's machine (geo / arith)", "dissertation", "TR / MICRO 2011"], rows, numeric=False,
                     spaced=True)

    def ranking(over, prefix):
        geo = {l: mean_speedups(results, prefix + l, workloads, over=over)[0] for l in ("lwm256", "2lev8")}
        if None in geo.values():
            return "—"
        first, second = sorted(geo, key=geo.get, reverse=True)
        return f"{NAMES[first]} ahead of {NAMES[second]} ({pct_change(geo[first])} vs {pct_change(geo[second])})"

    per = []
    for w in workloads:
        b, t = results.get(("baseline", w)), results.get((tr("baseline"), w))
        per.append([w] + [fmt(speedup(results, tr(l), w, over=tr("baseline"))) for l in TR_COMPARED[:3]]
                   + [fmt(b["idle_fu_share"] * 100 if b else None, 1), fmt(t["idle_fu_share"] * 100 if t else None, 1),
                      fmt(b["memory_stall_cycles"] * 1e-3 if b else None, 1), fmt(t["memory_stall_cycles"] * 1e-3 if t else None, 1)])
    per_table = md_table(["benchmark"] + [f"{NAMES[l]} (paper's machine)" for l in TR_COMPARED[:3]]
                         + ["baseline idle FU %, dissertation's", "paper's", "baseline mem. stall K cycles, dissertation's", "paper's"],
                         per, spaced=True)
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
                    for l, s in DERIVED.items() if l in labels], numeric=False, spaced=True),
        "## Where we match and where we differ",
        "See [lwm_study_notes.md](lwm_study_notes.md): written by hand from a run of this script, with the measurements"
        " behind each difference (re-check it after a re-run).",
    ]
    path.write_text("\n\n".join(p.strip() for p in parts if p.strip()) + "\n")
