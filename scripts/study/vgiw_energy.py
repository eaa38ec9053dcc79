"""Energy efficiency of VGIW over Fermi (Voitsechov & Etsion, MICRO 2015, Sec. 5, Fig. 9 and 10),
from the energy every timed run reports (models/energy, configs/energy/): the same work on both
machines, so efficiency = Fermi's energy / VGIW's energy (the paper's performance per watt,
work / energy). It splits into speedup x (Fermi's average power / VGIW's), which says whether a gap
comes from time or from power. Fig. 10's three levels, as the paper draws them:
  system   every component: cores, L1s, L2, interconnect, DRAM
  die      all but DRAM
  core     the compute engine: Fermi's SM pipeline with its register file, functional units and
           shared memory ("core"); VGIW's fabric, basic-block scheduler with its control vector
           table, and live value cache ("the energy of the VGIW core includes the energy spent on
           the LVC and CVT"). The L1 caches are at die level on both (our choice: the paper names
           L1 with the die).
"""
import statistics

from sweep_results import pyplot, save_figure
from study_common import geomean

CORE = {"core", "fabric", "scheduler", "lvc"}
LEVELS = ("system", "die", "core")  # level_joules() says what each takes
# Sec. 5 (Fig. 9): "the VGIW architecture is 1.75x (~40%) more energy efficient, on average, than the
# baseline Fermi architecture ... varies between 0.7x and 7x"; the abstract also says "up to 7x", but
# Sec. 1 says "up to 4.3x". Fig. 10 and 11 state no per-level or per-kernel numbers in the text.
PAPER = {"efficiency_mean": 1.75, "efficiency_low": 0.7, "efficiency_high": 7.0, "efficiency_high_sec1": 4.3}


def add_launch(kernel, launch):
    """Sums a launch's energy (joules, in total and per component) into a kernel's figures."""
    e = launch.get("energy")
    if not e:
        return
    kernel["energy_j"] += e["total_j"]
    kernel["energy_dynamic_j"] += e["dynamic_j"]
    kernel["energy_seconds"] += e["seconds"]
    by = kernel.setdefault("energy_components", {})
    for name, c in e["components"].items():
        by[name] = by.get(name, 0.0) + c["total_j"]


def level_joules(kernel, level):
    by = kernel.get("energy_components", {})
    if level == "system":
        return sum(by.values())
    if level == "die":
        return sum(j for name, j in by.items() if name != "dram")
    return sum(j for name, j in by.items() if name in CORE)


def columns(fermi, vgiw):
    """One kernel's energy columns (vgiw_study.py's per-kernel figures of each machine)."""
    if not fermi.get("energy_j") or not vgiw.get("energy_j"):
        return {}
    out = {"fermi_energy_j": fermi["energy_j"], "vgiw_energy_j": vgiw["energy_j"],
           "fermi_power_w": fermi["energy_j"] / fermi["energy_seconds"], "vgiw_power_w": vgiw["energy_j"] / vgiw["energy_seconds"],
           "fermi_pj_per_thread_instruction": fermi["energy_j"] / max(fermi["thread_instructions"], 1) * 1e12,
           "vgiw_pj_per_thread_instruction": vgiw["energy_j"] / max(vgiw["thread_instructions"], 1) * 1e12}
    out["power_ratio"] = out["fermi_power_w"] / out["vgiw_power_w"]
    out["fermi_static_share"] = 1 - fermi["energy_dynamic_j"] / fermi["energy_j"]
    out["vgiw_static_share"] = 1 - vgiw["energy_dynamic_j"] / vgiw["energy_j"]
    out["efficiency_dynamic"] = fermi["energy_dynamic_j"] / max(vgiw["energy_dynamic_j"], 1e-30)
    for level in LEVELS:
        out[f"efficiency_{level}"] = level_joules(fermi, level) / max(level_joules(vgiw, level), 1e-30)
    return out


