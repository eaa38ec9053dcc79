"""The study scripts' runs: each study's specs in studies/<study>/ go through `gputlm sweep` (which
runs only what it has no result for: see docs/user-guide/sweeps-and-slurm.md), and its results come back as the runs'
statistics keyed by (config label, workload name, size[, axis values...]).

A study's sweeps write to sweeps/<study>/<part>/ (sweeps/<study>-<size>/<part>/ with --size, e.g.
sweeps/lwm-test/runs/; under --sweeps DIR instead of sweeps/ when given), its tables and figures to
sweeps/<study>/results/ unless --out says otherwise (`--out docs/results` refreshes the committed
ones). Every CSV, markdown file and figure a study writes carries its provenance: the commit and
the one command, as typed at the repository's root, that makes it again.
"""
import argparse
import csv
import json
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GPUTLM = REPO / "build" / "bin" / "gputlm"
CONFIGS = REPO / "configs"
STUDIES = REPO / "studies"
SWEEPS = REPO / "sweeps"
SIZES = ["study", "test"]
# Options that change nothing a study writes: left out of the command in its provenance.
NOT_IN_COMMAND = {"jobs", "collect", "fresh", "test"}


class Sweep:
    """One spec's runs, read from its output directory: stats[key] (the --stats JSON), dirs[key]
    (runs/<id>/, where extra outputs such as dram.csv are), failures[key] (the run's last output
    lines). key = (config label, workload name, size, *axis values in the manifest's order)."""

    def __init__(self, out):
        self.out = Path(out)
        manifest = json.loads((self.out / "manifest.json").read_text())
        self.axis_keys = manifest["axis_keys"]
        self.stats, self.dirs, self.failures = {}, {}, {}
        for run in manifest["runs"]:
            key = (run["config"], run["workload"].split("/")[-1], run["size"],
                   *(run["axes"].get(k) for k in self.axis_keys))
            d = self.out / "runs" / run["id"]
            result = json.loads((d / "result.json").read_text()) if (d / "result.json").exists() else None
            if result is not None and result["status"] == "ok" and (d / "stats.json").exists():
                self.stats[key] = json.loads((d / "stats.json").read_text())
                self.dirs[key] = d
            else:
                tail = "\n".join(result["tail"][-5:]) if result else ""
                self.failures[key] = (f"{result['status']}: see {d / 'log.txt'}\n{tail}" if result else "not run")


def spec_configs(study, part, aliases=None):
    """The configs of studies/<study>/<part>.json as {label: (preset file name, the merge patch
    over it or None)}: a config file's label is its "name" (or aliases[name])."""
    aliases = aliases or {}
    out = {}
    for c in json.loads((STUDIES / study / f"{part}.json").read_text())["configs"]:
        if isinstance(c, str):
            name = json.loads((STUDIES / study / c).read_text())["name"]
            out[aliases.get(name, name)] = (Path(c).name, None)
        else:
            out[c["name"]] = (Path(c["base"]).name, {k: v for k, v in c.items() if k not in ("name", "base")} or None)
    return out


def study_dir(study, size=None, root=SWEEPS):
    """root/<study>/ at the specs' size (study), or root/<study>-<size>/ at another size."""
    return Path(root) / (study if size in (None, "study") else f"{study}-{size}")


def subset_spec(spec, out, configs=None, workloads=None):
    """A copy of `spec` in `out` with only the configs labelled `configs` and the workloads named
    `workloads` (None: all), its paths made absolute; returns its path."""
    s = json.loads(Path(spec).read_text())
    base = Path(spec).resolve().parent

    def absolute(p):
        return str((base / p).resolve())

    def label(c):
        return c["name"] if isinstance(c, dict) else json.loads(Path(absolute(c)).read_text())["name"]

    kept = []
    for c in s["configs"]:
        if configs is None or label(c) in configs:
            kept.append(absolute(c) if isinstance(c, str) else
                        dict(c, base=absolute(c["base"])) if "base" in c else c)
    s["configs"] = kept
    s["workloads"] = [absolute(w) for w in s["workloads"] if workloads is None or Path(w).name in workloads]
    path = Path(out) / "subset-spec.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(s, indent=1) + "\n")
    return path


