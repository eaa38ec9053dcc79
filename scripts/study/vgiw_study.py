"""VGIW study (Voitsechov & Etsion, sections 2, 3.2, 5; Table 2): every kernel of the
rodinia-like suite on configs/fermi-gtx480.json and configs/vgiw.json (and vgiw with 128 virtual
channels, to measure how much the token-buffer depth the paper leaves open decides).
Per kernel (launches of one kernel summed):
  speedup          Fermi cycles / VGIW cycles (paper Fig. 7: 0.9x to 11x, average 3x)
  LVC / RF         live value cache accesses on VGIW / register-file accesses on Fermi, an access
                   per warp as the paper counts them (Fig. 3: about 10x fewer), and per thread
  reconfiguration  share of the VGIW cores' active cycles spent reconfiguring (paper: 0.18%
                   average, median below 0.1%)
  blocks           our basic blocks and VGIW segments against Table 2's counts
  bound            the best speedup Table 1's fabric allows against Fermi's issue width, both at peak
                   (vgiw_bound.py), beside the measured one
and the attribution runs of vgiw_attribution.py (each lifts one limit; the cycle breakdown), and
energy efficiency over Fermi per kernel and at system, die and core level (vgiw_energy.py: Fig. 9 and
10), and VGIW against SGMF on the kernels whose whole graph fits the grid (vgiw_sgmf.py: Fig. 8 and 11).
Writes into --out (default sweeps/vgiw/results/; docs/results/ holds the committed ones), each with
the commit and the command that made it: vgiw_study.csv, vgiw_study.md and (not with --no-figures)
fig_vgiw_speedup.png, fig_vgiw_lvc.png, fig_vgiw_cycles.png, fig_vgiw_energy.png, fig_vgiw_sgmf.png.
The runs are the sweep studies/vgiw/runs.json, run by `gputlm sweep` into sweeps/vgiw/runs/
(sweeps/vgiw-test/runs/ with --size test), which reuses every result it has (sweep_results.py).

  /usr/bin/python3 scripts/study/vgiw_study.py [--size study|test] [--out DIR] [--no-figures]
      [--sweeps DIR] [--gputlm PATH] [--jobs N] [--collect] [--fresh]
"""
import re
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep_results import (REPO, csv_writer, markdown_provenance, output_dir, parse_study_args,  # noqa: E402
                           print_failures, pyplot, save_figure, study_parser, study_sweep)
from study_common import geomean  # noqa: E402
import vgiw_attribution as attribution  # noqa: E402
import vgiw_bound as bound  # noqa: E402
import vgiw_energy as energy  # noqa: E402
import vgiw_sgmf as sgmf  # noqa: E402

SUITE = "traces/rodinia-like"
# (workload, kernel): (Table 2's name, its basic blocks)
TABLE2 = {
    ("bfs", "bfs_kernel"): ("BFS Kernel", 8), ("bfs", "bfs_kernel2"): ("BFS Kernel2", 3),
    ("kmeans", "invert_mapping"): ("KMEANS invert_mapping", 3),
    ("cfd", "compute_step_factor"): ("CFD compute_step_factor", 2), ("cfd", "initialize_variables"): ("CFD initialize_variables", 1),
    ("cfd", "time_step"): ("CFD time_step", 1), ("cfd", "compute_flux"): ("CFD compute_flux", 12),
    ("lud", "lud_internal"): ("LUD lud_internal", 3), ("lud", "lud_diagonal"): ("LUD lud_diagonal", 11),
    ("lud", "lud_perimeter"): ("LUD lud_perimeter", 22),
    ("gaussian", "Fan1"): ("GE Fan1", 2), ("gaussian", "Fan2"): ("GE Fan2", 5),
    ("hotspot", "hotspot_kernel"): ("HOTSPOT hotspot_kernel", 27),
    ("lavamd", "lavamd_kernel"): ("LAVAMD kernel_gpu_cuda", 21),
    ("nn", "euclid"): ("NN euclid", 2),
    ("pf", "normalize_weights_kernel"): ("PF normalize_weights_kernel", 5),
    ("backprop", "adjust_weights"): ("BPNN adjust_weights", 3), ("backprop", "layerforward"): ("BPNN layerforward", 20),
    ("nw", "needle_cuda_shared_1"): ("NW needle_cuda_shared_1", 13), ("nw", "needle_cuda_shared_2"): ("NW needle_cuda_shared_2", 13),
    ("streamcluster", "compute_cost"): ("SM compute_cost", 6),
}
# The study's name of a preset the spec names by its file (the others have their own "name").
ALIASES = {"fermi-gtx480": "fermi"}
# The paper's numbers: Sec. 5 (Fig. 7) "Results range between 0.9x (slow-down) and 11x speedup, with
# an average of over 3x"; Sec. 2 (Fig. 3) the LVC "is accessed on average almost 10x less frequently
# than a GPGPU register file"; Sec. 3.2 "the total configuration overhead averaged at 0.18% of the
# runtime with a median lower than 0.1%". Per-kernel values are in the figures only.
PAPER = {"speedup_mean": 3.0, "speedup_range": "0.9x - 11x", "lvc_over_rf": 0.1, "reconfig_mean": 0.0018, "reconfig_median": "< 0.1%",
         "speedup_low": 0.9, "speedup_high": 11.0}


