#!/usr/bin/env python3
"""Fails on a dead link in the repository's documents or a citation of one that does not exist.

Checks, in every tracked file:
  - Markdown files: each relative link [text](path[#anchor]) names a file or folder of the
    repository, and its anchor (or a bare #anchor) a heading of that file (GitHub's heading ids).
  - Source, scripts, build files and Markdown: each document named in the text (a path ending in
    .md, such as traces/FORMAT.md) exists, taken from the repository root or from the citing file's
    folder (a bare file name: anywhere in the repository); and each section cited as a document's
    name followed by a heading in double quotes is a heading of that document.

Usage: scripts/check_docs.py [--root DIR]    (exit 0: all good; 1: each problem on its own line)
"""
import argparse
import os
import re
import subprocess
import sys

SOURCE_SUFFIXES = (".h", ".cpp", ".py", ".sh", ".cmake", ".txt", ".md", ".json", ".def", ".cu")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
DOC_NAME = re.compile(r"(?<![\w./%}{-])((?:\.\./)*/?[\w./-]*[\w-]+\.md)\b")
SECTION = re.compile(r"(?<![\w./-])(README|[\w./-]+\.md),? \"([^\"]+)\"")


def tracked_files(root):
    """The files git tracks (with the new ones not yet committed); outside a git checkout, every file
    but the build folders."""
    r = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                       capture_output=True, text=True)
    if r.returncode == 0:
        return [f for f in r.stdout.split("\0") if f and os.path.exists(os.path.join(root, f))]
    found = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
        found += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return found


def slug(heading):
    """GitHub's id for a heading: lower case, markup and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|\*|_(?=\W)|(?<=\W)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(path):
    """The ids of a Markdown file's headings (outside code blocks), with GitHub's -1, -2 for repeats."""
    ids, seen, fence = set(), {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            base = slug(line.split(" ", 1)[1])
            n = seen.get(base, 0)
            seen[base] = n + 1
            ids.add(base if n == 0 else f"{base}-{n}")
    return ids


def heading_titles(path):
    """A Markdown file's section titles: its headings and its bold paragraph leads (**Title.**)."""
    fence, titles = False, []
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#{1,6} ", line):
            titles.append(line.split(" ", 1)[1].strip().strip("`"))
        elif not fence:
            titles += re.findall(r"^(?:- )?\*\*([^*]+?)\.?\*\*", line)
    return titles


def check(root):
    problems = []
    files = tracked_files(root)
    present = set(files) | {os.path.dirname(f) for f in files}
    for d in list(present):
        while d:
            d = os.path.dirname(d)
            present.add(d)

    def exists(rel):
        rel = os.path.normpath(rel)
        return rel in present or os.path.exists(os.path.join(root, rel))

    basenames = {}
    for f in sorted(files, key=len):
        basenames.setdefault(os.path.basename(f), f)

    def resolve(doc, citing):
        doc = doc.lstrip("/")
        for base in (os.path.dirname(citing), ""):
            rel = os.path.normpath(os.path.join(base, doc))
            if not rel.startswith("..") and exists(rel):
                return rel
        return basenames.get(doc) if "/" not in doc else None

    for f in files:
        if not f.endswith(SOURCE_SUFFIXES) or f.startswith(("tests/data/", "docs/results/")):
            continue
        path = os.path.join(root, f)
        if not os.path.isfile(path):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        lines = text.split("\n")
        fence = False
        for no, line in enumerate(lines, 1):
            if f.endswith(".md") and line.startswith("```"):
                fence = not fence
            elif f.endswith(".md") and not fence:
                for m in LINK.finditer(line):
                    target = m.group(1) or m.group(2)
                    if re.match(r"[a-z]+:", target):
                        continue
                    file_part, _, anchor = target.partition("#")
                    rel = os.path.normpath(os.path.join(os.path.dirname(f), file_part)) if file_part else f
                    if rel.startswith("..") or not exists(rel):
                        problems.append(f"{f}:{no}: link to {target}: no such file")
                    elif anchor and rel.endswith(".md") and anchor not in headings(os.path.join(root, rel)):
                        problems.append(f"{f}:{no}: link to {target}: {rel} has no heading #{anchor}")
            for m in DOC_NAME.finditer(line):
                doc = m.group(1)
                if "<" in doc or doc.startswith(("http", "OUT")) or "/tmp/" in doc:
                    continue
                if resolve(doc, f) is None:
                    problems.append(f"{f}:{no}: cites {doc}, which does not exist")
            for m in SECTION.finditer(line):
                doc, section = m.group(1), m.group(2)
                rel = resolve("README.md" if doc == "README" else doc, f)
                if rel is None:
                    continue  # reported above when it names a file
                if not any(section.lower() in t.lower() for t in heading_titles(os.path.join(root, rel))):
                    problems.append(f"{f}:{no}: cites {doc} \"{section}\": {rel} has no such heading")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    root = os.path.abspath(ap.parse_args().root)
    problems = check(root)
    for p in problems:
        print(p)
    print(f"check_docs: {len(problems)} problem(s)" if problems else "check_docs: every link and cited document exists")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
