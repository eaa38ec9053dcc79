#!/usr/bin/python3
"""Runs a study at test size and compares its CSVs with the committed ones, exactly.

    reproduce.py STUDY [--gputlm PATH] [--jobs N]

STUDY is lwm, db, vgiw or hongkim. The study script runs with --size test --no-figures into a fresh
temporary directory (its sweeps too, so no cached result is reused) and each CSV it writes must
equal tests/data/studies/STUDY/'s of the same name line for line, the provenance line ('#') aside.
Exit 0 when they do; 1 with, per file, the rows that differ (key columns and the columns that
differ, committed -> now) and the command that regenerates the committed results; 77 (skipped) in
the sanitizer pass (GPUTLM_SANITIZER_PASS=1), where the runs are too slow.
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep_results import GPUTLM, REPO, read_csv  # noqa: E402

SCRIPTS = {"lwm": "lwm_study.py", "db": "db_study.py", "vgiw": "vgiw_study.py", "hongkim": "hongkim_validation.py"}
TEST_SIZE = ["--size", "test", "--no-figures"]
MAX_ROWS = 20  # differing rows shown per file


def committed_dir(study):
    return Path("tests") / "data" / "studies" / study


def regenerate_command(study):
    """The one command that makes the committed results (the study's own provenance has it so)."""
    return shlex.join([f"scripts/study_{study}.sh", *TEST_SIZE, "--out", str(committed_dir(study))])


def key_columns(header, *tables):
    """The shortest leading run of columns that tells every row of each table apart (None: none does)."""
    for n in range(1, len(header) + 1):
        if all(len({tuple(r.get(c) for c in header[:n]) for r in t}) == len(t) for t in tables):
            return header[:n]
    return None


def differences(committed, now):
    """Lines saying how the CSV `now` differs from the committed one (none when equal): the columns
    when they differ, then the rows by their key columns, in the columns both have."""
    _, head_c, rows_c = read_csv(committed)
    _, head_n, rows_n = read_csv(now)
    if (head_c, rows_c) == (head_n, rows_n):
        return []
    out = []
    if head_c != head_n:
        out.append(f"  columns: committed {','.join(head_c)}\n           now       {','.join(head_n)}")
    columns = [c for c in head_c if c in head_n]
    table_c = [dict(zip(head_c, r)) for r in rows_c]
    table_n = [dict(zip(head_n, r)) for r in rows_n]
    keys = key_columns(columns, table_c, table_n)

    def key(i, r):
        return tuple(r[c] for c in keys) if keys else (i,)

    def name(k):
        return " ".join(f"{c}={v}" for c, v in zip(keys, k)) if keys else f"row {k[0] + 1}"

    def cell(v):
        return v if v != "" else '""'

    by_c = {key(i, r): r for i, r in enumerate(table_c)}
    by_n = {key(i, r): r for i, r in enumerate(table_n)}
    rows = []
    for k in list(by_c) + [k for k in by_n if k not in by_c]:
        if k not in by_n:
            rows.append(f"  {name(k)}: only in the committed file")
        elif k not in by_c:
            rows.append(f"  {name(k)}: only now")
        else:
            changed = [f"{c} {cell(by_c[k][c])} -> {cell(by_n[k][c])}" for c in columns if by_c[k][c] != by_n[k][c]]
            if changed:
                rows.append(f"  {name(k)}: " + ", ".join(changed))
    if rows:
        out.append(f"  {len(rows)} rows differ (committed -> now; {len(rows_c)} rows committed, {len(rows_n)} now)")
    elif head_c == head_n:
        out.append("  the same rows in another order")
    out += rows[:MAX_ROWS] + ([f"  ... and {len(rows) - MAX_ROWS} more"] if len(rows) > MAX_ROWS else [])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("study", choices=list(SCRIPTS))
    ap.add_argument("--gputlm", default=str(GPUTLM), help="the simulator (default build/bin/gputlm)")
    ap.add_argument("--jobs", type=int, default=2, help="simulations at once (default 2)")
    args = ap.parse_args()
    if os.environ.get("GPUTLM_SANITIZER_PASS") == "1":
        print("sanitizer pass: the study's runs are too slow under the sanitizers; skipped")
        return 77
    expected = REPO / committed_dir(args.study)
    with tempfile.TemporaryDirectory(prefix=f"reproduce-{args.study}-") as tmp:
        out = Path(tmp) / "results"
        cmd = [sys.executable, str(REPO / "scripts" / "study" / SCRIPTS[args.study]), *TEST_SIZE, "--out", str(out),
               "--sweeps", str(Path(tmp) / "sweeps"), "--gputlm", args.gputlm, "--jobs", str(args.jobs)]
        start = time.monotonic()
        run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
        seconds = time.monotonic() - start
        if run.returncode != 0:
            tail = (run.stdout + run.stderr).splitlines()[-30:]
            print(f"{shlex.join(cmd)}: exit {run.returncode}\n" + "\n".join(tail))
            return 1
        names = sorted({p.name for p in expected.glob("*.csv")} | {p.name for p in out.glob("*.csv")})
        failed = False
        for name in names:
            if not (expected / name).exists() or not (out / name).exists():
                where = "committed" if (expected / name).exists() else "made now"
                print(f"{name}: only {where}")
                failed = True
                continue
            diff = differences(expected / name, out / name)
            print("\n".join([f"{name}: " + ("differs from the committed one" if diff else "as committed"), *diff]))
            failed = failed or bool(diff)
    if failed or not names:
        print(f"\nThe {args.study} study's test-size results are not the committed ones ({committed_dir(args.study)}/). "
              "If the change is meant, regenerate them and review the difference before committing:\n"
              f"  {regenerate_command(args.study)}")
        return 1
    print(f"{args.study}: {len(names)} CSV file(s) as committed (the study ran in {seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
