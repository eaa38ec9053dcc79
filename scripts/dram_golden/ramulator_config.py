"""Ramulator 2.1 configuration for the DRAM golden table (gputlm's own config script).

Run with Ramulator's Python package on PYTHONPATH (its `python/` directory; pure Python, the
compiled bindings are not needed):
    PYTHONPATH=<ramulator>/python python3 -m ramulator export ramulator_config.py -o OUT.yaml
with GOLDEN_REFRESH=refresh|norefresh in the environment.

DDR4, 1 channel, 1 rank, DDR4_8Gb_x8 (4 bank groups x 4 banks, 65536 rows, 1024 columns = 8 KiB
rows on the 64-bit channel), timing DDR4_2400R with the core timings spelled out (they equal the
preset: nRCD=nCL=nRP=16, nRAS=39, nCWL=12, nWR=18, nBL=4; the rest -- nCCDS/L, nRRDS/L, nFAW,
nRTP, nWTRS/L, nRFC, nREFI -- stay stock). GenericDDR controller (32-entry read and write
buffers, write watermarks 0.2/0.8), FRFCFS, Open row policy, RoBaRaCoCh address mapping,
CommandCounter plugin. The frontend is `External`: gputlm's driver (ramulator_driver.cpp) offers
the requests itself, so the frontend clock ratio is unused; the memory system ticks once per
DRAM cycle (clock_ratio 1).
"""
import os

import ramulator

variant = os.environ.get("GOLDEN_REFRESH", "refresh")
if variant == "refresh":
    refresh = ramulator.refresh_manager.AllBank()
elif variant == "norefresh":
    refresh = ramulator.refresh_manager.NoRefresh()
else:
    raise SystemExit(f"GOLDEN_REFRESH must be refresh or norefresh, not {variant!r}")

frontend = ramulator.frontend.External(clock_ratio=1)
dram = ramulator.dram.DDR4(
    org_preset="DDR4_8Gb_x8",
    timing_preset="DDR4_2400R",
    rank=1,
    nRCD=16, nCL=16, nRP=16, nRAS=39, nCWL=12, nWR=18, nBL=4,
)
ctrl = ramulator.controller.GenericDDR(
    dram=dram,
    scheduler=ramulator.scheduler.FRFCFS(),
    refresh_manager=refresh,
    row_policy=ramulator.row_policy.Open(),
    addr_mapper=ramulator.addr_mapper.RoBaRaCoCh(),
    controller_plugins=[
        ramulator.controller_plugin.CommandCounter(
            commands_to_count=["ACT", "PREpb", "PREab", "RD", "WR", "RDA", "WRA", "REFab"],
            path="cmd_counts.csv",  # relative to the driver's working directory
        )
    ],
)
mem = ramulator.memory_system.GenericDRAM(
    clock_ratio=1,
    controllers=[ctrl],
    channel_mapper=ramulator.channel_mapper.CacheLineInterleave(),
)
sim = ramulator.Simulation(frontend, mem)
