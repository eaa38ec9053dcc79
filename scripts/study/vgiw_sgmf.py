"""VGIW against SGMF (Voitsechov & Etsion, MICRO 2015, Sec. 5, Fig. 8 and 11): the kernels whose
whole graph fits the MT-CGRF (configs/sgmf.json; mapper/sgmf_map.h) run on the SGMF core, and VGIW's
speedup and energy efficiency over it are taken per kernel. The study's sgmf run sets
vgiw.sgmf_unmapped = vgiw, so that workloads which also launch kernels SGMF cannot map still run
(those launches run as VGIW blocks, and say so in tiles_as_vgiw); a kernel counts as SGMF-mapped
only when none of its launches ran a tile as VGIW. Why each other kernel does not fit comes from
`gputlm list --kernels`.
"""
import statistics

from sweep_results import pyplot, save_figure
from study_common import geomean
from vgiw_attribution import breakdown

# The block overheads SGMF does not have: a VGIW core reconfigures between block runs, drains each
# block before the next, picks the next block, and waits for the scheduler's batches.
OVERHEADS = ("reconfiguring", "draining", "between_blocks", "waiting_batches")

RUN = "sgmf"
# Sec. 5: "While the average speedup is better than 1.45x, that of the individual kernels varies
# between 0.4x and 3.1x" (Fig. 8); "VGIW is 1.33x (or ~25%) more efficient than SGMF on average"
# (Fig. 11, no range stated).
PAPER = {"speedup_mean": 1.45, "speedup_low": 0.4, "speedup_high": 3.1, "efficiency_mean": 1.33}


def columns(vgiw, sgmf, fit):
    """One kernel's SGMF columns. vgiw, sgmf: its per-kernel figures on each core; fit: the SGMF
    mapping as `gputlm list --kernels` prints it ("fits, ..." or "does not fit (...)")."""
    mapped = sgmf["tiles_as_vgiw"] == 0
    out = {"sgmf_fit": fit, "sgmf_mapped": mapped, "sgmf_cycles": sgmf["cycles"] if mapped else None,
           "speedup_over_sgmf": sgmf["cycles"] / vgiw["cycles"] if mapped else None,
           "sgmf_energy_j": sgmf.get("energy_j") if mapped else None, "efficiency_over_sgmf": None,
           **{f"{m}_{k}": None for k in ("block_overhead_share", "channels_full_share", "no_tile_share") for m in ("vgiw", "sgmf")}}
    if mapped and sgmf.get("energy_j") and vgiw.get("energy_j"):
        out["efficiency_over_sgmf"] = sgmf["energy_j"] / vgiw["energy_j"]
    if mapped:  # the measured cause: VGIW's block overheads against SGMF's, and how full each fabric's channels ran
        v, g = breakdown(vgiw, vgiw["cores"]), breakdown(sgmf, sgmf["cores"])
        out["vgiw_block_overhead_share"] = sum(v[k] for k in OVERHEADS)
        out["sgmf_block_overhead_share"] = sum(g[k] for k in OVERHEADS)
        out["vgiw_channels_full_share"], out["sgmf_channels_full_share"] = v["channels_full"], g["channels_full"]
        out["vgiw_no_tile_share"], out["sgmf_no_tile_share"] = v["no_tile"], g["no_tile"]
    return out


