"""The VGIW study's bound: the best speedup over Fermi that the fabric of Voitsechov & Etsion's
Table 1 allows each kernel, set beside the measured one (vgiw_study.py), so that a reader sees how
much of the gap to the paper's 3x (Fig. 7) its own table already accounts for.

Both machines are taken at their peak issue, with nothing else limiting (no memory or dependence
stall, no reconfiguration, no draining, every core busy); a kernel's minimum core-cycles, summed over
the cores like the launches' work:
  Fermi   its warp instructions (the fermi-gtx480 run's, every launch) / 1: an SM issues one warp
          instruction of 32 lanes a cycle (our fermi-gtx480; Sec. 5: "Fermi's von Neumann design can
          only operate 32 of its functional units concurrently"; a GF100 SM's two schedulers each
          feed a group of 16 cores, 32 lanes a cycle in all; counting two 32-lane warp instructions a
          cycle instead would halve every bound). Fermi's 4-lane SFUs and dividers are left out, so
          its minimum is its issue alone. A divergent warp instruction takes a whole issue slot: what
          control flow coalescing wins back is inside the bound.
  VGIW    each unit fires one operation a cycle and holds one opcode (Sec. 3.5: "configured by a
          single op-code"), so the units of each type must fire that type's operations of the
          kernel: max over the six types of firings / units of that type (Table 1: 32 FPU-ALU, 12
          special compute, 16 load/store, 16 live value, 16 split/join, 16 control vector units;
          configs/vgiw.json's "units"). The firings are the vgiw run's, every core and launch; each
          thread entering a segment takes two control-vector firings (its replica's initiator and
          terminator), so 16 CVUs start at most 8 threads a cycle whatever the block.
  bound_types = Fermi / VGIW.
The mapper's replicas (Sec. 2: a block's graph copied as often as the grid's units of each type
allow) start one thread a cycle each; a replica count is a whole number and the binding type may
differ from block to block, so the replica bound is at most bound_types, and equal to it when every
block's replicas use all units of one type that binds every block. The stats report firings per unit
type per core, not per segment, which is why the bound here is taken per kernel: the exact replica
bound, sum over segments of threads started / replicas, needs per segment the threads it started
(the fabric's `threads_started` split by configuration) and its replicas (KernelMap::replicas), which
`gputlm list --kernels` summarises only as the median segment's peak.
  bound_108 = Fermi / (all firings / 108): the paper's Sec. 5 reading, every unit any operation.
Both are peak against peak: a kernel on which Fermi runs far below its issue peak (kmeans'
invert_mapping waits on memory) can measure more. What does bound the measured speedup is Fermi's
measured core-cycles over VGIW's minimum: ceiling_measured_fermi (loose where a kernel has too few
CTAs to keep 15 cores busy, as the minimum assumes).
"""
import json
from functools import lru_cache
from statistics import mean, median

from sweep_results import REPO
from study_common import geomean

UNIT_TYPES = ("compute", "special", "load_store", "live_value", "split_join", "control_vector")
FERMI_WARP_ISSUE = 1  # warp instructions (32 lanes) a fermi-gtx480 SM issues a cycle


@lru_cache(maxsize=None)
def table1_units():
    """Unit counts per type of the vgiw preset the study runs (Table 1)."""
    return json.loads((REPO / "configs" / "vgiw.json").read_text())["vgiw"]["units"]


def add_launch(kernel, launch):
    """Sums a launch's firings per unit type (over the cores' fabrics) into a kernel's figures."""
    firings = kernel.setdefault("firings", {t: 0 for t in UNIT_TYPES})
    for name, module in launch.get("modules", {}).items():
        if name.endswith(".cgrf"):
            for t in UNIT_TYPES:
                firings[t] += module.get(f"firings_{t}", 0)


