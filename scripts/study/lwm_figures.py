"""The large-warp study's figures (lwm_study.py, not with --no-figures): fig09_ipc.png and the
sweeps' fig11-fig14 (speedup over the baseline per benchmark beside the papers' stated means, like
the TR's Figures 9-13 and the dissertation's 5.1-5.6) and fig10_fu_utilisation.png (cycles by SIMD
lanes active).
"""
import math

from lwm_configs import (MAIN, NAMES, PAPER_CLASS, PAPER_FIGURES, PAPER_HEADLINE, PAPER_HEADLINE_CITE, SWEEPS,
                         UTIL_BUCKETS, UTIL_CONFIGS)
from lwm_runs import mean_speedups, means, speedup
from study_common import pct_change
from sweep_results import pyplot, save_figure


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
            f"{PAPER_HEADLINE_CITE[0]}: LWM256+2Lev1 is {over_tbc} over TBC (ours: {pct_change(ours_tbc)}, geometric "
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

