"""Where an index-search run's cycles go, from its DRAM trace (gputlm run --dram-trace) and its
cycle count: the account behind db_study.md's "Index search: where the cycles go".

Bank side. Every cycle of the kernel, each of the channel's banks is in one state (first that holds):
  busy      serving an access (a request's start to its data's end)
  held      in a hold (fr-fcfs-hold: after a hinted request's data, until the bank's next access
            starts or hold_cycles pass) while a request waits for the bank
  held_free in a hold with nothing else queued for the bank (it would be idle without the hold)
  waiting   not serving, though a request to it is queued (scheduling, bus)
  idle      nothing queued for it, while
              no_request: the DRAM holds no request at all (every warp is outside the DRAM:
                          on-chip path, L1/L2, compute),
              other_banks: other banks hold requests (the lookups' rows fell on other banks),
              ramp_tail: before the first request, or after the first warp's last one (fewer
                          than all warps left).
So banks x cycles = lookups x (busy + held + held_free + waiting + idle) a lookup.

If the search were bank-bound (no bank ever waiting, idle or held with nothing queued), cycles
would scale with the bank time a lookup (busy + held), and the speedup would be the ratio of that
bank time. With the idle share i = (held_free + waiting + idle) / (banks x cycles),
cycles = lookups x bank time / (banks x (1 - i)), so

  speedup = bank-time ratio x (1 - i_version) / (1 - i_baseline),

and the points lost against the bank-time ratio are, exactly, the sum over the idle states k of
  bank-time ratio x (i_version,k - i_baseline,k) / (1 - i_baseline).

Warp side. Each warp's lookups, from its first DRAM request to its last one's data: the time it
has a load in the DRAM, queued (arrival to start) or served (start to data end), and the rest,
outside the DRAM (the path from a line's data back to the core and the next request to the
controller: L2, interconnect, core pipeline, L1 hits, the compare and count between loads).
"""
import bisect
import csv
from collections import defaultdict

from study_common import md_row, pct_change, signed_pct

STATES = ["busy", "held", "held_free", "waiting", "no_request", "other_banks", "ramp_tail"]
IDLE = STATES[2:]


def load(path):
    with open(path, newline="") as f:
        lines = csv.reader(f)
        col = {c: i for i, c in enumerate(next(lines))}
        bank, arrival, start, done = col["bank"], col["arrival"], col["start"], col["done"]
        kind, warp, hint = col["kind"], col["warp"], col["hint"]
        return [(int(r[bank]), int(r[arrival]), int(r[start]), int(r[done]), r[kind], int(r[warp]), r[hint] == "1")
                for r in lines]


