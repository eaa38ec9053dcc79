#!/usr/bin/env python3
"""Checks the committed census tables (docs/results/census/*.csv and .md), as the suite's test census_tables does.

Usage: scripts/census/check_tables.py [TABLE_STEM ...]   (default: every .csv in docs/results/census)

A census runs fetched public code for hours, so the suite cannot run it again; it checks instead that each
table is whole and still describes what the scripts would make: the .md and .csv list the same rows and the same
count; every row that did not pass says why; each heading names a commit of this repository's history and the
command that made it; and the script that made it (with census_common.py) is unchanged since the latest commit the table
names (a change to it fails this check until the table is made again with the changed script). Exit 0 when all hold, 77 (skipped)
when the repository's history is not there to check against (a shallow clone), 1 with the first problem otherwise.
"""
import csv
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def git(*args):
    return subprocess.run(["git", "-C", REPO] + list(args), capture_output=True, text=True)


def check(stem):
    lines = open(stem + ".csv").read().splitlines()
    heads = [l[2:] for l in lines if l.startswith("# ")]
    rows = list(csv.DictReader([l for l in lines if not l.startswith("# ")]))
    md = open(stem + ".md").read()
    name = os.path.basename(stem)
    if not heads or not rows:
        return "%s.csv: no heading or no rows" % name
    what = list(rows[0].keys())[1]
    commits = []
    for h in heads:
        m = re.search(r"commit ([0-9a-f]{7,40}); made by: scripts/census/\S+\.py ", h)
        if not m:
            return "%s.csv: heading '%s' names no commit and command" % (name, h)
        commits.append(m.group(1))
    for r in rows:
        if r["passed"] not in ("yes", "no"):
            return "%s.csv: %s: passed is '%s'" % (name, r[what], r["passed"])
        if r["passed"] == "no" and not r["reason"].strip():
            return "%s.csv: %s did not pass and says not why" % (name, r[what])
        if "| %s | %s | %s | %s |" % (r["category"], r[what], r["target"], r["passed"]) not in md:
            return "%s.md lacks the row of %s in %s.csv" % (name, r[what], name)
    passed = sum(r["passed"] == "yes" for r in rows)
    count = "%d of %d eligible %ss pass" % (passed, len(rows), what)
    if count not in md:
        return "%s.md does not say '%s' (the count of %s.csv)" % (name, count, name)
    if md.count("\n| ") - md.count("\n|---") < len(rows):
        return "%s.md has fewer rows than %s.csv" % (name, name)
    if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        return None
    for c in commits:
        if git("merge-base", "--is-ancestor", c, "HEAD").returncode != 0:
            return "%s: commit %s is not in this repository's history" % (name, c)
    script = re.search(r"made by: (scripts/census/\S+\.py) ", heads[-1]).group(1)
    changed = git("diff", "--name-only", commits[-1], "HEAD", "--", script, "scripts/census/census_common.py").stdout.split()
    if changed:
        return ("%s was made at commit %s; since then %s changed: make the table again with the command in its "
                "heading" % (name, commits[-1], ", ".join(changed)))
    return None


def main():
    stems = sys.argv[1:] or sorted(p[:-4] for p in glob.glob(os.path.join(REPO, "docs", "results", "census", "*.csv")))
    if not stems:
        print("no census tables")
        return 1
    for stem in stems:
        problem = check(stem)
        if problem:
            print("census table: " + problem)
            return 1
        print("census table %s: whole and current" % os.path.basename(stem))
    if git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
        print("shallow clone: the commits the tables name could not be checked")
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
