"""Attribution runs of the VGIW study: which of our model's limits makes each kernel slower than
the paper's VGIW. Each run lifts one limit of configs/vgiw.json (or, for the perfect-memory pair,
the memory hierarchy of both cores), and the fabric's own cycle breakdown says where the base
run's core-cycles went:
  no tile          a core had no tile (the grid's CTAs ran out, or a launch's tail)
  reconfiguring    the 34-cycle reconfigurations (Sec. 3.2)
  injecting        initiators started threads (one a cycle per replica: the fabric's peak)
  channels full    threads waited with every virtual channel of their replica taken (Little's
                   law: virtual_channels threads in flight over each thread's latency)
  waiting batches  initiators waited for the scheduler's control vector reads
  draining         the block's last threads finished after the last start (a block runs only
                   once the one before has drained: pipeline and memory latency per block run)
  between blocks   the rest: picking the next block, messages
"""
import statistics

from sweep_results import pyplot, save_figure
from study_common import geomean, md_row, md_rule

FABRIC_PHASES = ("injecting", "channels_full", "waiting_batches", "draining")
BREAKDOWN = ("no_tile", "reconfiguring", *FABRIC_PHASES, "between_blocks")
COLOURS = {"no_tile": "#bbbbbb", "reconfiguring": "#d62728", "injecting": "#2ca02c", "channels_full": "#1f77b4",
           "waiting_batches": "#9467bd", "draining": "#ff7f0e", "between_blocks": "#8c564b"}

# The attribution runs' configs (in studies/vgiw/runs.json, each vgiw or fermi-gtx480 with a patch):
# 1024 virtual channels, no reconfiguration cycles, CVT-sized tiles, perfect L1 and LVC (and a
# perfect-L1 Fermi to compare with), all three at once, and the Table 1 units four times over (a
# 72 x 6 grid: load/store and live-value units need the perimeter), which cuts fewer blocks for
# size: only its live value traffic is read.
RUNS = ["vgiw-vc1024", "vgiw-rc0", "vgiw-bigtile", "vgiw-perfect", "fermi-perfect", "vgiw-ideal", "vgiw-grid4"]
# (column, label) of the speedups each row gets: Fermi cycles (or Fermi's with a perfect L1) over the run's.
SPEEDUPS = (("speedup", "vgiw"), ("speedup_vc128", "128 VC"), ("speedup_vc1024", "1024 VC"), ("speedup_rc0", "no reconfig."),
            ("speedup_bigtile", "CVT-sized tiles"), ("speedup_perfect", "perfect L1+LVC vs perfect-L1 Fermi"),
            ("speedup_ideal", "all three vs perfect-L1 Fermi"))


def breakdown(run, cores):
    """Where a fabric core's run (one kernel's summed figures) spent its cycles x cores: BREAKDOWN's shares."""
    total = max(run["cycles"] * cores, 1)
    active = run["core_active_cycles"]
    phases = {p: run["fabric_cycles"].get(p, 0) for p in FABRIC_PHASES}
    accounted = run["reconfiguration_cycles"] + sum(phases.values())
    share = {"no_tile": max(total - active, 0), "reconfiguring": run["reconfiguration_cycles"], **phases,
             "between_blocks": max(active - accounted, 0)}
    return {k: v / total for k, v in share.items()}


def columns(fermi, vgiw, cores, runs):
    """The attribution columns of one kernel: base-run breakdown shares, the variants' speedups, and
    live value traffic with a four-times grid. runs: label -> that run's per-kernel figures."""
    row = {f"share_{k}": v for k, v in breakdown(vgiw, cores).items()}
    row["speedup_vc1024"] = fermi["cycles"] / runs["vgiw-vc1024"]["cycles"]
    row["speedup_rc0"] = fermi["cycles"] / runs["vgiw-rc0"]["cycles"]
    row["speedup_bigtile"] = fermi["cycles"] / runs["vgiw-bigtile"]["cycles"]
    row["speedup_perfect"] = runs["fermi-perfect"]["cycles"] / runs["vgiw-perfect"]["cycles"]
    row["speedup_ideal"] = runs["fermi-perfect"]["cycles"] / runs["vgiw-ideal"]["cycles"]
    row["fermi_perfect_over_fermi"] = fermi["cycles"] / runs["fermi-perfect"]["cycles"]
    # The fabric's peak: thread instructions entering per cycle an initiator started threads, with
    # every other limit lifted (Fermi issues at most 32 a cycle; the grid has 108 units).
    ideal = runs["vgiw-ideal"]
    row["ideal_instructions_per_injecting_cycle"] = ideal["thread_instructions"] / max(ideal["fabric_cycles"].get("injecting", 0), 1)
    fp = runs["fermi-perfect"]
    row["fermi_perfect_instructions_per_core_cycle"] = fp["thread_instructions"] / max(fp["cycles"] * fp["cores"], 1)
    g = runs["vgiw-grid4"]
    row["lvc_per_thread_instruction_grid4"] = g["live_value_accesses"] / max(g["thread_instructions"], 1)
    row["threads_per_block_run_bigtile"] = runs["vgiw-bigtile"]["block_run_threads"] / max(runs["vgiw-bigtile"]["block_runs"], 1)
    return row