def parse_args():
    return parse_study_args(study_parser(__doc__), "vgiw")


def block_counts(gputlm):
    """(workload, kernel) -> (CFG basic blocks, VGIW segments, SGMF mapping text), from `gputlm list --kernels`."""
    out = subprocess.run([str(gputlm), "list", "--kernels"], cwd=REPO, capture_output=True, text=True, check=True).stdout
    names = sorted((p.name for p in (REPO / SUITE).iterdir()), key=len, reverse=True)
    counts, workload = {}, None
    lines = []  # a kernel's wrapped line joined back into one
    for line in out.splitlines():
        if re.match(r"\s+kernel \S+:", line) or not lines or not line.startswith(" " * 8):
            lines.append(line)
        else:
            lines[-1] += " " + line.strip()
    for line in lines:
        head = line.strip()
        for name in names:  # the longest name the line starts with (a long one runs into the next column)
            if head.startswith(f"rodinia-like/{name}"):
                workload = name
                break
        k = re.match(r"\s+kernel (\S+): \d+ instructions, (\d+) basic blocks; VGIW: (\d+) segments", line)
        if k and workload:
            fit = re.search(r"; SGMF: (fits, .*|does not fit \(.*\))$", line)
            counts[(workload, k.group(1))] = (int(k.group(2)), int(k.group(3)), fit.group(1) if fit else "?")
    return counts


def per_kernel(stats):
    """kernel -> summed launch figures of a run's statistics."""
    out = defaultdict(lambda: defaultdict(int))
    for launch in stats["launches"]:
        k = out[launch["kernel"]]
        for key in ("cycles", "thread_instructions", "warp_instructions", "register_file_accesses", "register_file_thread_accesses",
                    "live_value_accesses", "reconfiguration_cycles", "core_active_cycles", "block_runs", "block_run_threads"):
            k[key] += launch.get(key, 0)
        k.setdefault("fabric_cycles", defaultdict(int))
        for phase, n in launch.get("fabric_cycles", {}).items():
            k["fabric_cycles"][phase] += n
        bound.add_launch(k, launch)
        energy.add_launch(k, launch)
        k["tiles_as_vgiw"] += sum(m.get("tiles_as_vgiw", 0) for m in launch.get("modules", {}).values())
        k["launches"] += 1
        k["cores"] = stats["config"]["cores"]
    return out


