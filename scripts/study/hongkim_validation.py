"""MWP/CWP model validation (Hong & Kim, ISCA 2009, Sec. 4-5): simulated vs predicted CPI.

Runs the micro-benchmarks Mb1-Mb7 (coalesced and uncoalesced, Table 4) and the Merge applications
(Table 5) of traces/hongkim/ with build/bin/gputlm on the analytical-compatible preset
(configs/hongkim-analytical.json, digest 7.3) and on fermi-gtx480, and the threads-per-block sweep
of tiled matrix multiply (sizes tpb4 ... tpb512). Every run's statistics carry the model's
prediction beside the simulated cycles (mwp_cwp_prediction); this script gathers them. Writes into
--out (default sweeps/hongkim/results/; docs/results/ holds the committed ones), each with the
commit and the command that made it (the figures not with --no-figures):
  hongkim_validation.csv   one row per (config, workload, size)
  hongkim_validation.md    CPI tables with each error and the geometric-mean error per group
  fig_hongkim_cpi.png      simulated vs predicted CPI (like the paper's Fig. 14 and 17), log axis
  fig_hongkim_scatter.png  predicted vs simulated CPI, one point per workload with its error
  fig_hongkim_tiled_sweep.png  cycles vs threads per block, simulated and predicted (Fig. 15/16)
The runs are the sweeps studies/hongkim/validation.json,
tpb_sweep.json (its sizes are the sweep, not replaced by --size; at --size test tpb_sweep_test.json,
the same tiles at n = 64) and clamp.json (gputlm predict),
run by `gputlm sweep` into sweeps/hongkim/<part>/ (sweeps/hongkim-<size>/<part>/ with --size),
which reuses every result it has (sweep_results.py).

  /usr/bin/python3 scripts/study/hongkim_validation.py [--size study|test] [--no-sweep] [--out DIR]
      [--no-figures] [--sweeps DIR] [--gputlm PATH] [--jobs N] [--collect] [--fresh]
"""
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep_results import (csv_writer, markdown_provenance, output_dir, parse_study_args, print_failures,  # noqa: E402
                           pyplot, save_figure, study_parser, study_sweep)
from study_common import geomean, md_table, pct_error  # noqa: E402

CONFIG_FILES = ["hongkim-analytical", "fermi-gtx480"]  # the configs of the specs (clamp.json: each with -clamp)
MICRO = [f"mb{i}_{v}" for i in range(1, 8) for v in ("c", "uc")]
MERGE = ["sepia", "linear", "svm", "matmul_naive", "matmul_tiled", "blackscholes"]
SWEEP = [f"tpb{n}" for n in (4, 8, 16, 32, 64, 128, 256, 512)]
# At --size test the sweep is tpb_sweep_test.json: the same tiles at n = 64 (sizes tpbN-test).
SWEEP += [f"{s}-test" for s in SWEEP]
# The paper's validation errors (the geometric mean of the absolute CPI errors, measured on GPU
# hardware): the only numbers it states for Fig. 14-17; per-benchmark CPIs and the Fig. 15/16
# execution times are in its figures only.
PAPER_ERROR = {
    "micro": (0.054, "Sec. 4.2, Fig. 14"),  # "The average geometric mean of the error is 5.4%."
    "merge": (0.133, "Sec. 4.3, Fig. 17"),  # "... on the Merge benchmarks in Figure 17 over all four
                                            # different types of GPUs is 13.3%"
}


def parse_args():
    p = study_parser(__doc__)
    p.add_argument("--no-sweep", action="store_true", help="skip the threads-per-block sweep (sizes tpbN; tpbN-test, at n = 64, with --size test)")
    return parse_study_args(p, "hongkim")