def run_sweep(spec, out, size=None, jobs=2, collect=False, fresh=False, gputlm=GPUTLM):
    """Runs `GPUTLM sweep SPEC --out OUT [--size S] --jobs N` (with collect: only reads OUT) and
    returns its Sweep. Failed runs are in its failures; gputlm's own refusals end the script."""
    if not collect:
        if not Path(gputlm).exists():
            sys.exit(f"{shown(gputlm)} is missing: run scripts/build.sh first")
        cmd = [str(gputlm), "sweep", str(spec), "--out", str(out), "--jobs", str(jobs)]
        cmd += ["--size", size] if size else []
        cmd += ["--fresh"] if fresh else []
        print("$", " ".join(str(Path(c).relative_to(REPO)) if c.startswith(str(REPO)) else c for c in cmd), flush=True)
        if subprocess.run(cmd, cwd=REPO).returncode not in (0, 1):  # 1: some runs failed (their failures are read)
            sys.exit(f"gputlm sweep {spec} failed")
    if not (Path(out) / "manifest.json").exists():
        sys.exit(f"{out}: no sweep results (run without --collect first)")
    return Sweep(out)


def study_sweep(study, part, args, resize=True, **subset):
    """The sweep of studies/<study>/<part>.json at args.size (with resize; else at the spec's own
    sizes) into the study's directory: its Sweep. subset: configs=..., workloads=... (subset_spec)."""
    spec = STUDIES / study / f"{part}.json"
    out = study_dir(study, args.size if resize else None, args.sweeps) / part
    if any(v is not None for v in subset.values()) and not args.collect:
        spec = subset_spec(spec, out, **subset)
    size = args.size if resize and args.size not in (None, "study") else None
    return run_sweep(spec, out, size, args.jobs, args.collect, args.fresh, args.gputlm)


def study_parser(doc):
    """A study script's command line, to which it adds its own options: --size (--test for short)."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--size", default="study", choices=SIZES,
                   help="workload size: study (default) or test (a quick check of the script, not the study)")
    p.add_argument("--test", action="store_true", help="the same as --size test")
    return p


def parse_study_args(p, study):
    """Adds the options every study script takes and parses the command line. The result also
    holds args.out (made absolute), args.sweeps, args.gputlm, and args.commit and args.command
    (the provenance)."""
    p.add_argument("--no-figures", action="store_true", help="write the CSV and markdown only (no matplotlib)")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help=f"output directory (default sweeps/{study}/results/, sweeps/{study}-SIZE/results/ at another "
                   "size; --out docs/results refreshes the committed results)")
    p.add_argument("--sweeps", type=Path, default=None, metavar="DIR",
                   help="where the sweeps' run directories go (default sweeps/): DIR/<study>[-SIZE]/<part>/")
    p.add_argument("--gputlm", type=Path, default=None, metavar="PATH", help="the simulator (default build/bin/gputlm)")
    p.add_argument("--jobs", type=int, default=2, metavar="N", help="simulations at once (default 2)")
    p.add_argument("--collect", action="store_true", help="run nothing: only read the sweeps' output directories")
    p.add_argument("--fresh", action="store_true", help="run every simulation again (gputlm sweep --fresh)")
    args = p.parse_args()
    if args.test:
        args.size = "test"
    args.command = study_command(p, args, study)
    args.sweeps = (args.sweeps or SWEEPS).resolve()
    args.gputlm = (args.gputlm or GPUTLM).resolve()
    args.out = (args.out or study_dir(study, args.size, args.sweeps) / "results").resolve()
    args.commit = git_commit(args.out)
    return args


def in_repo(path):
    """path relative to the repository's root, or None when it is outside."""
    try:
        return Path(path).resolve().relative_to(REPO)
    except ValueError:
        return None