def main():
    args = parse_args()
    sweep = study_sweep("vgiw", "runs", args)
    if print_failures([sweep]):
        return 1
    out_dir = output_dir(args)
    workloads = sorted(p.name for p in (REPO / SUITE).iterdir() if (p / "launch.json").exists())
    blocks = block_counts(args.gputlm)
    runs = {(ALIASES.get(c, c), w): per_kernel(stats) for (c, w, _), stats in sweep.stats.items()}
    rows = []
    for w in workloads:
        for kernel, fermi in runs[("fermi", w)].items():
            vgiw, vc = runs[("vgiw", w)][kernel], runs[("vgiw-vc128", w)][kernel]
            fermi64 = runs[("fermi-gtx480-l1-64k", w)][kernel]  # the reading with our earlier 64KB L1
            name, paper_blocks = TABLE2.get((w, kernel), (f"({w} {kernel}: helper, not in Table 2)", None))
            ours_blocks, segments, sgmf_fit = blocks.get((w, kernel), (None, None, "?"))
            rows.append({
                "workload": w, "kernel": kernel, "table2": name, "in_table2": (w, kernel) in TABLE2, "launches": fermi["launches"],
                "fermi_cycles": fermi["cycles"], "vgiw_cycles": vgiw["cycles"], "vgiw_vc128_cycles": vc["cycles"],
                "speedup": fermi["cycles"] / vgiw["cycles"], "speedup_vc128": fermi["cycles"] / vc["cycles"],
                "fermi_l1_64k_cycles": fermi64["cycles"], "speedup_over_l1_64k": fermi64["cycles"] / vgiw["cycles"],
                "thread_instructions_fermi": fermi["thread_instructions"], "thread_instructions_vgiw": vgiw["thread_instructions"],
                "rf_accesses_warp": fermi["register_file_accesses"], "rf_accesses_thread": fermi["register_file_thread_accesses"],
                "lvc_accesses": vgiw["live_value_accesses"],
                "lvc_over_rf_warp": vgiw["live_value_accesses"] / max(fermi["register_file_accesses"], 1),
                "lvc_over_rf_thread": vgiw["live_value_accesses"] / max(fermi["register_file_thread_accesses"], 1),
                "reconfiguration_cycles": vgiw["reconfiguration_cycles"], "vgiw_active_cycles": vgiw["core_active_cycles"],
                "reconfiguration_share": vgiw["reconfiguration_cycles"] / max(vgiw["core_active_cycles"], 1),
                "block_runs": vgiw["block_runs"], "threads_per_block_run": vgiw["block_run_threads"] / max(vgiw["block_runs"], 1),
                "lvc_per_thread_instruction": vgiw["live_value_accesses"] / max(vgiw["thread_instructions"], 1),
                "blocks_ours": ours_blocks, "segments_ours": segments, "blocks_table2": paper_blocks,
                **attribution.columns(fermi, vgiw, vgiw["cores"], {label: runs[(label, w)][kernel] for label in attribution.RUNS}),
                **bound.columns(fermi, vgiw),
                **energy.columns(fermi, vgiw),
                **sgmf.columns(vgiw, runs[(sgmf.RUN, w)][kernel], sgmf_fit),
            })
    with open(out_dir / "vgiw_study.csv", "w", newline="") as f:
        csv_writer(f, args, list(rows[0])).writerows(rows)
    table2 = [r for r in rows if r["in_table2"]]
    write_markdown(out_dir / "vgiw_study.md", table2, rows, args)
    if not args.no_figures:
        plot_speedup(out_dir / "fig_vgiw_speedup.png", table2, args)
        plot_lvc(out_dir / "fig_vgiw_lvc.png", table2, args)
        attribution.plot_breakdown(out_dir / "fig_vgiw_cycles.png", table2, args,
                                   (f"paper (Sec. 3.2): reconfiguration averages {PAPER['reconfig_mean'] * 100:.2f}% of the "
                                    f"runtime, median {PAPER['reconfig_median']}; it gives no other breakdown"))
        energy.plot(out_dir / "fig_vgiw_energy.png", table2, args)
        sgmf.plot(out_dir / "fig_vgiw_sgmf.png", table2, args)
    print(f"wrote {out_dir}/vgiw_study.csv, vgiw_study.md"
          + ("" if args.no_figures else ", fig_vgiw_speedup.png, fig_vgiw_lvc.png, fig_vgiw_cycles.png, fig_vgiw_energy.png, fig_vgiw_sgmf.png"))
    return 0


