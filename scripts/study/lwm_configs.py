"""The large-warp study's definitions (lwm_study.py): the benchmarks in the papers' order, every
configuration's label, name and preset (the sweep studies/lwm/runs.json, and the main ones again on
the paper's machine, studies/lwm/tr_machine.json), the sweeps and controls the tables and figures
show, and the numbers the papers state (Narasiman: dissertation ch. 5, TR-HPS-2010-006 sec. 6).
"""
from sweep_results import spec_configs

# The papers' order (dissertation Table 5.2, TR Table 2): the leftmost four are branch-intensive.
WORKLOADS = ["blackjack", "sort", "viterbi", "kmeans", "decrypt", "blackscholes", "needleman",
             "hotspot", "matrix_mult", "reduction", "histogram", "bfs"]
# TR Table 2: (divergent branch intensity, idle FU intensity).
PAPER_CLASS = {
    "blackjack": ("high", "low"), "sort": ("high", "low"), "viterbi": ("medium", "low"),
    "kmeans": ("medium", "low"), "decrypt": ("low", "low"), "blackscholes": ("low", "medium"),
    "needleman": ("low", "medium"), "hotspot": ("low", "high"), "matrix_mult": ("low", "medium"),
    "reduction": ("low", "high"), "histogram": ("low", "high"), "bfs": ("high", "high"),
}

