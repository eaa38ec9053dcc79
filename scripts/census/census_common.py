"""What the censuses of public CUDA code share (cuda_samples.py, cccl_examples.py): building for the lowest
target that compiles, a config whose device reports that target's compute capability, running a program under
`gputlm cuda` with a time limit, reading why it failed, and writing the table (OUT.md and OUT.csv, headed by
the commit and the command that made them)."""
import csv
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

ARCHS = [75, 80, 86, 89, 90]
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # defaults are paths in it


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_lowest(commands, archs, exe):
    """Runs commands(arch) (a list of nvcc command lines) for each target in turn until all succeed. Returns
    (arch, "") or (None, the last line nvcc printed)."""
    last = ""
    arch_file = exe + ".arch"
    for arch in archs:
        r = None
        for cmd in commands(arch):
            r = sh(cmd)
            if r.returncode != 0:
                break
        if r is not None and r.returncode == 0:
            open(arch_file, "w").write(str(arch))
            return arch, ""
        last = ((r.stderr if r else "").strip().splitlines() or ["nvcc failed"])[-1]
    return None, last


def built_before(exe, archs):
    """The target an earlier run built exe for (--reuse), if it is one of archs."""
    arch_file = exe + ".arch"
    if os.path.exists(exe) and os.path.exists(arch_file) and int(open(arch_file).read()) in archs:
        return int(open(arch_file).read())
    return None


# The watchdog's limit in the census configs: public samples are known to end, so a long kernel is not
# taken for an endless loop; the time limit (run_program) bounds every run instead.
CENSUS_MAX_WARP_INSTRUCTIONS = 10**15