def write_markdown(path, table2, rows, args):
    sp = [r["speedup"] for r in table2]
    sp128 = [r["speedup_vc128"] for r in table2]
    sp64 = [r["speedup_over_l1_64k"] for r in table2]
    lw = [r["lvc_over_rf_warp"] for r in table2 if r["rf_accesses_warp"]]
    lt = [r["lvc_over_rf_thread"] for r in table2 if r["rf_accesses_thread"]]
    rc = [r["reconfiguration_share"] for r in table2]
    lines = [f"# VGIW study ({args.size} size): ours beside Voitsechov & Etsion", "", markdown_provenance(args), "",
             "Cycles are core cycles (1.4 GHz) of every launch of the kernel, summed.", "",
             "| figure | paper | ours (vgiw) | ours (vgiw, 128 virtual channels) |", "|---|---|---|---|",
             f"| speedup over Fermi, mean (Fig. 7) | {PAPER['speedup_mean']:.1f}x | {statistics.mean(sp):.2f}x | {statistics.mean(sp128):.2f}x |",
             f"| speedup, geometric mean | - | {geomean(sp):.2f}x | {geomean(sp128):.2f}x |",
             f"| speedup over Fermi with a 64KB L1 (a reading; GPGPU-Sim's GTX480 has 16KB), mean / geometric mean | - | "
             f"{statistics.mean(sp64):.2f}x / {geomean(sp64):.2f}x | |",
             f"| speedup range | {PAPER['speedup_range']} | {min(sp):.2f}x - {max(sp):.2f}x | {min(sp128):.2f}x - {max(sp128):.2f}x |",
             f"| LVC accesses / RF accesses (an access a warp), mean (Fig. 3) | about {PAPER['lvc_over_rf']} | {statistics.mean(lw):.2f} | |",
             f"| LVC accesses / RF accesses (an access a thread), mean | - | {statistics.mean(lt):.3f} | |",
             f"| reconfiguration share of runtime, mean (Sec. 3.2) | {PAPER['reconfig_mean'] * 100:.2f}% | {statistics.mean(rc) * 100:.2f}% | |",
             f"| reconfiguration share, median | {PAPER['reconfig_median']} | {statistics.median(rc) * 100:.2f}% | |",
             f"| threads per block run (thread vector), median | \"hundreds and thousands\" (Sec. 2) | "
             f"{statistics.median(r['threads_per_block_run'] for r in table2):.0f} | |", "",
             "| Table 2 kernel | launches | Fermi cycles | VGIW cycles | speedup | bound (Table 1) | speedup (128 VC) | LVC/RF warp | LVC/RF thread | reconfig share | threads / block run | LVC accesses / thread instr. | blocks Table 2 | ours: blocks / segments |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['table2']} | {r['launches']} | {r['fermi_cycles']:,} | {r['vgiw_cycles']:,} | {r['speedup']:.2f} | {r['bound_types']:.2f} | "
                     f"{r['speedup_vc128']:.2f} | {r['lvc_over_rf_warp']:.2f} | {r['lvc_over_rf_thread']:.3f} | "
                     f"{r['reconfiguration_share'] * 100:.2f}% | {r['threads_per_block_run']:.0f} | {r['lvc_per_thread_instruction']:.2f} | "
                     f"{r['blocks_table2'] if r['blocks_table2'] is not None else '-'} | "
                     f"{r['blocks_ours']} / {r['segments_ours']} |")
    lines += ["", "Helper kernels (ours, not in Table 2) are listed but left out of the means.", ""]
    lines += bound.markdown(table2, rows)
    lines += attribution.markdown(table2, rows)
    lines += energy.markdown(table2)
    lines += sgmf.markdown(table2)
    path.write_text("\n".join(lines))