# label -> (preset in configs/, JSON merge patch over it or None): the configs of the study's
# sweep (studies/lwm/runs.json); a preset's label is its name except the baseline's.
ALIASES = {"narasiman-baseline": "baseline"}
RUNS = spec_configs("lwm", "runs", ALIASES)
NAMES = {
    "baseline": "Baseline", "tbc256": "TBC", "dwf": "DWF majority", "dwf-pdom": "DWF PDOM",
    "dwf-best": "DWF", "lwm256": "LWM256", "2lev8": "2Lev8",
    "lwm256-2lev1": "LWM256+2Lev1", "lwm32": "LWM32", "lwm64": "LWM64", "lwm128": "LWM128",
    "lwm512": "LWM512", "2lev1": "2Lev1", "2lev2": "2Lev2", "2lev4": "2Lev4", "2lev16": "2Lev16",
    "2lev32": "2Lev32", "lwm256-nomemrows": "LWM256 mem-div opt off",
    "lwm256-nojump": "LWM256 uncond-branch opt off", "lwm256-noopt": "LWM256 both opts off",
    "lwm256-perfrf": "LWM256 perfRF", "lwm256-refetchall": "LWM256 re-fetch after all",
    "lwm256-busywait": "LWM256 busy threads wait",
    "baseline-frfcfs": "Baseline FR-FCFS", "2lev8-frfcfs": "2Lev8 FR-FCFS",
    "srr": "Baseline sticky RR", "tbc256-rr": "TBC round-robin",
    "baseline-perfect-l1": "Baseline perfect L1", "lwm256-perfect-l1": "LWM256 perfect L1",
    "baseline-l1mshr128": "Baseline 128 L1 MSHRs", "2lev8-l1mshr128": "2Lev8 128 L1 MSHRs",
    "lwm256-l1mshr128": "LWM256 128 L1 MSHRs", "baseline-frfcfs-l1mshr128": "Baseline FR-FCFS 128 L1 MSHRs",
    "2lev8-frfcfs-l1mshr128": "2Lev8 FR-FCFS 128 L1 MSHRs",
}
NAMES.update({"tr-" + label: name + " (paper's machine)" for label, name in list(NAMES.items())})
MAIN = ["baseline", "tbc256", "dwf-best", "lwm256", "2lev8", "lwm256-2lev1"]
OPTIONAL = {"tbc256", "dwf", "dwf-pdom", "dwf-best"}  # included only when their preset exists
# Labels not run but taken per benchmark from the run with the higher IPC: "For DWF, we
# implemented both the majority and post dominator priority scheduling policies and chose the
# best performing of the two for each benchmark" (TR Sec. 6).
DERIVED = {"dwf-best": ("dwf", "dwf-pdom")}
# The main configurations again on the paper's machine (studies/lwm/tr_machine.json: TR-HPS-2010-006
# / MICRO 2011 Table 1, configs/narasiman-tr.json: 32KB D-cache, 128 GB/s) as "tr-<label>".
TR_PREFIX = "tr-"
TR_ALIASES = {"narasiman-tr": "tr-baseline"}
TR_DERIVED = {"tr-dwf-best": ("tr-dwf", "tr-dwf-pdom")}
TR_COMPARED = ["lwm256", "2lev8", "lwm256-2lev1", "tbc256", "dwf-best"]
# (title, figure file or None, the papers' figures, labels); every sweep is relative to baseline.
LWM_SIZES = ["lwm32", "lwm64", "lwm128", "lwm256", "lwm512"]
FETCH_GROUPS = ["2lev1", "2lev2", "2lev4", "2lev8", "2lev16", "2lev32"]
SWEEPS = [
    ("Large-warp size (round-robin among large warps)", "fig11_lwm_size.png",
     "dissertation Fig. 5.3, TR Fig. 11", LWM_SIZES),
    ("LWM with the one-thread-per-column restriction vs a perfect register file",
     "fig12_lwm_perfrf.png", "dissertation Fig. 5.4", ["lwm256", "lwm256-perfrf"]),
    ("LWM optimisations (memory divergence, unconditional branch)", "fig13_lwm_opts.png",
     "dissertation Fig. 5.5, TR Fig. 12",
     ["lwm256", "lwm256-nomemrows", "lwm256-nojump", "lwm256-noopt"]),
    ("Fetch-group size, two-level scheduling on the baseline core", "fig14_fetch_group.png",
     "dissertation Fig. 5.6, TR Fig. 13", FETCH_GROUPS),
    ("LWM re-fetch policy and busy threads", None, "no figure in the papers",
     ["lwm256", "lwm256-refetchall", "lwm256-busywait"]),
    ("DWF issue priority: majority vs post-dominator priority", None,
     "TR Sec. 6 keeps the better of the two per benchmark", ["dwf", "dwf-pdom", "dwf-best"]),
]
# Section 6: (title, what it tests, [(column, label, over)]): row-buffer hit rate and memory stall
# cycles of each label per benchmark, and its speedup over `over` (none where label is `over`).
CONTROLS = [
    ("DRAM scheduler under two-level scheduling",
     "2Lev8's row-buffer locality and speedup with the papers' FCFS DRAM scheduler and with "
     "FR-FCFS (the dissertation's Ch. 8 scheduler), each against round-robin on the same DRAM.",
     [("RR", "baseline", "baseline"), ("2Lev8", "2lev8", "baseline"),
      ("RR FR-FCFS", "baseline-frfcfs", "baseline-frfcfs"),
      ("2Lev8 FR-FCFS", "2lev8-frfcfs", "baseline-frfcfs")]),
    ("TBC: block synchronisation vs sticky round-robin",
     "Which half of TBC moves the DRAM and memory-stall figures: sticky round-robin on static "
     "warps, TBC with plain round-robin, and TBC with sticky round-robin (the preset).",
     [("RR", "baseline", "baseline"), ("sticky RR", "srr", "baseline"),
      ("TBC RR", "tbc256-rr", "baseline"), ("TBC sticky RR", "tbc256", "baseline")]),
    ("LWM on the memory-bound benchmarks: every L1 access a hit",
     "Whether LWM256's loss on matrix_mult, reduction and histogram comes from waiting for memory: "
     "both cores with a perfect D-cache (every access a 1-cycle hit, nothing sent below). A large "
     "warp forms its next instruction only from threads whose last one completed, and fetches the "
     "one after only once that one is formed (MICRO 2011 Sec. 3.1, dissertation Sec. 4.2.1-4.2.2), "
     "so its 256 threads move at the pace of their slowest line; 8 warps of 32 do not.",
     [("RR", "baseline", "baseline"), ("LWM256", "lwm256", "baseline"),
      ("RR perfect L1", "baseline-perfect-l1", "baseline-perfect-l1"),
      ("LWM256 perfect L1", "lwm256-perfect-l1", "baseline-perfect-l1")]),
    ("L1 MSHRs: 64 (our reading) or 128",
     "The papers do not give the D-cache's MSHRs; narasiman-baseline chose 64 (one 128 B line each, "
     "8 KB in flight). With the 128-bit loads of reduction, 32 warps ask for 128 lines at once, and "
     "64 MSHRs bound the bandwidth by latency: a scheduler that bunches requests (2Lev8's fetch "
     "groups) then waits longer per line. With 128 MSHRs the same runs are bound by the DRAM bus. "
     "The last two columns add FR-FCFS (section 6.1): both readings the papers leave open at once.",
     [("RR", "baseline", "baseline"), ("2Lev8", "2lev8", "baseline"),
      ("RR 128", "baseline-l1mshr128", "baseline-l1mshr128"),
      ("2Lev8 128", "2lev8-l1mshr128", "baseline-l1mshr128"),
      ("LWM256 128", "lwm256-l1mshr128", "baseline-l1mshr128"),
      ("RR FR-FCFS 128", "baseline-frfcfs-l1mshr128", "baseline-frfcfs-l1mshr128"),
      ("2Lev8 FR-FCFS 128", "2lev8-frfcfs-l1mshr128", "baseline-frfcfs-l1mshr128")]),
]
UTIL_CONFIGS = ["baseline", "tbc256", "dwf-best", "lwm256", "2lev8", "lwm256-2lev1"]
UTIL_BUCKETS = [("0", 0, 0), ("1-7", 1, 7), ("8-15", 8, 15), ("16-23", 16, 23),
                ("24-31", 24, 31), ("32", 32, 32)]