def columns(fermi, vgiw, units=None):
    """The bound columns of one kernel: fermi and vgiw are its summed figures (per_kernel)."""
    units = units or table1_units()
    firings = vgiw.get("firings", {})
    fermi_min = fermi["warp_instructions"] / FERMI_WARP_ISSUE
    per_type = {t: firings.get(t, 0) / units[t] for t in UNIT_TYPES}
    binding = max(per_type, key=per_type.get)
    total = sum(firings.get(t, 0) for t in UNIT_TYPES)
    vgiw_min = max(per_type[binding], 1)
    bound_types = fermi_min / vgiw_min
    return {"fermi_min_core_cycles": fermi_min, "vgiw_min_core_cycles": per_type[binding], "bound_binding_unit": binding,
            "bound_types": bound_types, "bound_108": fermi_min / max(total / sum(units[t] for t in UNIT_TYPES), 1),
            "ceiling_measured_fermi": fermi["cycles"] * fermi["cores"] / vgiw_min,
            "measured_over_bound": fermi["cycles"] / vgiw["cycles"] / bound_types}


def markdown(table2, rows):
    """The bound's section of vgiw_study.md."""
    units = table1_units()
    b = [r["bound_types"] for r in table2]
    b108 = [r["bound_108"] for r in table2]
    m = [r["measured_over_bound"] for r in table2]
    binding = {}
    for r in table2:
        binding[r["bound_binding_unit"]] = binding.get(r["bound_binding_unit"], 0) + 1
    lines = ["## The bound: what Table 1's fabric allows", "",
             "Best speedup over Fermi each kernel could reach with both machines at peak issue and nothing else limiting "
             "(scripts/study/vgiw_bound.py): Fermi's minimum is its warp instructions at one warp instruction (32 lanes) "
             "a cycle per SM (our fermi-gtx480; the paper's Sec. 5: Fermi operates 32 of its functional units at once; two 32-lane "
             "issues a cycle would halve every bound); "
             "VGIW's is, over the six unit types, the largest of the kernel's firings of that type over Table 1's "
             "units of that type (" + ", ".join(f"{units[t]} {t.replace('_', ' ')}" for t in UNIT_TYPES) + "), each unit "
             "holding one opcode and firing once a cycle. A replica's initiator and terminator are two control-vector "
             "firings per thread and segment, so 16 CVUs start at most 8 threads a cycle. Replica counts are whole "
             "numbers per segment, so the mapper's own bound is at most this one (the stats give firings per type, not "
             "per segment). \"all 108\" is the paper's reading: any unit any operation. Both are peak against peak, so a kernel "
             "that keeps Fermi far below its peak (waiting on memory) can measure more; Fermi's measured cycles over "
             "VGIW's minimum bound the measured speedup itself (\"ceiling\"; loose for kernels of a few CTAs, "
             "since the minimum has every core busy).", "",
             "| figure | mean | geometric mean | median | range |", "|---|---:|---:|---:|---:|",
             f"| bound, Table 1 unit types | {mean(b):.2f}x | {geomean(b):.2f}x | {median(b):.2f}x | {min(b):.2f}x - {max(b):.2f}x |",
             f"| bound, all 108 units any operation | {mean(b108):.2f}x | {geomean(b108):.2f}x | {median(b108):.2f}x | {min(b108):.2f}x - {max(b108):.2f}x |",
             f"| measured speedup / bound (Table 1 types) | {mean(m):.2f} | {geomean(m):.2f} | {median(m):.2f} | {min(m):.2f} - {max(m):.2f} |",
             "", "Binding unit type (Table 2 kernels): " + ", ".join(f"{t.replace('_', ' ')} {n}" for t, n in sorted(binding.items(), key=lambda x: -x[1])) + ".",
             f"Kernels whose bound is under the paper's mean of 3x: {sum(x < 3 for x in b)} of {len(b)}; under 1x: {sum(x < 1 for x in b)}.", "",
             "| Table 2 kernel | Fermi warp instr. (min core-cycles) | VGIW min core-cycles | binding unit | bound | bound, all 108 | ceiling | measured speedup | measured / bound |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['table2']} | {r['fermi_min_core_cycles']:,.0f} | {r['vgiw_min_core_cycles']:,.0f} | "
                     f"{r['bound_binding_unit'].replace('_', ' ')} | {r['bound_types']:.2f} | {r['bound_108']:.2f} | "
                     f"{r['ceiling_measured_fermi']:.2f} | {r['speedup']:.2f} | {r['measured_over_bound']:.2f} |")
    return lines + [""]