def row_of(config, workload, size, stats):
    """Simulated and predicted figures of a run, summed over its launches."""
    launches = stats["launches"]
    preds = [l["mwp_cwp_prediction"] for l in launches]
    if any("error" in p for p in preds):
        return {"config": config, "workload": workload, "size": size,
                "error": "; ".join(p["error"] for p in preds if "error" in p)}
    sim = sum(l["cycles"] for l in launches)
    pred = sum(p["cycles"] for p in preds)
    # CPI over all launches: cycles over warp instructions per active SM (Eq. 25's denominator).
    per_sm = sum(l["warp_instructions"] / p["inputs"]["active_sms"] for l, p in zip(launches, preds))
    last = preds[-1]
    return {"config": config, "workload": workload, "size": size, "simulated_cycles": sim,
            "predicted_cycles": pred, "simulated_cpi": sim / per_sm, "predicted_cpi": pred / per_sm,
            "error": "", "mwp": last["mwp"], "cwp": last["cwp"], "n": last["n"], "case": last["case"],
            "via_comp_over_mem": any(p.get("via_comp_over_mem", False) for p in preds),
            "mwp_limit": last["mwp_limit"], "comp_insts": last["inputs"]["comp_insts"],
            "coal_mem_insts": last["inputs"]["coal_mem_insts"],
            "uncoal_mem_insts": last["inputs"]["uncoal_mem_insts"],
            "uncoal_per_mw": last["inputs"]["uncoal_per_mw"],
            "threads_per_block": last["inputs"]["threads_per_block"]}


def add_clamped(row, predict_stats):
    """The prediction with Eq. 23 raised to the issue bound (digest 2.10.2, "clamp") from gputlm
    predict, on the run's CPI footing."""
    if row["error"]:
        return
    cycles = sum(l["mwp_cwp_prediction"].get("cycles", math.nan) for l in predict_stats["launches"])
    row["predicted_cpi_clamped"] = row["predicted_cpi"] * cycles / row["predicted_cycles"]


def cpi_error(r, key="predicted_cpi"):
    return abs(r[key] - r["simulated_cpi"]) / r["simulated_cpi"]


def geomean_error(rows, key="predicted_cpi"):
    """The paper's summary: the geometric mean of the absolute relative CPI errors."""
    return geomean(max(cpi_error(r, key), 1e-6) for r in rows if not r["error"] and key in r)


# Columns of the two tables: (header, right-aligned, value of a row).
CPI_COLUMNS = [("workload", False, lambda r: r["workload"]),
               ("CPI simulated", True, lambda r: f"{r['simulated_cpi']:.2f}"),
               ("CPI predicted", True, lambda r: f"{r['predicted_cpi']:.2f}"),
               ("error", True, lambda r: pct_error(r["predicted_cpi"], r["simulated_cpi"])),
               ("CPI predicted, clamped", True, lambda r: f"{r['predicted_cpi_clamped']:.2f}" if "predicted_cpi_clamped" in r else "—"),
               ("error, clamped", True, lambda r: pct_error(r["predicted_cpi_clamped"], r["simulated_cpi"])
                if "predicted_cpi_clamped" in r else "—"),
               ("case", False, lambda r: r["case"] + (" (Comp > Mem clause)" if r["via_comp_over_mem"] else "")), ("MWP", True, lambda r: f"{r['mwp']:.2f}"),
               ("CWP", True, lambda r: f"{r['cwp']:.2f}"), ("N", True, lambda r: f"{r['n']:.0f}"),
               ("MWP limit", False, lambda r: r["mwp_limit"])]
SWEEP_COLUMNS = [("config", False, lambda r: r["config"]),
                 ("threads/block", True, lambda r: r["threads_per_block"]),
                 ("cycles simulated", True, lambda r: r["simulated_cycles"]),
                 ("cycles predicted", True, lambda r: f"{r['predicted_cycles']:.0f}"),
                 ("error", True, lambda r: pct_error(r["predicted_cycles"], r["simulated_cycles"])),
                 ("N", True, lambda r: f"{r['n']:.0f}"), ("MWP", True, lambda r: f"{r['mwp']:.2f}"),
                 ("CWP", True, lambda r: f"{r['cwp']:.2f}")]


def table(rows, columns):
    """The markdown table of rows in columns (CPI_COLUMNS or SWEEP_COLUMNS); a run the model gave no
    prediction for says why."""
    cells = [[columns[0][2](r), f"no prediction: {r['error']}"] + [""] * (len(columns) - 2)
             if r["error"] else [c[2](r) for c in columns] for r in rows]
    return md_table([c[0] for c in columns], cells, right=[c[1] for c in columns])