def markdown(table2):
    rows = [r for r in table2 if r.get("efficiency_system")]
    if not rows:
        return []
    eff = [r["efficiency_system"] for r in rows]
    lines = ["", "## Energy efficiency of VGIW over Fermi (Fig. 9 and 10)", "",
             "Efficiency = Fermi's energy / VGIW's for the kernel's launches (the same work): speedup x (Fermi's average "
             "power / VGIW's). Energy from each run's own statistics and its config's `energy` table "
             "(`configs/energy/gtx480-40nm.json`, 40 nm; README \"Energy\").", "",
             "| figure | paper | ours |", "|---|---|---|",
             f"| energy efficiency over Fermi, mean (Fig. 9) | {PAPER['efficiency_mean']}x | {statistics.mean(eff):.2f}x "
             f"(geometric {geomean(eff):.2f}x) |",
             f"| range | {PAPER['efficiency_low']}x - {PAPER['efficiency_high']}x (Sec. 1: up to {PAPER['efficiency_high_sec1']}x) | "
             f"{min(eff):.2f}x - {max(eff):.2f}x |"]
    for level in LEVELS:
        v = [r[f"efficiency_{level}"] for r in rows]
        lines.append(f"| {level} level, mean (Fig. 10) | not stated (the core gains most) | {statistics.mean(v):.2f}x (geometric {geomean(v):.2f}x) |")
    sp = [r["speedup"] for r in rows]
    pw = [r["power_ratio"] for r in rows]
    dyn = [r["efficiency_dynamic"] for r in rows]
    st = [r["vgiw_static_share"] for r in rows]
    lines += [f"| speedup, mean (the time part) | over 3x | {statistics.mean(sp):.2f}x |",
              f"| dynamic energy only (a reading: static power left out), mean | - | {statistics.mean(dyn):.2f}x (geometric {geomean(dyn):.2f}x) |",
              f"| static share of the energy, mean, Fermi / VGIW | - | {statistics.mean(r['fermi_static_share'] for r in rows) * 100:.0f}% / "
              f"{statistics.mean(st) * 100:.0f}% |",
              f"| Fermi power / VGIW power, mean (the power part) | 3 / 1.75 = 1.7 implied by the two means | {statistics.mean(pw):.2f} |",
              "", "| Table 2 kernel | efficiency (system) | die | core | dynamic only | speedup | Fermi W | VGIW W | Fermi pJ / thread instr. | VGIW pJ / thread instr. |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['table2']} | {r['efficiency_system']:.2f} | {r['efficiency_die']:.2f} | {r['efficiency_core']:.2f} | "
                     f"{r['efficiency_dynamic']:.2f} | {r['speedup']:.2f} | {r['fermi_power_w']:.1f} | {r['vgiw_power_w']:.1f} | "
                     f"{r['fermi_pj_per_thread_instruction']:.0f} | {r['vgiw_pj_per_thread_instruction']:.0f} |")
    return lines


def plot(path, table2, args):
    """Left: per Table 2 kernel, efficiency at the three levels, then the means beside the paper's
    system mean (hatched) and Fig. 9's range. Right: the means per level."""
    rows = [r for r in table2 if r.get("efficiency_system")]
    if not rows:
        return
    plt = pyplot()
    fig, (ax, lv) = plt.subplots(1, 2, figsize=(15, 5), gridspec_kw={"width_ratios": [5, 1]})
    x = range(len(rows))
    colours = {}
    for level, dx in zip(LEVELS, (-0.27, 0.0, 0.27)):
        bars = ax.bar([i + dx for i in x], [r[f"efficiency_{level}"] for r in rows], 0.27, label=f"ours, {level} level")
        colours[level] = bars.patches[0].get_facecolor()
    m = len(rows) + 0.5
    mean = statistics.mean(r["efficiency_system"] for r in rows)
    ax.bar(m - 0.15, mean, 0.3, color=colours["system"])
    ax.text(m - 0.15, mean, f"{mean:.2f}", ha="center", va="bottom", fontsize=7)
    ax.bar(m + 0.15, PAPER["efficiency_mean"], 0.3, color="lightgrey", hatch="//", edgecolor="black", linewidth=0.4,
           label=f"paper's mean, {PAPER['efficiency_mean']}x (Sec. 5, Fig. 9)")
    ax.errorbar([m + 0.15], [PAPER["efficiency_mean"]], yerr=[[PAPER["efficiency_mean"] - PAPER["efficiency_low"]],
                [PAPER["efficiency_high"] - PAPER["efficiency_mean"]]], fmt="none", ecolor="black", capsize=4,
                label=f"paper's range, {PAPER['efficiency_low']}x - {PAPER['efficiency_high']:g}x (Sec. 1 says up to {PAPER['efficiency_high_sec1']}x)")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.axvline(len(rows) - 0.25, color="grey", lw=0.8)
    ax.set_ylim(0, max(PAPER["efficiency_high"], max(r[f"efficiency_{lv_}"] for r in rows for lv_ in LEVELS)) * 1.1)
    ax.set_xticks(list(x) + [m])
    ax.set_xticklabels([r["table2"] for r in rows] + ["system mean (ours | paper)"], rotation=60, ha="right", fontsize=8)
    ax.set_xlim(-0.6, m + 0.6)
    ax.set_ylabel("energy efficiency of VGIW over fermi-gtx480 (x)")
    ax.set_title("VGIW energy efficiency per Table 2 kernel (cf. Fig. 9); the paper gives no per-kernel values", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    means = [statistics.mean(r[f"efficiency_{level}"] for r in rows) for level in LEVELS]
    means.append(statistics.mean(r["efficiency_dynamic"] for r in rows))  # the reading without static power
    lv.bar([*LEVELS, "dynamic\nonly"], means, color=[colours[level] for level in LEVELS] + ["grey"])
    for i, v in enumerate(means):
        lv.text(i, v, f"{v:.2f}", ha="center", va="bottom", fontsize=8)
    lv.axhline(1.0, color="black", lw=0.8)
    lv.set_title("mean per level (cf. Fig. 10; the paper\nstates no values); dynamic energy alone", fontsize=9)
    fig.tight_layout()
    save_figure(fig, path, args, dpi=120)
