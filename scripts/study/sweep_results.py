"""The study scripts' runs: each study's specs in studies/<study>/ go through `gputlm sweep` (which
runs only what it has no result for: see README, "Sweeps"), and its results come back as the runs'
statistics keyed by (config label, workload name, size[, axis values...]).

A study's sweeps write to sweeps/<study>/<part>/ (sweeps/<study>-<size>/<part>/ with --size, e.g.
sweeps/lwm-test/runs/), its tables and figures to sweeps/<study>/results/ unless --out says
otherwise (`--out docs/results` refreshes the committed ones).
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GPUTLM = REPO / "build" / "bin" / "gputlm"
CONFIGS = REPO / "configs"
STUDIES = REPO / "studies"


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


def study_dir(study, size=None):
    """sweeps/<study>/ at the specs' size (study), or sweeps/<study>-<size>/ at another size."""
    return REPO / "sweeps" / (study if size in (None, "study") else f"{study}-{size}")


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


def run_sweep(spec, out, size=None, jobs=2, collect=False, fresh=False):
    """Runs `gputlm sweep SPEC --out OUT [--size S] --jobs N` (with collect: only reads OUT) and
    returns its Sweep. Failed runs are in its failures; gputlm's own refusals end the script."""
    if not collect:
        if not GPUTLM.exists():
            sys.exit(f"{GPUTLM.relative_to(REPO)} is missing: run scripts/build.sh first")
        cmd = [str(GPUTLM), "sweep", str(spec), "--out", str(out), "--jobs", str(jobs)]
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
    out = study_dir(study, args.size if resize else None) / part
    if any(v is not None for v in subset.values()) and not args.collect:
        spec = subset_spec(spec, out, **subset)
    size = args.size if resize and args.size not in (None, "study") else None
    return run_sweep(spec, out, size, args.jobs, args.collect, args.fresh)


def add_arguments(p, study):
    """The options every study script takes: --out, --jobs, --collect, --fresh (--size is each
    script's own)."""
    p.add_argument("--out", type=Path, default=None,
                   help=f"output directory (default sweeps/{study}/results/, sweeps/{study}-SIZE/results/ at another size; "
                   "--out docs/results refreshes the committed results)")
    p.add_argument("--jobs", type=int, default=2, help="simulations at once (default 2)")
    p.add_argument("--collect", action="store_true", help="run nothing: only read the sweeps' output directories")
    p.add_argument("--fresh", action="store_true", help="run every simulation again (gputlm sweep --fresh)")
    return p


def output_dir(args, study):
    out = Path(args.out) if args.out else study_dir(study, args.size) / "results"
    out.mkdir(parents=True, exist_ok=True)
    return out


def study_arguments(doc, study):
    """The command line of the DB and VGIW scripts: the common options and --test."""
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    add_arguments(p, study)
    p.add_argument("--test", action="store_true", help="test size (a quick check of the script, not the study)")
    args = p.parse_args()
    args.size = "test" if args.test else None
    return args


def print_failures(sweep_list):
    failures = {k: v for s in sweep_list for k, v in s.failures.items()}
    for key, error in failures.items():
        print(f"FAILED {' '.join(str(k) for k in key)}:\n{error}", file=sys.stderr)
    return failures
