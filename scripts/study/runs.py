"""Running gputlm for the study scripts: one simulation per (config, workload, size), its --stats
JSON cached under build/study_runs/ and reused while newer than the gputlm binary, the configs and
the workload's files; runs in parallel, failures collected with the tail of their output."""
import concurrent.futures
import os
import subprocess
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GPUTLM = REPO / "build" / "bin" / "gputlm"
CONFIGS = REPO / "configs"
RUN_CACHE = REPO / "build" / "study_runs"


def cache_valid(path, workload_dir, fresh, keep=False):
    """A cached run is valid while newer than everything it was made from (with keep: whenever it
    exists, for re-reading runs after a change that cannot have altered them)."""
    if fresh or not path.exists():
        return False
    if keep:
        return True
    inputs = [GPUTLM, *CONFIGS.rglob("*.json"), *(REPO / workload_dir).rglob("*")]
    return path.stat().st_mtime >= max(p.stat().st_mtime for p in inputs)


def run_one(config, workload_dir, size, dest, command="run", extra=()):
    """Runs one simulation (or `gputlm predict`) into dest, with `extra` command-line arguments;
    returns (seconds, error text or None)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.stem + ".part.json")
    cmd = [str(GPUTLM), command, "--config", str(config), "--workload", str(workload_dir),
           "--size", size, "--stats", str(part), *extra]
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode == 0 and part.exists():
        os.replace(part, dest)
        return seconds, None
    part.unlink(missing_ok=True)
    tail = "\n".join(proc.stdout.strip().splitlines()[-5:])
    return seconds, f"exit {proc.returncode}\n{proc.stderr.strip()}\n{tail}".strip()


def run_jobs(jobs, fresh, workers, keep=False):
    """jobs: {key: (config path, workload dir, size, stats path[, "predict"[, extra args]])}. Runs those without a
    valid cached result; returns ({key: stats path} of the results that exist, {key: error text})."""
    todo = {k: j for k, j in jobs.items() if not cache_valid(j[3], j[1], fresh, keep)}
    print(f"{len(jobs)} runs, {len(jobs) - len(todo)} cached, {len(todo)} to simulate "
          f"({workers} jobs)", flush=True)
    failures = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run_one, *job): key for key, job in todo.items()}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            key = futures[future]
            seconds, error = future.result()
            label = " ".join(str(k) for k in (key if isinstance(key, tuple) else (key,)))
            print(f"[{done}/{len(todo)}] {label:40} {seconds:6.1f} s {'ok' if error is None else 'FAILED'}",
                  flush=True)
            if error is not None:
                failures[key] = error
    return {k: j[3] for k, j in jobs.items() if k not in failures and j[3].exists()}, failures


def study_arguments(doc):
    """The command line every study script takes (its docstring's first line as the description)."""
    import argparse
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("--out", default=str(REPO / "docs" / "results"))
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--fresh", action="store_true", help="re-run every simulation")
    p.add_argument("--keep-cached", action="store_true", help="use every cached simulation even if older than gputlm")
    p.add_argument("--test", action="store_true", help="test sizes (a quick check of the script, not the study)")
    return p.parse_args()


def patched_config(label, preset, section, patch, tmp):
    """The preset itself when patch is None, else a config in tmp that patches its `section`."""
    import json
    if patch is None:
        return CONFIGS / preset
    path = Path(tmp) / f"{label}.json"
    path.write_text(json.dumps({"base": str(CONFIGS / preset), "name": label, section: patch}, indent=1))
    return path