def write_markdown(path, results, sweep, args):
    lines = ["# MWP/CWP model vs simulator (Hong & Kim, ISCA 2009)", "", markdown_provenance(args), "",
             f"Size `{args.size}`. CPI is cycles per warp "
             "instruction of one active SM (Eq. 25); predicted CPI includes the synchronisation cost "
             "(Eq. 27); error = predicted / simulated - 1; the summary is the geometric mean of the "
             "absolute errors, as the paper reports it "
             f"({100 * PAPER_ERROR['micro'][0]:.1f}% micro, {100 * PAPER_ERROR['merge'][0]:.1f}% Merge, on hardware). "
             "\"Clamped\" is the model with Eq. 23 raised to the issue bound N x Comp_cycles x #Rep "
             "(digest 2.10.2; config `\"analytical_model\": {\"comp_over_mem\": \"clamp\"}`), "
             "the literal reading being the default; \"Comp > Mem clause\" marks Eq. 23 taken only "
             "by its \"or Comp_cycles > Mem_cycles\" clause.", ""]
    for config in CONFIG_FILES:
        for name, group in (("Micro-benchmarks Mb1-Mb7 (Table 4)", MICRO), ("Merge applications (Table 5)", MERGE)):
            rows = [r for r in results if r["config"] == config and r["workload"] in group]
            if not rows:
                continue
            lines += [f"## {config}: {name}", "",
                      f"Geometric-mean CPI error: **{100 * geomean_error(rows):.1f}%** over {len(rows)} workloads "
                      f"(clamped: {100 * geomean_error(rows, 'predicted_cpi_clamped'):.1f}%).",
                      "", table(rows, CPI_COLUMNS), ""]
    if sweep:
        lines += ["## Tiled matrix multiply, threads per block 4 to 512 (Fig. 15/16)", "",
                  table(sweep, SWEEP_COLUMNS), ""]
    Path(path).write_text("\n".join(lines))


def group_errors(rows):
    """"micro: ours X% (paper 5.4%, Sec. 4.2, Fig. 14); Merge: ..." for a config's rows."""
    parts = []
    for key, name, group in (("micro", "Mb1-Mb7", MICRO), ("merge", "Merge", MERGE)):
        sub = [r for r in rows if r["workload"] in group]
        if sub:
            paper, where = PAPER_ERROR[key]
            parts.append(f"{name}: ours {100 * geomean_error(sub):.1f}% (paper {100 * paper:.1f}%, {where})")
    return "; ".join(parts)


def cpi_figure(path, results, args):
    """Simulated and predicted CPI per workload on a log axis, each pair's error above it."""
    plt = pyplot()
    configs = [c for c in CONFIG_FILES if any(r["config"] == c and not r["error"] for r in results)]
    fig, axes = plt.subplots(len(configs), 1, figsize=(13, 4.0 * len(configs)), squeeze=False)
    for ax, config in zip(axes[:, 0], configs):
        rows = [r for r in results if r["config"] == config and not r["error"]]
        x = range(len(rows))
        ax.bar([i - 0.2 for i in x], [r["simulated_cpi"] for r in rows], 0.4, label="simulated")
        ax.bar([i + 0.2 for i in x], [r["predicted_cpi"] for r in rows], 0.4, label="MWP/CWP model")
        for i, r in zip(x, rows):
            ax.text(i, max(r["simulated_cpi"], r["predicted_cpi"]) * 1.08,
                    pct_error(r["predicted_cpi"], r["simulated_cpi"]), ha="center", va="bottom", fontsize=7)
        ax.set_yscale("log")
        low = min(min(r["simulated_cpi"], r["predicted_cpi"]) for r in rows)
        high = max(max(r["simulated_cpi"], r["predicted_cpi"]) for r in rows)
        ax.set_ylim(10 ** math.floor(math.log10(low)), high * 2.2)
        ax.axvline(sum(r["workload"] in MICRO for r in rows) - 0.5, color="grey", linewidth=0.8)
        ax.set_xticks(list(x), [r["workload"] for r in rows], rotation=45, ha="right", fontsize=8)
        ax.set_ylabel("CPI (cycles per warp instruction\nper SM, log scale)")
        ax.set_title(f"{config}: simulated vs predicted CPI, error = predicted / simulated - 1 above each pair\n"
                     f"geometric-mean |error| {group_errors(rows)}", fontsize=10)
        ax.grid(axis="y", which="both", linewidth=0.3)
        ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.text(0.01, 0.0, "The paper gives no per-benchmark CPI values (Fig. 14 and 17 are charts; its text states "
             "only the geometric-mean errors, measured on GPU hardware: micro-benchmarks on one GPU, "
             "Merge over four).", ha="left", va="top", fontsize=8)
    save_figure(fig, path, args, dpi=110)


