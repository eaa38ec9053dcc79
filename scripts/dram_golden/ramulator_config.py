"""Ramulator 2.1 configuration for the DRAM golden table (gputlm's own config script).

Run with Ramulator's Python package on PYTHONPATH (its `python/` directory; pure Python, the
compiled bindings are not needed):
    PYTHONPATH=<ramulator>/python python3 -m ramulator export ramulator_config.py -o OUT.yaml
with GOLDEN_REFRESH=refresh|norefresh and GOLDEN_STANDARD=ddr4|hbm2|hbm3 (default ddr4) in the
environment.

DDR4, 1 channel, 1 rank, DDR4_8Gb_x8 (4 bank groups x 4 banks, 65536 rows, 1024 columns = 8 KiB
rows on the 64-bit channel), timing DDR4_2400R with the core timings spelled out (they equal the
preset: nRCD=nCL=nRP=16, nRAS=39, nCWL=12, nWR=18, nBL=4; the rest -- nCCDS/L, nRRDS/L, nFAW,
nRTP, nWTRS/L, nRFC, nREFI -- stay stock). GenericDDR controller (32-entry read and write
buffers, write watermarks 0.2/0.8), FRFCFS, Open row policy, RoBaRaCoCh address mapping,
CommandCounter plugin. The frontend is `External`: gputlm's driver (ramulator_driver.cpp) offers
the requests itself, so the frontend clock ratio is unused; the memory system ticks once per
DRAM cycle (clock_ratio 1).

HBM2 and HBM3 (GOLDEN_STANDARD): one pseudo-channel (org pseudochannel=1; HBM3 also one stack ID),
4 bank groups x 4 banks, 1 KiB rows, 32 B a transaction (RoBaRaCoCh: 5 offset bits, 5 column
bits, 2 bank group, 2 bank, row), every timing spelled out as gputlm's hbm2 / hbm3 preset has it
(models/mem/dram/dram_presets.cpp), so both sides run the same numbers; Ramulator's HBM12 / HBM34
controllers (32 + 32 buffers, watermarks 0.2/0.8 as GenericDDR), FRFCFS, Open rows. HBM3 ticks
twice a clock in Ramulator (tick_multiplier 2); the driver is told so (run_ramulator.sh).
"""
import os

import ramulator

variant = os.environ.get("GOLDEN_REFRESH", "refresh")
standard = os.environ.get("GOLDEN_STANDARD", "ddr4")
if variant == "refresh":
    refresh = ramulator.refresh_manager.AllBank()
elif variant == "norefresh":
    refresh = ramulator.refresh_manager.NoRefresh()
else:
    raise SystemExit(f"GOLDEN_REFRESH must be refresh or norefresh, not {variant!r}")

frontend = ramulator.frontend.External(clock_ratio=1)
if standard == "ddr4":
    dram = ramulator.dram.DDR4(
        org_preset="DDR4_8Gb_x8",
        timing_preset="DDR4_2400R",
        rank=1,
        nRCD=16, nCL=16, nRP=16, nRAS=39, nCWL=12, nWR=18, nBL=4,
    )
    controller = ramulator.controller.GenericDDR
elif standard == "hbm2":  # gputlm's hbm2 preset: V100's 877.5 MHz
    dram = ramulator.dram.HBM2(
        org_preset="HBM2_8Gb",
        timing_preset="HBM2_2000Mbps",
        pseudochannel=1,
        rate=1755, tCK_ps=1140, nBL=2, nCL=13, nRCDRD=13, nRCDWR=13, nRP=13, nRAS=29, nRC=42,
        nWR=11, nRTPL=4, nCWL=2, nCCDS=2, nCCDL=4, nRRDS=4, nRRDL=4, nWTRS=3, nWTRL=7, nFAW=14,
        nRFC=229, nREFI=3423,
    )
    controller = ramulator.controller.HBM12
elif standard == "hbm3":  # gputlm's hbm3 preset: Ramulator's HBM3_6400Mbps with tRFC 350 ns
    dram = ramulator.dram.HBM3(
        org_preset="HBM3_4Gb",
        timing_preset="HBM3_6400Mbps",
        pseudochannel=1, sid=1, row=1 << 16,  # the rows of the 1 GiB streams, as hbm2's org has
        nBL=2, nCL=20, nRCDRD=31, nRCDWR=15, nRP=26, nRAS=45, nRC=72, nWR=33, nRTP=9, nCWL=10,
        nCCDS=2, nCCDL=4, nRRDS=4, nRRDL=5, nFAW=24, nWTRS=7, nWTRL=10, nRTW=20,
        nRFC=560, nREFI=6240,
    )
    controller = ramulator.controller.HBM34
else:
    raise SystemExit(f"GOLDEN_STANDARD must be ddr4, hbm2 or hbm3, not {standard!r}")
ctrl = controller(
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