# Papers' headline improvements over the baseline (%); the TR compares with DWF, not TBC.
PAPER_HEADLINE = [("LWM256 over baseline", "lwm256", "baseline", "+7.9%", "+7.6%"),
                  ("2Lev8 over baseline", "2lev8", "baseline", "+9.9%", "+10.1%"),
                  ("LWM256+2Lev over baseline", "lwm256-2lev1", "baseline", "+19.1%", "+17.0%"),
                  ("LWM256+2Lev over TBC", "lwm256-2lev1", "tbc256", "+11.5%", "(not evaluated)"),
                  ("DWF over baseline", "dwf-best", "baseline", "(not evaluated)",
                   "degrades (no number)")]
# Where PAPER_HEADLINE's numbers come from (the figures' captions cite them).
PAPER_HEADLINE_CITE = ("dissertation Sec. 5.2.1", "TR Sec. 6.1")
# Every other paper number the figures show. The extracted papers keep no bar values, so the only
# numbers are the ones their text states; per-benchmark values exist only where listed here.
PAPER_FIGURES = {
    # Fig. 5.6 / TR Fig. 13: one fetch group of all 32 warps "is by definition equivalent to the
    # baseline round-robin policy and therefore performs identically to it" (diss. Sec. 5.2.3,
    # TR Sec. 3.2.1).
    "2lev32": 1.0,
    # Fig. 5.4 (diss. Sec. 5.2.2.2): "For sort, the flexibility of allowing arbitrary sub-warping
    # improves performance by 15.2%"; LWM "comes within at least 90% of the performance of the
    # perfect register file for each benchmark (... except for sort)".
    "perfrf_over_lwm_sort": 1.152,
    "lwm_share_of_perfrf_min": 0.90,
    # Fig. 5.5 / TR Fig. 12 (diss. Sec. 5.2.2.3, TR Sec. 6.2): the unconditional-branch optimisation
    # "does slightly improve performance (by about 1%)"; the memory-divergence one "does not
    # provide much benefit" (no number).
    "jump_opt_gain": 1.01,
    # TR Sec. 1 (Fig. 1) and diss. Sec. 4.1 (Fig. 4.1), baseline: "bfs ... spends approximately 95%
    # of its execution time stalling" (cycles with no FU active).
    "bfs_idle_share": 0.95,
    # TR Sec. 5, Table 2's idle-FU intensity (PAPER_CLASS) on the baseline: the share of cycles
    # with every FU idle is below 20% (low), 20-40% (medium) or above 40% (high).
    "idle_class_range": {"low": (0.0, 0.2), "medium": (0.2, 0.4), "high": (0.4, 1.0)},
}
CSV_FIELDS = ["label", "workload", "size", "cycles", "thread_instructions", "warp_instructions",
              "ipc", "idle_fu_share", "dram_row_hit_rate", "dram_requests", "subwarps",
              "subwarp_bubble_cycles", "fetch_group_switches", "memory_stall_cycles", "mean_resident_threads"]