def place_labels(fig, ax, labels, fontsize=6.5):
    """Annotates each (x, y, color, text) beside its point where it overlaps no label placed before
    it (right, left, above or below; the first place otherwise)."""
    fig.canvas.draw()
    scale = fig.dpi / 72  # pixels per point
    placed = [ax.transData.transform((x, y)) for x, y, _, _ in labels]
    placed = [(px - 3 * scale, py - 3 * scale, px + 3 * scale, py + 3 * scale) for px, py in placed]
    for x, y, color, text in sorted(labels, key=lambda l: -l[1]):
        px, py = ax.transData.transform((x, y))
        w, h = 0.55 * fontsize * len(text) * scale, fontsize * 1.1 * scale
        choice = None
        for dx, dy, ha in ((4, -3, "left"), (-4, -3, "right"), (4, 5, "left"), (-4, 5, "right"),
                           (4, -11, "left"), (-4, -11, "right"), (4, 13, "left"), (-4, 13, "right")):
            x0 = px + dx * scale - (w if ha == "right" else 0)
            y0 = py + dy * scale - h / 2
            box = (x0, y0, x0 + w, y0 + h)
            if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
                choice = (dx, dy, ha, box)
                break
        dx, dy, ha, box = choice or (4, -3, "left", None)
        if box:
            placed.append(box)
        ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va="center",
                    fontsize=fontsize, color=color)


def scatter_figure(path, results, args):
    """Predicted against simulated CPI, log-log, one panel per config, y = x and each point's error."""
    plt = pyplot()
    configs = [c for c in CONFIG_FILES if any(r["config"] == c and not r["error"] for r in results)]
    fig, axes = plt.subplots(1, len(configs), figsize=(6.6 * len(configs), 6.6), squeeze=False)
    for ax, config in zip(axes[0], configs):
        rows = [r for r in results if r["config"] == config and not r["error"]]
        labels = []  # (x, y, color, text)
        values = [v for r in rows for v in (r["simulated_cpi"], r["predicted_cpi"])]
        lo, hi = 10 ** math.floor(math.log10(min(values))), 10 ** math.ceil(math.log10(max(values)))
        ax.plot([lo, hi], [lo, hi], color="black", linewidth=0.8, label="y = x (no error)")
        for key, name, group, color in (("micro", "Mb1-Mb7 C/UC (Table 4)", MICRO, "tab:blue"),
                                        ("merge", "Merge (Table 5)", MERGE, "tab:orange")):
            sub = [r for r in rows if r["workload"] in group]
            if not sub:
                continue
            paper, where = PAPER_ERROR[key]
            ax.scatter([r["simulated_cpi"] for r in sub], [r["predicted_cpi"] for r in sub], s=28, color=color,
                       edgecolor="black", linewidth=0.4, zorder=3,
                       label=f"{name}: geomean |error| ours {100 * geomean_error(sub):.1f}%,\n"
                             f"  paper {100 * paper:.1f}% ({where}, on hardware)")
            labels += [(r["simulated_cpi"], r["predicted_cpi"], color,
                        f"{r['workload'].removeprefix('mb').replace('matmul_', 'mm_')} "
                        f"{pct_error(r['predicted_cpi'], r['simulated_cpi'])}") for r in sub]
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.set_aspect("equal")
        place_labels(fig, ax, labels)
        ax.set_xlabel("simulated CPI (log scale)")
        ax.set_ylabel("predicted CPI, MWP/CWP model (log scale)")
        ax.set_title(f"{config}: predicted vs simulated CPI\n(Mb: micro-benchmark number, c/uc; "
                     "label: error = predicted / simulated - 1)", fontsize=10)
        ax.grid(which="both", linewidth=0.3)
        ax.legend(loc="upper left", fontsize=7.5)
    fig.tight_layout()
    fig.text(0.01, 0.0, "The paper gives no per-benchmark values: only the geometric-mean errors above "
             "(Hong & Kim, ISCA 2009).", ha="left", va="top", fontsize=8)
    save_figure(fig, path, args, dpi=110)