def device_configs(config, out_dir):
    """Copies of the config whose device reports the compute capability of each target sm_ARCH (files it
    names are made absolute, as they were relative to the original) and whose watchdog is lifted
    (CENSUS_MAX_WARP_INSTRUCTIONS): {arch: path}."""
    paths = {}
    for arch in ARCHS:
        c = json.load(open(config))
        c.setdefault("device", {})["compute_capability"] = "%d.%d" % (arch // 10, arch % 10)
        c["max_warp_instructions"] = CENSUS_MAX_WARP_INSTRUCTIONS
        if isinstance(c.get("energy"), str):
            c["energy"] = os.path.join(os.path.dirname(config), c["energy"])
        paths[arch] = os.path.join(out_dir, "config_sm_%d.json" % arch)
        json.dump(c, open(paths[arch], "w"), indent=1)
    return paths


def run_program(gputlm, config, functional, timeout, argv, cwd):
    """Runs argv under `gputlm cuda --time-limit TIMEOUT` (a run it stops ends with exit 2 and gputlm's line
    naming the launch and the engine's speed). Returns (exit status or None when the process outlives the
    limit by a minute, stdout, stderr, seconds)."""
    cmd = [gputlm, "cuda", "--config", config, "--time-limit", str(timeout)] + (["--functional"] if functional else []) + ["--"] + argv
    start = time.time()
    # A session of its own: on a timeout the whole group goes (gputlm and the program it started).
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, "", "", time.time() - start
    return p.returncode, out, err, time.time() - start


def failure(rc, out, err, timeout):
    """Why a run did not pass: gputlm's own line (what it is missing), a timeout, or the program's last words."""
    if rc is None:
        return "timeout after %d s (the time limit did not stop it)" % (timeout + 60)
    ours = [l for l in err.splitlines() if l.startswith("gputlm cuda: ")]
    if ours:
        return ours[0][len("gputlm cuda: "):]
    tail = (out.strip().splitlines() or err.strip().splitlines() or ["(no output)"])[-1]
    why = "the sample waived itself (EXIT_WAIVED): " if rc == 2 else "its check failed (exit %d): " % rc
    return why + tail.strip()


def waived_for_capability(why):
    return why.startswith("the sample waived itself") and re.search(r"SM ?\d|[Cc]ompute [Cc]apability|sm_?\d", why)


def census_row(category, name, build, run):
    """Builds (build(archs) -> (exe, arch, nvcc's last line)) and runs (run(exe, arch) -> (passed, why, seconds))
    one program at the lowest target that compiles it; one that waives itself for want of a higher compute
    capability is built and run again for the next target. Prints and returns its row of the table."""
    archs, result, err = ARCHS, None, ""  # result: (arch, passed, why, seconds) of the last run
    while archs:
        exe, arch, err = build(archs)
        if not exe:
            break
        ok, why, seconds = run(exe, arch)
        result = (arch, ok, why, seconds)
        archs = [x for x in ARCHS if x > arch] if not ok and waived_for_capability(why) else []
    if not result:
        row = dict(category=category, name=name, target="", passed="no", seconds="", reason="does not build: " + err)
    else:
        arch, ok, why, seconds = result
        row = dict(category=category, name=name, target="sm_%d" % arch, passed="yes" if ok else "no",
                   seconds="%.1f" % seconds, reason=why)
    print("%-36s %-5s %s" % (name, row["passed"], row["reason"]), flush=True)
    return row


def earlier_table(out, what):
    """The heading lines and rows of the OUT.csv an earlier run wrote."""
    lines = open(out + ".csv").read().splitlines()
    rows = csv.DictReader([l for l in lines if not l.startswith("# ")])
    return [l[2:] for l in lines if l.startswith("# ")], [{("name" if k == what else k): v for k, v in r.items()} for r in rows]


def write_tables(out, title, source_name, source_path, config, functional, rows, excluded, what, update=False):
    """OUT.csv and OUT.md: every row (category, name, target, passed, seconds, reason; `name` is called what
    the rows are: "sample", "example"), the exclusions and the count, headed by the commit and the command (the
    fetched checkout's path replaced by source_name). With update, the rows of this run replace those of the
    same name in the earlier OUT.csv, whose other rows stay, and the heading gives both commands."""
    here = os.path.dirname(os.path.abspath(__file__))
    commit = sh(["git", "-C", here, "rev-parse", "--short", "HEAD"]).stdout.strip()
    root = sh(["git", "-C", here, "rev-parse", "--show-toplevel"]).stdout.strip() + "/"
    args = [source_name if x == source_path else x.replace(root, "") for x in sys.argv[1:]]
    command = os.path.join("scripts/census", os.path.basename(sys.argv[0])) + " " + " ".join(shlex.quote(x) for x in args)
    heads = ["commit %s; made by: %s" % (commit, command)]
    if update and os.path.exists(out + ".csv"):
        earlier_heads, earlier = earlier_table(out, what)
        names = " ".join(r["name"] for r in rows)
        fresh = {r["name"]: r for r in rows}
        rows = [fresh.pop(r["name"], r) for r in earlier] + list(fresh.values())
        heads = earlier_heads + ["then %s again: %s" % (names, heads[0])]
    passed = sum(r["passed"] == "yes" for r in rows)
    with open(out + ".csv", "w", newline="") as f:
        f.write("".join("# " + h + "\n" for h in heads))
        w = csv.DictWriter(f, fieldnames=["category", what, "target", "passed", "seconds", "reason"])
        w.writeheader()
        w.writerows({(what if k == "name" else k): v for k, v in r.items()} for r in rows)
    with open(out + ".md", "w") as f:
        f.write("# %s under gputlm cuda\n\n%s\n\n" % (title, "\n\n".join(heads)))
        f.write("%d of %d eligible %ss pass (%.0f%%) on %s%s.\n\n" % (
            passed, len(rows), what, 100.0 * passed / max(len(rows), 1), os.path.basename(config),
            ", functional" if functional else ""))
        f.write("| category | %s | target | passed | seconds | reason |\n|---|---|---|---|---:|---|\n" % what)
        for r in rows:
            f.write("| %s | %s | %s | %s | %s | %s |\n" % (r["category"], r["name"], r["target"], r["passed"], r["seconds"],
                                                      r["reason"].replace("|", "\\|")))
        f.write("\nExcluded (%d):\n\n| category | %s | why |\n|---|---|---|\n" % (len(excluded), what))
        for c, n, why in excluded:
            f.write("| %s | %s | %s |\n" % (c, n, why))
    print("%d of %d eligible %ss pass; %d excluded; %s.md" % (passed, len(rows), what, len(excluded), out))