def plot_bars(path, rows, series, paper, ylabel, title, args, log=False, mean_keys=None):
    """Two bars per Table 2 kernel (series: [(label, key)] of two), then a "mean" group: ours (the
    arithmetic mean over the kernels, of those with a value: mean_keys[key] filters) beside the
    paper's stated mean, hatched. paper: (legend label, value, (low, high) range or None)."""
    plt = pyplot()
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(13, 4.8))
    m = len(rows) + 0.5  # the "mean" group
    for (label, key), dx, dm in zip(series, (-0.2, 0.2), (-0.27, 0.0)):
        values = [r[key] if r[key] > 0 or not log else float("nan") for r in rows]
        bars = ax.bar([i + dx for i in x], values, 0.4, label=label)
        mean = statistics.mean(r[key] for r in rows if (mean_keys or {}).get(key, lambda r: True)(r))
        ax.bar(m + dm, mean, 0.27, color=bars.patches[0].get_facecolor())
        ax.text(m + dm, mean, f"{mean:.2f}", ha="center", va="bottom", fontsize=7, rotation=90)
        for i, v in enumerate(values):
            if v != v:  # nothing to draw on a log axis: say 0
                ax.text(i + dx, paper[1], "0", ha="center", va="bottom", fontsize=8)
    ax.bar(m + 0.27, paper[1], 0.27, color="lightgrey", hatch="//", edgecolor="black", linewidth=0.4, label=paper[0])
    ax.text(m + 0.42, paper[1], f"{paper[1]:g}", ha="left", va="center", fontsize=7)
    if paper[2]:
        low, high = paper[2]
        ax.errorbar([m + 0.27], [paper[1]], yerr=[[paper[1] - low], [high - paper[1]]], fmt="none", ecolor="black",
                    capsize=4, label=f"paper's range, {low:g}x - {high:g}x (Sec. 5, Fig. 7)")
    if not log:
        ax.axhline(1.0, color="black", lw=0.8)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.05)
    ax.axhline(paper[1], color="red", ls="--", lw=1)
    ax.axvline(len(rows) - 0.25, color="grey", lw=0.8)
    if log:
        ax.set_yscale("log")
        top = max(r[key] for r in rows for _, key in series)
        ax.set_ylim(top=top * 30)  # room for the legend above the bars
    ax.set_xticks(list(x) + [m])
    ax.set_xticklabels([r["table2"] for r in rows] + ["mean (ours | paper)"], rotation=60, ha="right", fontsize=8)
    ax.set_xlim(-0.6, m + 0.6)
    ax.set_ylabel(ylabel)
    ax.set_title(title + "\nthe paper gives no per-kernel values (its figure's bars are not stated); "
                 "its mean at the right", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    save_figure(fig, path, args, dpi=120)


def plot_speedup(path, rows, args):
    plot_bars(path, rows, [("vgiw (32 virtual channels)", "speedup"), ("vgiw, 128 virtual channels", "speedup_vc128")],
              (f"paper's mean, \"over {PAPER['speedup_mean']:g}x\" (Sec. 5, Fig. 7)", PAPER["speedup_mean"],
               (PAPER["speedup_low"], PAPER["speedup_high"])),
              "speedup over fermi-gtx480", "VGIW speedup per Table 2 kernel (cf. Fig. 7)", args)


def plot_lvc(path, rows, args):
    plot_bars(path, rows, [("per warp-wide RF access (the paper's count)", "lvc_over_rf_warp"), ("per thread RF access", "lvc_over_rf_thread")],
              (f"paper's mean, about {PAPER['lvc_over_rf']:g} (\"almost 10x less\", Sec. 2, Fig. 3)", PAPER["lvc_over_rf"], None),
              "LVC accesses / RF accesses (log scale)",
              "Live value cache accesses against Fermi register-file accesses (cf. Fig. 3)", args, log=True,
              mean_keys={"lvc_over_rf_warp": lambda r: r["rf_accesses_warp"],
                         "lvc_over_rf_thread": lambda r: r["rf_accesses_thread"]})


if __name__ == "__main__":
    sys.exit(main())