def markdown(table2, rows):
    """The attribution sections of vgiw_study.md."""
    from statistics import mean, median
    lines = ["## Where the gap to the paper comes from", "",
             "Each run lifts one limit of our vgiw preset; speedups are over fermi-gtx480 (the perfect-memory runs: "
             "over fermi-gtx480 with a perfect L1, `\"perfect\": true`, which answers every access at the hit latency).", "",
             "| run | what it lifts | mean speedup | geometric mean | range |", "|---|---|---:|---:|---:|"]
    what = {"speedup": "nothing (the preset)", "speedup_vc128": "token buffers 4x deeper",
            "speedup_vc1024": "token buffers never full", "speedup_rc0": "reconfiguration free",
            "speedup_bigtile": "tiles as large as the CVT allows (live values may spill to L2)",
            "speedup_perfect": "every L1 and LVC access hits (both cores)",
            "speedup_ideal": "1024 VC, no reconfiguration, perfect L1 and LVC"}
    for key, label in SPEEDUPS:
        v = [r[key] for r in table2]
        lines.append(f"| {label} | {what[key]} | {mean(v):.2f}x | {geomean(v):.2f}x | {min(v):.2f}x - {max(v):.2f}x |")
    header = (["Table 2 kernel"] + [k.replace("_", " ") for k in BREAKDOWN] + [label for _, label in SPEEDUPS[2:]]
              + ["ideal: thread instr. per injecting cycle", "perfect-L1 Fermi: thread instr. per core-cycle",
                 "LVC / thread instr.", "same, 4x grid"])
    lines += ["", "Where the base run's core-cycles went (all cores, every launch; shares of cycles x cores):", "",
              md_row(header), md_rule([False] + [True] * (len(header) - 1))]
    for r in rows:
        lines.append(md_row([r["table2"]] + [f"{r['share_' + k] * 100:.1f}%" for k in BREAKDOWN]
                            + [f"{r[key]:.2f}" for key, _ in SPEEDUPS[2:]]
                            + [f"{r['ideal_instructions_per_injecting_cycle']:.1f}", f"{r['fermi_perfect_instructions_per_core_cycle']:.1f}",
                               f"{r['lvc_per_thread_instruction']:.2f}", f"{r['lvc_per_thread_instruction_grid4']:.2f}"]))
    shares = {k: mean([r["share_" + k] for r in table2]) for k in BREAKDOWN}
    lines += ["", "Mean shares over Table 2 kernels: " + ", ".join(f"{k.replace('_', ' ')} {v * 100:.1f}%" for k, v in shares.items()) + ".",
              f"Median thread vector with CVT-sized tiles: {median([r['threads_per_block_run_bigtile'] for r in table2]):.0f} threads.", ""]
    return lines


def plot_breakdown(path, rows, args, paper_note=None):
    """A stacked bar per Table 2 kernel: where the base run's core-cycles went; paper_note: what
    the paper states about it (under the title)."""
    fig, ax = pyplot().subplots(figsize=(12, 4.8))
    x = range(len(rows))
    bottom = [0.0] * len(rows)
    for k in BREAKDOWN:
        v = [r["share_" + k] * 100 for r in rows]
        ax.bar(list(x), v, 0.7, bottom=bottom, label=k.replace("_", " "), color=COLOURS[k])
        bottom = [b + y for b, y in zip(bottom, v)]
    ax.set_xticks(list(x))
    ax.set_xticklabels([r["table2"] for r in rows], rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("% of core-cycles (vgiw preset)")
    ax.set_ylim(0, 100)
    ax.set_title("Where the VGIW cores' cycles go, per Table 2 kernel"
                 + (f"\n{paper_note}; ours {statistics.mean(r['reconfiguration_share'] for r in rows) * 100:.2f}%, "
                    f"median {statistics.median(r['reconfiguration_share'] for r in rows) * 100:.2f}%" if paper_note else ""),
                 fontsize=10, pad=30)
    ax.legend(fontsize=8, ncol=7, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout()
    save_figure(fig, path, args, dpi=120)
