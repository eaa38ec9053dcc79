#!/usr/bin/env python3
"""Checks the committed silicon validations (docs/results/validate_*/ with a validate.csv whose README
names its commit and config), as the suite's test validation_results does.

Usage: scripts/check_validation.py [FOLDER ...]   (default: every docs/results/validate_*/ holding one)

A validation runs fetched programs for hours, so the suite cannot run it again; it checks instead that
each is whole and still of the preset it names: validate.md has a row for every kernel of validate.csv
with its simulated and measured cycles; the README names the commit the statistics were made at
("statistics made at gputlm COMMIT") and the config ("--config configs/NAME.json"); that commit is in
this repository's history and the config file is unchanged since it (a change to the preset fails this
check until the validation is made again). Exit 0 when all hold, 77 (skipped) when the history is not
there to check against (a shallow clone), 1 with the first problem otherwise.
"""
import csv
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def git(*args):
    return subprocess.run(["git", "-C", REPO] + list(args), capture_output=True, text=True)


def check(folder):
    name = os.path.relpath(folder, REPO)
    rows = list(csv.DictReader(open(os.path.join(folder, "validate.csv"))))
    md = open(os.path.join(folder, "validate.md")).read()
    readme = open(os.path.join(folder, "README.md")).read()
    kernels = [r for r in rows if r["kernel"] and r["sim_cycles"]]
    if not kernels:
        return "%s/validate.csv: no kernel compared" % name
    for r in kernels:
        cells = "| %.1f | %.1f |" % (float(r["sim_cycles"]), float(r["hw_cycles"]))
        if "| %s |" % r["program"] not in md or cells not in md:
            return "%s/validate.md lacks %s's %s (%s)" % (name, r["program"], r["kernel"], cells)
    commit = re.search(r"statistics made at gputlm ([0-9a-f]{7,40})", readme)
    config = re.search(r"--config (configs/[\w.-]+\.json)", readme)
    if not commit or not config:
        return "%s/README.md does not name the commit and the config the statistics were made with" % name
    if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        return None
    if git("merge-base", "--is-ancestor", commit.group(1), "HEAD").returncode != 0:
        return "%s: commit %s is not in this repository's history" % (name, commit.group(1))
    if git("diff", "--quiet", commit.group(1), "HEAD", "--", config.group(1)).returncode != 0:
        return ("%s: %s changed since %s, the commit its statistics were made at: run the validation "
                "again (its README has the command)" % (name, config.group(1), commit.group(1)))
    return None


def main():
    folders = sys.argv[1:] or sorted(
        os.path.dirname(p) for p in glob.glob(os.path.join(REPO, "docs/results/validate_*/README.md"))
        if os.path.exists(os.path.join(os.path.dirname(p), "validate.md")))
    shallow = git("rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    for f in folders:
        problem = check(os.path.abspath(f))
        if problem:
            print("check_validation: " + problem)
            return 1
        print("check_validation: %s ok" % os.path.relpath(f, REPO))
    return 77 if shallow else 0


if __name__ == "__main__":
    sys.exit(main())