def bank_states(rows, cycles, banks, hold_cycles):
    """{state: bank-cycles} over [0, cycles)."""
    # Events: (time, bank, field, delta). field: 0 busy, 1 held, 2 queued; bank -1: requests
    # in the DRAM (arrival to data end).
    ev = []
    by_bank = defaultdict(list)
    for bank, arrival, start, done, *_ in rows:
        by_bank[bank].append((start, done))
    for bank, arrival, start, done, kind, warp, hint in rows:
        ev += [(arrival, bank, 2, 1), (start, bank, 2, -1), (start, bank, 0, 1), (done, bank, 0, -1),
               (arrival, -1, 0, 1), (done, -1, 0, -1)]
    if hold_cycles:
        starts = {b: sorted(s for s, _ in v) for b, v in by_bank.items()}
        for bank, arrival, start, done, kind, warp, hint in rows:
            if not hint:
                continue
            s = starts[bank]
            i = bisect.bisect_right(s, start)  # the bank's next access after the hinted one
            end = min(done + hold_cycles, s[i] if i < len(s) else done + hold_cycles, cycles)
            if end > done:
                ev += [(done, bank, 1, 1), (end, bank, 1, -1)]
    loads = defaultdict(list)
    for bank, arrival, start, done, kind, warp, hint in rows:
        if kind == "load":
            loads[warp].append(done)
    first = min(r[1] for r in rows)
    tail = min(max(v) for v in loads.values())  # the first warp's last load
    count = [[0, 0, 0] for _ in range(banks)]
    in_dram = 0
    out = dict.fromkeys(STATES, 0)
    # Banks per state, kept up to date as events change one bank's counters.
    n = {"busy": 0, "held": 0, "held_free": 0, "waiting": 0, "free": banks}

    def state(c):
        return ("busy" if c[0] else ("held" if c[2] else "held_free") if c[1] else "waiting" if c[2] else "free")

    ev += [(first, None, 0, 0), (tail, None, 0, 0), (cycles, None, 0, 0)]
    ev.sort(key=lambda e: e[0])
    t = 0
    for time, bank, field, delta in ev:
        time = min(time, cycles)
        if time > t:
            d = time - t
            out["busy"] += n["busy"] * d
            out["held"] += n["held"] * d
            out["held_free"] += n["held_free"] * d
            out["waiting"] += n["waiting"] * d
            free = "ramp_tail" if t < first or t >= tail else "no_request" if in_dram == 0 else "other_banks"
            out[free] += n["free"] * d
            t = time
        if bank is None:
            continue
        if bank < 0:
            in_dram += delta
            continue
        c = count[bank]
        before = state(c)
        c[field] += delta
        after = state(c)
        if before != after:
            n[before] -= 1
            n[after] += 1
    return out


def warp_times(rows):
    """Summed over warps: (span from each warp's first request to its last data, in the DRAM, of
    which queued): each warp's loads as the union of their intervals."""
    per = defaultdict(list)
    for bank, arrival, start, done, kind, warp, hint in rows:
        if kind == "load":
            per[warp].append((arrival, start, done))
    span = in_dram = queued = 0
    for reqs in per.values():
        reqs.sort()
        span += max(r[2] for r in reqs) - reqs[0][0]
        end = -1
        for arrival, start, done in reqs:
            if done > end:
                in_dram += done - max(arrival, end)
                end = done
            queued += start - arrival
    return span, in_dram, queued


def account(trace, cycles, lookups, banks=8, hold_cycles=0):
    """The account of one run, per lookup (bank-cycles and warp-cycles a lookup)."""
    rows = load(trace)
    s = bank_states(rows, cycles, banks, hold_cycles)
    span, in_dram, queued = warp_times(rows)
    total = banks * cycles
    out = {f"bank_{k}_per_lookup": v / lookups for k, v in s.items()}
    out.update({f"bank_{k}_share": v / total for k, v in s.items()})
    out["bank_time_per_lookup"] = (s["busy"] + s["held"]) / lookups
    out["bank_idle_share"] = sum(s[k] for k in IDLE) / total
    out["no_bank_busy_share"] = no_bank_busy(rows, cycles)
    out["warp_dram_per_lookup"] = in_dram / lookups
    out["warp_queued_per_lookup"] = queued / lookups
    out["warp_outside_per_lookup"] = (span - in_dram) / lookups
    out["requests_per_lookup"] = sum(1 for r in rows if r[4] == "load") / lookups
    return out


def no_bank_busy(rows, cycles):
    """The share of cycles in which no bank serves an access."""
    iv = sorted((start, done) for _, _, start, done, *_ in rows)
    covered, end = 0, 0
    for s, d in iv:
        s, d = max(s, end), min(d, cycles)
        if d > s:
            covered += d - s
            end = d
    return 1 - covered / cycles


def lost_points(base, other):
    """The speedup of `other` over `base` (accounts with their cycles) split as above:
    {"speedup", "bank_ratio", "lost", and per idle state k "lost_<k>"}; points as fractions."""
    ratio = base["bank_time_per_lookup"] / other["bank_time_per_lookup"]
    i0 = base["bank_idle_share"]
    out = {"bank_ratio": ratio - 1, "speedup": ratio * (1 - other["bank_idle_share"]) / (1 - i0) - 1}
    out["lost"] = out["bank_ratio"] - out["speedup"]
    for k in IDLE:
        out[f"lost_{k}"] = ratio * (other[f"bank_{k}_share"] - base[f"bank_{k}_share"]) / (1 - i0)
    return out