def sweep_figure(path, sweep, args):
    """Cycles against threads per block (log-log), simulated and predicted, and each point's error."""
    plt = pyplot()
    fig, (ax, err) = plt.subplots(2, 1, figsize=(8, 7), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    for config in CONFIG_FILES:
        rows = sorted((r for r in sweep if r["config"] == config and not r["error"]),
                      key=lambda r: r["threads_per_block"])
        if not rows:
            continue
        tpb = [r["threads_per_block"] for r in rows]
        line = ax.plot(tpb, [r["simulated_cycles"] for r in rows], "o-", label=f"{config} simulated")[0]
        ax.plot(tpb, [r["predicted_cycles"] for r in rows], "s--", color=line.get_color(),
                label=f"{config} predicted")
        err.plot(tpb, [100 * (r["predicted_cycles"] / r["simulated_cycles"] - 1) for r in rows], "o-",
                 color=line.get_color(), label=config)
    paper, where = PAPER_ERROR["merge"]
    for sign in (1, -1):
        err.axhline(sign * 100 * paper, color="crimson", linestyle=":", linewidth=1.2,
                    label=f"paper: geomean |CPI error| on Merge {100 * paper:.1f}% ({where})" if sign > 0 else None)
    err.axhline(0, color="black", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_ylabel("cycles (log scale)")
    ax.set_title("Tiled matrix multiply: threads-per-block sweep (cf. Fig. 15/16)\n"
                 "the paper gives no per-size values (its Fig. 15/16 are charts)", fontsize=10)
    ax.grid(which="both", linewidth=0.3)
    ax.legend(fontsize=8)
    err.set_xlabel("threads per block")
    err.set_ylabel("error, predicted / simulated - 1 (%)")
    err.grid(linewidth=0.3)
    err.legend(fontsize=7.5)
    fig.tight_layout()
    save_figure(fig, path, args, dpi=110)


def main():
    args = parse_args()
    parts = [study_sweep("hongkim", "validation", args)]
    if not args.no_sweep:
        parts.append(study_sweep("hongkim", "tpb_sweep_test" if args.size == "test" else "tpb_sweep", args, resize=False))
    clamp = study_sweep("hongkim", "clamp", args)
    failures = print_failures(parts + [clamp])
    rows = {k: row_of(*k, stats) for part in parts for k, stats in part.stats.items()}
    for (c, w, size), stats in clamp.stats.items():
        key = (c.removesuffix("-clamp"), w, size)
        if key in rows:
            add_clamped(rows[key], stats)
    results = [rows[k] for k in rows if k[2] == args.size]
    sweep = [rows[k] for k in rows if k[2] in SWEEP]
    out = output_dir(args)
    fields = list(next((r for r in results + sweep if not r["error"]), {"config": 0}).keys())
    with open(out / "hongkim_validation.csv", "w", newline="") as f:
        csv_writer(f, args, fields, extrasaction="ignore").writerows(results + sweep)
    write_markdown(out / "hongkim_validation.md", results, sweep, args)
    if not args.no_figures:
        cpi_figure(out / "fig_hongkim_cpi.png", results, args)
        scatter_figure(out / "fig_hongkim_scatter.png", results, args)
        if sweep:
            sweep_figure(out / "fig_hongkim_tiled_sweep.png", sweep, args)
    for config in CONFIG_FILES:
        for name, group in (("micro", MICRO), ("merge", MERGE)):
            rows_ = [r for r in results if r["config"] == config and r["workload"] in group]
            if rows_:
                print(f"{config:20} {name:6} geometric-mean CPI error {100 * geomean_error(rows_):5.1f}% "
                      f"(clamped {100 * geomean_error(rows_, 'predicted_cpi_clamped'):5.1f}%) over {len(rows_)}")
    print(f"wrote {out}/hongkim_validation.csv, .md{'' if args.no_figures else ', fig_hongkim_*.png'}; {len(failures)} failed runs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