def markdown(table2):
    fits = [r for r in table2 if r["sgmf_mapped"]]
    sp = [r["speedup_over_sgmf"] for r in fits]
    ef = [r["efficiency_over_sgmf"] for r in fits if r["efficiency_over_sgmf"]]
    lines = ["", "## VGIW against SGMF (Fig. 8 and 11)", "",
             f"{len(fits)} of the {len(table2)} Table 2 kernels fit the 108-unit grid as one SGMF graph (`configs/sgmf.json`); "
             "the paper compares on \"the subset of kernels that can be mapped to the SGMF cores\" and does not name them.", ""]
    if sp:
        lines += ["| figure | paper | ours |", "|---|---|---|",
                  f"| VGIW speedup over SGMF, mean (Fig. 8) | better than {PAPER['speedup_mean']}x | {statistics.mean(sp):.2f}x "
                  f"(geometric {geomean(sp):.2f}x) |",
                  f"| speedup range | {PAPER['speedup_low']}x - {PAPER['speedup_high']}x | {min(sp):.2f}x - {max(sp):.2f}x |"]
        if ef:
            lines.append(f"| VGIW energy efficiency over SGMF, mean (Fig. 11) | {PAPER['efficiency_mean']}x | "
                         f"{statistics.mean(ef):.2f}x (geometric {geomean(ef):.2f}x; {min(ef):.2f}x - {max(ef):.2f}x) |")
        lines += ["", "Block overheads: the shares of cycles x cores a core spent reconfiguring, draining a block, between "
                  "blocks or waiting for batches (SGMF's one configuration has none of these but its one load and final drain); "
                  "channels full: every virtual channel of a replica taken (threads waiting on memory).", "",
                  "| Table 2 kernel | SGMF cycles | VGIW cycles | VGIW speedup over SGMF | VGIW energy efficiency over SGMF | "
                  "block overheads VGIW / SGMF | channels full VGIW / SGMF | no tile VGIW / SGMF | SGMF mapping |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for r in fits:
            eff = f"{r['efficiency_over_sgmf']:.2f}" if r["efficiency_over_sgmf"] else "-"
            pair = lambda k: f"{r['vgiw_' + k] * 100:.1f}% / {r['sgmf_' + k] * 100:.1f}%"  # noqa: E731
            lines.append(f"| {r['table2']} | {r['sgmf_cycles']:,} | {r['vgiw_cycles']:,} | {r['speedup_over_sgmf']:.2f} | {eff} | "
                         f"{pair('block_overhead_share')} | {pair('channels_full_share')} | {pair('no_tile_share')} | {r['sgmf_fit']} |")
        ov = [r["vgiw_block_overhead_share"] - r["sgmf_block_overhead_share"] for r in fits]
        lines += ["", f"Mean block overheads VGIW / SGMF: {statistics.mean(r['vgiw_block_overhead_share'] for r in fits) * 100:.1f}% / "
                  f"{statistics.mean(r['sgmf_block_overhead_share'] for r in fits) * 100:.1f}% of cycles x cores (difference {statistics.mean(ov) * 100:.1f} points); "
                  f"channels full {statistics.mean(r['vgiw_channels_full_share'] for r in fits) * 100:.1f}% / "
                  f"{statistics.mean(r['sgmf_channels_full_share'] for r in fits) * 100:.1f}%."]
    rest = [r for r in table2 if not r["sgmf_mapped"]]
    if rest:
        lines += ["", "Kernels that do not fit (run as VGIW blocks in the sgmf run, left out above):", ""]
        lines += [f"- {r['table2']}: {r['sgmf_fit']}" for r in rest]
    return lines


def plot(path, table2, args):
    """Per SGMF-mapped kernel: VGIW's speedup and energy efficiency over SGMF, then the means beside
    the paper's (hatched), with Fig. 8's range."""
    rows = [r for r in table2 if r["sgmf_mapped"]]
    if not rows:
        return
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(9, 4.6))
    x = range(len(rows))
    m = len(rows) + 0.5
    series = [("speedup (cf. Fig. 8)", "speedup_over_sgmf", PAPER["speedup_mean"]),
              ("energy efficiency (cf. Fig. 11)", "efficiency_over_sgmf", PAPER["efficiency_mean"])]
    for (label, key, paper), dx in zip(series, (-0.2, 0.2)):
        values = [r[key] or 0.0 for r in rows]
        bars = ax.bar([i + dx for i in x], values, 0.4, label=f"ours: {label}")
        have = [v for v in values if v]
        if have:
            mean = statistics.mean(have)
            ax.bar(m + dx * 2 - 0.2, mean, 0.2, color=bars.patches[0].get_facecolor())
            ax.text(m + dx * 2 - 0.2, mean, f"{mean:.2f}", ha="center", va="bottom", fontsize=7)
        ax.bar(m + dx * 2, paper, 0.2, color="lightgrey", hatch="//", edgecolor=bars.patches[0].get_facecolor(), linewidth=0.8)
        ax.text(m + dx * 2, paper, f"{paper:g}", ha="center", va="bottom", fontsize=7)
    ax.errorbar([m - 0.4], [PAPER["speedup_mean"]], yerr=[[PAPER["speedup_mean"] - PAPER["speedup_low"]],
                [PAPER["speedup_high"] - PAPER["speedup_mean"]]], fmt="none", ecolor="black", capsize=4,
                label=f"paper's speedup range {PAPER['speedup_low']:g}x - {PAPER['speedup_high']:g}x (Fig. 8)")
    ax.bar([], [], color="lightgrey", hatch="//", edgecolor="black", label="paper's mean (hatched)")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.axvline(len(rows) - 0.25, color="grey", lw=0.8)
    ax.set_ylim(0, max(PAPER["speedup_high"], *(r["speedup_over_sgmf"] for r in rows)) * 1.15)
    ax.set_xticks(list(x) + [m])
    ax.set_xticklabels([r["table2"] for r in rows] + ["mean (ours | paper)"], rotation=45, ha="right", fontsize=8)
    ax.set_xlim(-0.6, m + 0.8)
    ax.set_ylabel("VGIW over SGMF (x)")
    ax.set_title("VGIW against SGMF on the Table 2 kernels whose whole graph fits the grid\n"
                 "the paper gives no per-kernel values; its means at the right", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    save_figure(fig, path, args, dpi=120)