# The scan's readings (studies/db/scan_readings.json; "db" is narasiman-db itself, in scan.json):
# label -> (dram.latency.bus_order, dram.latency.conflict_busy, l2.full_line_stores).
SCAN_READINGS = {
    "db": ("data", "access", "install"),
    "db-bus-issue": ("issue", "access", "install"),
    "db-conflict-opening": ("data", "opening", "install"),
    "db-l2-fetch": ("data", "access", "fetch"),
    "db-bus-issue-conflict-opening": ("issue", "opening", "install"),
    "db-bus-issue-l2-fetch": ("issue", "access", "fetch"),
    "db-conflict-opening-l2-fetch": ("data", "opening", "fetch"),
    "db-bus-issue-conflict-opening-l2-fetch": ("issue", "opening", "fetch"),
}
# The index account's runs: (config label of the version's baseline, of its hinted versions, caches).
ACCOUNT_READINGS = [("db", "db-hold", "as narasiman-db (L1 32, L2 64 lines, 8 merged)"),
                    ("db-mshr", "db-mshr-hold", "never full (128 lines, 32 merged)")]


def _get(rows, **want):
    return next((r for r in rows if all(r.get(k) == v for k, v in want.items())), None)


def readings_markdown(rows):
    """db_study.md's table of the scan's speedup under each reading (rows: db_study's rows)."""
    lines = ["## Full table scan under each reading the paper leaves open (selectivity 1/2)", "",
             "The three settings chosen during the study where the dissertation is silent, in every combination "
             "(`studies/db/scan_readings.json`; the first row is `narasiman-db`). `bus_order`: whether the DRAM data "
             "bus moves lines in the order accesses started (`issue`) or as each one's data is ready (`data`). "
             "`conflict_busy`: whether a row conflict keeps its bank until its data is out (`access`) or only while "
             "opening the row (`opening`). `full_line_stores`: whether the L2 takes a whole-line store of the output "
             "without reading the line first (`install`) or fetches it (`fetch`). Paper: +21% speedup, 20% fewer "
             "warp instructions, about 95% row-buffer hits.", "",
             "| bus_order | conflict_busy | L2 full_line_stores | config | COND_ACC speedup | warp instruction "
             "reduction | row-buffer hit rate, baseline / COND_ACC | DRAM requests, baseline / COND_ACC | "
             "cycles, baseline / COND_ACC |",
             "|---|---|---|---|---:|---:|---:|---:|---:|"]
    for label, (bus, conflict, l2) in SCAN_READINGS.items():
        b = _get(rows, kind="scan", version="baseline", config=label, selectivity="1/2")
        a = _get(rows, kind="scan", version="condacc", config=label, selectivity="1/2")
        if not (a and b):
            continue
        lines.append(f"| {bus} | {conflict} | {l2} | `{label}` | {pct_change(b['cycles'] / a['cycles'])} | "
                     f"{100 * (1 - a['warp_instructions'] / b['warp_instructions']):.1f}% | "
                     f"{100 * b['row_buffer_hit_rate']:.1f}% / {100 * a['row_buffer_hit_rate']:.1f}% | "
                     f"{b['dram_requests']:,} / {a['dram_requests']:,} | {b['cycles']:,} / {a['cycles']:,} |")
    return lines