def shown(path):
    """A path as a command typed at the repository's root gives it: relative to the root when it
    is inside, else as given."""
    inside = in_repo(path)
    return str(path) if inside is None else str(inside)


def study_command(p, args, study):
    """The one command that makes the study's outputs again: scripts/study_<study>.sh and every
    option that is not its default, but those that change nothing written (NOT_IN_COMMAND)."""
    words = [f"scripts/study_{study}.sh"]
    for dest, value in vars(args).items():
        if dest in NOT_IN_COMMAND or value == p.get_default(dest):
            continue
        words.append("--" + dest.replace("_", "-"))
        if not isinstance(value, bool):
            words += [shown(v) if isinstance(v, Path) else str(v) for v in (value if isinstance(value, list) else [value])]
    return shlex.join(words)


def git_commit(out):
    """HEAD's commit (12 hex digits), with " (with uncommitted changes)" when a tracked file
    outside the output directory `out` differs from it; "unknown" outside a git checkout."""
    def git(*a):
        return subprocess.run(["git", *a], cwd=REPO, capture_output=True, text=True, check=True).stdout
    try:
        head = git("rev-parse", "HEAD").strip()[:12]
        entries = git("status", "--porcelain", "-z", "--untracked-files=no").split("\0")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    changed, i = [], 0
    while i < len(entries):  # "XY path", a rename's or copy's source as the entry after it
        if entries[i]:
            changed.append(entries[i][3:])
            if entries[i][0] in "RC":
                changed.append(entries[i + 1])
                i += 1
        i += 1
    inside = in_repo(out)
    outside = [f for f in changed if inside is None or not Path(f).is_relative_to(inside)]
    return head + (" (with uncommitted changes)" if outside else "")


def output_dir(args):
    args.out.mkdir(parents=True, exist_ok=True)
    return args.out


def provenance(args):
    """The provenance of every output: a CSV's first line (after "# ") and a figure's footer."""
    return f"made at commit {args.commit} by: {args.command}"


def markdown_provenance(args):
    """The line under a study's markdown title."""
    return f"Made at commit {args.commit} by `{args.command}`."


def figure_link(args, alt, file):
    """A markdown image line for a figure the study writes ("" with --no-figures: none is written)."""
    return "" if args.no_figures else f"![{alt}]({file})"


def csv_writer(f, args, fieldnames, **options):
    """A csv.DictWriter on the open file f, the provenance line ("# made at commit ...") and the
    header written. Readers of a study's CSV skip the lines starting with '#' (read_csv)."""
    f.write(f"# {provenance(args)}\n")
    writer = csv.DictWriter(f, fieldnames=fieldnames, **options)
    writer.writeheader()
    return writer


def read_csv(path):
    """(provenance line or None, header, rows as lists of strings) of a CSV a study wrote."""
    with open(path, newline="") as f:
        lines = f.readlines()
    comments = [l.rstrip("\n") for l in lines if l.startswith("#")]
    table = list(csv.reader(l for l in lines if not l.startswith("#")))
    return (comments[0] if comments else None), (table[0] if table else []), table[1:]


def pyplot():
    """matplotlib.pyplot on the Agg backend, imported at the first figure (never with --no-figures)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save_figure(fig, path, args, **options):
    """Writes fig to path with its provenance in a small grey footer below everything drawn and
    in the PNG's metadata ("Source"), then closes it."""
    plt = pyplot()
    box = fig.get_tightbbox(fig.canvas.get_renderer())  # inches
    fig.text(box.x0 / fig.get_figwidth(), (box.y0 - 0.05) / fig.get_figheight(), provenance(args),
             ha="left", va="top", fontsize=7, color="grey")
    fig.savefig(path, bbox_inches="tight", metadata={"Source": provenance(args)}, **options)
    plt.close(fig)


def print_failures(sweep_list):
    failures = {k: v for s in sweep_list for k, v in s.failures.items()}
    for key, error in failures.items():
        print(f"FAILED {' '.join(str(k) for k in key)}:\n{error}", file=sys.stderr)
    return failures
