"""The numbers and markdown the study scripts share: one geometric mean, the percentages they print
(a fraction, a ratio as a change, a prediction's error against a reference, each under its own name)
and one markdown-table writer. sweep_results.py holds the rest they share (the runs, the command
line, the provenance of what they write).

Used by lwm_study.py and its lwm_*.py modules, db_study.py, db_account.py, hongkim_validation.py,
vgiw_study.py, vgiw_attribution.py, vgiw_bound.py, vgiw_energy.py and vgiw_sgmf.py.
"""
import math


def geomean(values):
    """The geometric mean of positive values, nan when there are none."""
    values = list(values)
    if not values:
        return math.nan
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def signed_pct(fraction):
    """A fraction as a signed percentage: 0.213 -> "+21.3%"."""
    return f"{100 * fraction:+.1f}%"


def pct_change(ratio):
    """A ratio (new / old: a speedup, one rate over another) as the change it makes: 1.213 ->
    "+21.3%"; "—" for None (no value)."""
    return "—" if ratio is None else signed_pct(ratio - 1)


def pct_error(predicted, reference):
    """The signed relative error of a prediction, predicted / reference - 1: 0.9, 1.0 -> "-10.0%"."""
    return signed_pct(predicted / reference - 1)


def md_row(cells):
    """One row of a markdown table: "| a | b |"."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def md_rule(right, spaced=False):
    """The line under a markdown table's header: per column "---", or "---:" where right[i] (right-
    aligned); "|---|---:|", or with spaced "| --- | ---: |" (lwm_study.md's tables)."""
    marks = ["---:" if r else "---" for r in right]
    return md_row(marks) if spaced else "|" + "|".join(marks) + "|"


def md_table(header, rows, numeric=True, right=None, spaced=False):
    """A markdown table, its lines joined by newlines: the header, its rule, then each row (cells
    are written with str). Right-aligned: with numeric, every column after the first, without none;
    right (a bool per column) overrides. spaced: the rule as md_rule writes it with spaced."""
    if right is None:
        right = [numeric and i > 0 for i in range(len(header))]
    return "\n".join([md_row(header), md_rule(right, spaced)] + [md_row(r) for r in rows])