def account_markdown(rows):
    """db_study.md's account of the index search (rows: db_study's rows with this module's columns)."""
    def pl(r, k):
        return f"{r[f'bank_{k}_per_lookup']:.0f}"

    lines = ["## Index search: where the cycles go (Table 8.1 DRAM)", "",
             "From each run's DRAM trace (`scripts/study/db_account.py`): every cycle each of the 8 banks is busy "
             "(an access, start to data end), held (a hint's hold after its data, until the bank's next access or "
             "200 cycles) while a request waits for the bank, held with none waiting, or idle (nothing queued for it) "
             "while other banks hold requests, while the DRAM holds none, or in the kernel's ramp and tail. "
             "In bank-cycles a lookup, they add up to 8 x cycles / lookups. If the search were bank-bound, cycles "
             "would follow the bank time a lookup (busy + held while a request waits) and the hints' speedup would "
             "be its ratio; the measured speedup differs from that by the change in the banks' idle share, split "
             "below by state (they add up exactly; banks waiting with a request queued, under 0.1 bank-cycles a "
             "lookup, are left out). The `db-mshr` runs (`studies/db/index_account.json`) are the same with L1 and "
             "L2 MSHRs that never run out.", "",
             "| version | caches' MSHRs | bank-cycles a lookup | busy | held, a request waiting | held, none waiting "
             "| idle, requests at other banks | idle, no request in the DRAM | idle, ramp and tail | banks idle or "
             "held with none waiting | cycles with no bank busy | L1 / L2 MSHR-full stall cycles |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    table2 = ["", "| version | caches' MSHRs | bank time a lookup | its cut: the speedup if bank-bound | measured "
              "speedup | points against bank-bound | from idle at other banks | from held, none waiting | "
              "from no request | from ramp and tail |", "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    table3 = ["", "Per warp, a lookup's cycles (from each warp's first DRAM request to its last one's data): with a "
              "load in the DRAM, queued or served, and outside it (the path back to the core and to the next "
              "request, compute, L1 hits, and waits for a line another warp's miss fetches or for a free MSHR).", "",
              "| version | caches' MSHRs | DRAM requests a lookup | in the DRAM: queued | served | outside the DRAM |",
              "|---|---|---:|---:|---:|---:|"]
    for base_label, hold_label, caches in ACCOUNT_READINGS:
        base = _get(rows, kind="index", version="baseline", config=base_label)
        if base is None or "bank_busy_per_lookup" not in base:
            continue
        for v in ("baseline", "hint", "both"):
            r = base if v == "baseline" else _get(rows, kind="index", version=v, config=hold_label)
            if r is None or "bank_busy_per_lookup" not in r:
                continue
            total = sum(r[f"bank_{k}_per_lookup"] for k in STATES)
            lines.append(f"| {v} | {caches} | {total:.0f} | {pl(r, 'busy')} | {pl(r, 'held')} | {pl(r, 'held_free')} | "
                         f"{pl(r, 'other_banks')} | {pl(r, 'no_request')} | {pl(r, 'ramp_tail')} | "
                         f"{100 * r['bank_idle_share']:.1f}% | {100 * r['no_bank_busy_share']:.1f}% | "
                         f"{r['l1_mshr_full_stalls']:,} / {r['l2_mshr_full_stalls']:,} |")
            table3.append(f"| {v} | {caches} | {r['requests_per_lookup']:.2f} | {r['warp_queued_per_lookup']:.0f} | "
                          f"{r['warp_dram_per_lookup'] - r['warp_queued_per_lookup']:.0f} | "
                          f"{r['warp_outside_per_lookup']:.0f} |")
            if v == "baseline":
                continue
            p = lost_points(base, r)
            measured = base["cycles"] / r["cycles"] - 1
            table2.append(md_row([v, caches, f"{r['bank_time_per_lookup']:.0f} (baseline {base['bank_time_per_lookup']:.0f})",
                                  signed_pct(p["bank_ratio"]), signed_pct(measured), f"{100 * -p['lost']:+.1f}",
                                  *(f"{100 * -p[f'lost_{k}']:+.1f}" for k in ("other_banks", "held_free", "no_request",
                                                                              "ramp_tail"))]))
    return lines + table2 + table3

