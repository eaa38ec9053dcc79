#!/usr/bin/env python3
"""Fails when an #include runs against the layer order of scripts/layers.txt.

Every C++/CUDA source under the folders that file lists belongs to the folder with the longest
matching prefix. A file may include files of its own folder and of folders in lower layers (earlier
lines); an include of a folder in the same or a higher layer, or of a source in no listed folder,
is reported with file and line. With --graph, prints the folder-level include graph and its cycles
(strongly connected groups) instead of checking.
"""
import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def read_layers(path):
    layers = []
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if line:
            layers.append(line)
    return layers


def folder_of(path, folders):
    best = None
    for f in folders:
        if (path == f or path.startswith(f + '/')) and (best is None or len(f) > len(best)):
            best = f
    return best


def resolve(root, src, target, search):
    for base in [os.path.dirname(src)] + search:
        p = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def sccs(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..'))
    ap.add_argument('--layers', help='the layer list (default: ROOT/scripts/layers.txt)')
    ap.add_argument('--graph', action='store_true', help='print the folder graph and its cycles')
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    layers = read_layers(args.layers or os.path.join(root, 'scripts', 'layers.txt'))
    rank = {f: i for i, line in enumerate(layers) for f in line}
    folders = list(rank)
    files = subprocess.check_output(['git', '-C', root, 'ls-files', '*.h', '*.cpp', '*.cu', '*.cuh'],
                                    text=True).split()
    search = ['.', 'tests']  # the include directories: the repository root, and tests/ for tests/
    graph, problems, checked = {}, [], 0
    for f in files:
        src = folder_of(f, folders)
        if src is None:
            continue
        checked += 1
        with open(os.path.join(root, f), errors='replace') as fh:
            for line_no, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, f, m.group(1), search)
                if target is None:
                    continue  # generated (build/) or outside the repository
                dst = folder_of(target, folders)
                if dst == src:
                    continue
                if dst is None:
                    problems.append(f'{f}:{line_no}: includes {target}, which is in no layer of '
                                    'scripts/layers.txt')
                    continue
                graph.setdefault(src, set()).add(dst)
                if rank[dst] >= rank[src]:
                    how = 'the same layer as' if rank[dst] == rank[src] else 'a higher layer than'
                    problems.append(f'{f}:{line_no}: {src} includes {target}: {dst} is in {how} {src}')
    if args.graph:
        for src in sorted(graph):
            print(f'{src} -> {" ".join(sorted(graph[src]))}')
        groups = sccs(graph)
        print(f'{len(groups)} folder-level include cycles' + ''.join(f'\n  {" <-> ".join(g)}' for g in groups))
        return 0
    for p in problems:
        print(p)
    if problems:
        print(f'check_layers: {len(problems)} includes against scripts/layers.txt')
        return 1
    print(f'check_layers: {checked} files in {len(folders)} folders follow the layer order')
    return 0


if __name__ == '__main__':
    sys.exit(main())
