// The command model's presets ("dram": {"preset": NAME}); keys given beside a preset override it.
// Each number's source is named; values given in ns are converted at the preset's clock and
// rounded up, as JEDEC's rounding rule does.
#include <cmath>
#include <utility>

#include "models/mem/dram/dram_spec.h"

namespace gputlm::mem {
namespace {

uint64_t cycles(double ns, double clock_mhz) {
  return static_cast<uint64_t>(std::ceil(ns * clock_mhz / 1000.0 - 0.025));
}

DramSpec command_spec(double clock_mhz, uint32_t banks, uint32_t row_bytes) {
  DramSpec s;
  s.clock_mhz = clock_mhz;
  s.banks = banks;
  s.row_bytes = row_bytes;
  s.scheduler = "fr-fcfs";
  s.timing_model = DramSpec::TimingModel::Command;
  return s;
}

// DDR4-2400R (16-16-16), 8Gb x8 devices on a 64-bit channel: JEDEC JESD79-4 speed bins and timing
// parameters as Micron's MT40A datasheets give them (Table 152 speed bins, 157 tRTP and tCCD_L,
// 159 refresh) and Ramulator 2's DDR4_2400R and DDR4_8Gb_x8 presets agree (Ramulator 2 differs
// only in tRFC: 360 ns where the datasheet gives 350). 1200 MHz (tCK 0.833 ns), 16 banks
// in 4 bank groups, 1 KB page per device x 8 devices = 8 KB rows, BL8 at double data rate.
DramSpec ddr4_2400() {
  DramSpec s = command_spec(1200.0, 16, 8192);
  CommandTiming& c = s.command;
  c.tRCD = c.tCL = c.tRP = 16;                                 // speed bin 2400R: 16-16-16
  c.tRAS = cycles(32.0, s.clock_mhz);                          // 32 ns: 39
  c.tRC = c.tRAS + c.tRP;                                      // 55
  c.tWL = 12;                                                  // CWL 12 (1 tCK write preamble)
  c.tCCD_S = 4;                                                // 4 nCK
  c.tCCD_L = std::max<uint64_t>(5, cycles(5.0, s.clock_mhz));  // max(5 nCK, 5 ns): 6
  c.tRRD_S =
      std::max<uint64_t>(4, cycles(3.3, s.clock_mhz));  // x8 (1 KB page): max(4 nCK, 3.3 ns): 4
  c.tRRD_L = std::max<uint64_t>(4, cycles(4.9, s.clock_mhz));  // max(4 nCK, 4.9 ns): 6
  c.tFAW = std::max<uint64_t>(20, cycles(21.0, s.clock_mhz));  // x8: max(20 nCK, 21 ns): 26
  c.tRTP = std::max<uint64_t>(4, cycles(7.5, s.clock_mhz));    // max(4 nCK, 7.5 ns): 9
  c.tWR = cycles(15.0, s.clock_mhz);                           // 15 ns: 18
  c.tWTR_S = std::max<uint64_t>(2, cycles(2.5, s.clock_mhz));  // max(2 nCK, 2.5 ns): 3
  c.tWTR_L = std::max<uint64_t>(4, cycles(7.5, s.clock_mhz));  // max(4 nCK, 7.5 ns): 9
  c.tRTW = 0;                                                  // RD->WR: tCL + BL/2 + 2 - tWL
  c.tRFC = cycles(350.0, s.clock_mhz);                         // tRFC1, 8Gb: 350 ns: 420
  c.tREFI = cycles(7800.0, s.clock_mhz);                       // 7.8 us (0-85 C): 9360
  c.bank_groups = 4;
  c.burst_length = 8;
  c.bus_bytes = 8;
  c.data_rate = 2;
  return s;
}

// GDDR5 as GPGPU-Sim models the GTX 480 (gpgpu-sim_distribution configs/tested-cfgs/SM2_GTX480/
// gpgpusim.config, -gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:
// WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2", taken there from the Hynix H5GQ1H24AFR datasheet at
// its 1 GHz cycle counts), at the GTX 480's 924 MHz command clock, burst 8 at quad data rate, two
// x32 devices per channel (8 bytes a beat: 29.6 GB/s), each with 2 KB pages (4 KB rows). What
// GPGPU-Sim leaves out comes from gem5's GDDR5_4000_2x32 (dram_interfaces/gddr.py, which cites the
// same datasheet): tFAW 23 ns and tRFC 65 ns; tREFI 3.9 us is Ramulator 1's GDDR5 (unverified
// against the datasheet). GPGPU-Sim has one tRRD and one write-to-read (CDLR) for both _S and _L.
DramSpec gddr5() {
  DramSpec s = command_spec(924.0, 16, 4096);
  CommandTiming& c = s.command;
  c.tRCD = 12, c.tCL = 12, c.tWL = 4, c.tRP = 12, c.tRAS = 28, c.tRC = 40;
  c.tCCD_S = 2, c.tCCD_L = 3;  // CCD, CCDL
  c.tRRD_S = c.tRRD_L = 6;     // RRD
  c.tRTP = 2;                  // RTPL
  c.tWR = 12;                  // WR
  c.tWTR_S = c.tWTR_L = 5;     // CDLR: last write data to a read
  c.tRTW = 0;                  // GPGPU-Sim's tRTW = CL + BL/4 + 2 - WL = 12, the rule's value
  c.tFAW = cycles(23.0, s.clock_mhz);     // 22
  c.tRFC = cycles(65.0, s.clock_mhz);     // 61
  c.tREFI = cycles(3900.0, s.clock_mhz);  // 3604
  c.bank_groups = 4;
  c.burst_length = 8;
  c.bus_bytes = 8;
  c.data_rate = 4;
  return s;
}

// GDDR6 at 14 Gb/s a pin, one 16-bit channel of an 8Gb x16 device (two channels a device):
// Ramulator 2's GDDR6_14000 preset (python/ramulator/dram/gddr6.py, from a Samsung 8Gb GDDR6
// datasheet), 1750 MHz command clock, burst 16 at 8 beats a clock (32 B per access), 16 banks
// in 4 groups, 2 KB rows (Micron's 8Gb GDDR6 brief, Table 3). GDDR6 has a shorter activate-to-
// write (tRCDWR 16) than activate-to-read; one tRCD is modelled here, the read's. tRTW is the
// rule's CL + burst + 2 - WL = 22 (Ramulator 2 assumes CL + 1).
DramSpec gddr6() {
  DramSpec s = command_spec(1750.0, 16, 2048);
  CommandTiming& c = s.command;
  c.tRCD = 27, c.tCL = 24, c.tWL = 6, c.tRP = 27, c.tRAS = 53, c.tRC = 79;
  c.tCCD_S = 2, c.tCCD_L = 4;
  c.tRRD_S = c.tRRD_L = 8;
  c.tFAW = 29;
  c.tRTP = 4;
  c.tWR = 27;
  c.tWTR_S = 9, c.tWTR_L = 11;
  c.tRTW = 0;
  c.tREFI = 3333;  // 1.9 us
  c.tRFC = 211;    // all-bank, 120 ns
  c.bank_groups = 4;
  c.burst_length = 16;
  c.bus_bytes = 2;
  c.data_rate = 8;
  return s;
}

// HBM (JESD235 HBM2/HBM2E, JESD238 HBM3/HBM3E). One gputlm DRAM channel is one pseudo-channel:
// HBM2 splits each 128-bit channel into two 64-bit pseudo-channels (HBM3: a 64-bit channel into
// two 32-bit ones) that have their own banks, data bus, tRRD and tFAW windows and share only the
// channel's row and column command buses; Ramulator 2 models the same split as a PseudoChannel
// level that carries those constraints. The shared command buses (one row and one column command
// a cycle for both pseudo-channels) are not modelled: each pseudo-channel's controller issues one
// command a cycle, the same command rate as an even split of the two buses. A JEDEC channel's
// bandwidth is twice a preset's. Refresh is all-bank (REFab); HBM's per-bank refresh is not
// modelled. Values in ns are converted at the preset's clock and rounded up (cycles above).

// HBM2 as NVIDIA's V100 runs it: 877.5 MHz, 1.755 Gb/s a pin (Volta whitepaper: 900 GB/s from
// four 4-high stacks of 8Gb dies, 4096 bits). Core timings in ns from Accel-Sim's SM7_QV100
// gpgpusim.config, its 1 GHz line (taken there from SK hynix's JESD235 datasheet and Chatterjee
// et al., HPCA 2017: RCD=14 RAS=33 RP=14 RC=47 CL=14 WL=2 CDLR=3 WR=12 RRD=4 RTPL=4 ns; its
// 850 MHz line, 12-28-12-40-12, rounds to nearest where JEDEC rounds up); the organisation per
// pseudo-channel (16 banks in 4 bank groups, 1 KB rows, 64 bits, BL4 at double data rate: 32 B a
// column command), tCCD_S/L 2/4 nCK, tWTR_L 7.5 ns, tFAW 15 ns, tRFC and tREFI from Ramulator 2's
// HBM2 standard (python/ramulator/dram/hbm2.py, JESD235D values). Accel-Sim models HBM2 as 128-bit
// legacy channels with one tCCD, one tRRD and one write-to-read (CDLR), used here as tWTR_S.
DramSpec hbm2() {
  DramSpec s = command_spec(877.5, 16, 1024);
  CommandTiming& c = s.command;
  c.tRCD = cycles(14.0, s.clock_mhz);  // 13; one value for reads and writes (Accel-Sim)
  c.tCL = cycles(14.0, s.clock_mhz);   // 13
  c.tRP = cycles(14.0, s.clock_mhz);   // 13
  c.tRAS = cycles(33.0, s.clock_mhz);  // 29
  c.tRC = cycles(47.0, s.clock_mhz);   // 42
  c.tWL = 2;                           // WL=2 (Accel-Sim, both lines)
  c.tWR = cycles(12.0, s.clock_mhz);   // 11
  c.tRTP = cycles(4.0, s.clock_mhz);   // RTPL 4 ns: 4
  c.tCCD_S = 2;                        // BL4 in pseudo-channel mode: 2 nCK (Ramulator 2 nCCDS)
  c.tCCD_L = 4;                        // Ramulator 2 nCCDL, 4 nCK at every HBM2 rate
  c.tRRD_S = c.tRRD_L = cycles(4.0, s.clock_mhz);  // 4 ns both (RRD; Ramulator 2): 4
  c.tFAW = cycles(15.0, s.clock_mhz);              // 15 ns (Ramulator 2): 14
  c.tWTR_S = cycles(3.0, s.clock_mhz);             // CDLR 3 ns: 3
  c.tWTR_L = cycles(7.5, s.clock_mhz);             // Ramulator 2 HBM2_1600Mbps nWTRL 6 x 1.25 ns: 7
  c.tRTW = 0;                             // RD->WR: tCL + burst + 2 - tWL (Ramulator 2's rule)
  c.tRFC = cycles(260.0, s.clock_mhz);    // 4Gb a channel (8Gb die, two channels): 260 ns: 229
  c.tREFI = cycles(3900.0, s.clock_mhz);  // 3.9 us: 3423
  c.bank_groups = 4;
  c.burst_length = 4;
  c.bus_bytes = 8;
  c.data_rate = 2;
  return s;
}

// HBM2E at 3.2 Gb/s a pin (1.6 GHz): JESD235C/D's top rate, Samsung's Flashbolt (SK hynix's
// HBM2E reaches 3.6). Organisation as hbm2. No public HBM2E datasheet gives cycle counts: the ns
// values are chosen as Ramulator 2's fastest HBM2 preset (HBM2_2400Mbps, tCK 0.833 ns) has them,
// converted at 1.6 GHz, with tCCD_S the burst; tRFC 350 ns for an 8Gb channel (16Gb dies, as
// 8-high 16 GB stacks use; Ramulator 2's HBM2 table).
DramSpec hbm2e() {
  DramSpec s = command_spec(1600.0, 16, 1024);
  CommandTiming& c = s.command;
  const double tck = 0.833;                        // Ramulator 2 HBM2_2400Mbps
  c.tRCD = cycles(17 * tck, s.clock_mhz);          // nRCDRD 17: 23
  c.tRCDWR = cycles(14 * tck, s.clock_mhz);        // nRCDWR 14: 19
  c.tCL = cycles(17 * tck, s.clock_mhz);           // nCL 17: 23
  c.tRP = cycles(17 * tck, s.clock_mhz);           // nRP 17: 23
  c.tRAS = cycles(40 * tck, s.clock_mhz);          // nRAS 40: 54
  c.tRC = c.tRAS + c.tRP;                          // 77 (nRC 57 converts to 76, below tRAS + tRP)
  c.tWL = cycles(6 * tck, s.clock_mhz);            // nCWL 6: 8
  c.tWR = cycles(19 * tck, s.clock_mhz);           // nWR 19: 26
  c.tRTP = cycles(6 * tck, s.clock_mhz);           // nRTPL 6: 8
  c.tCCD_S = 2;                                    // BL4: 2 nCK
  c.tCCD_L = cycles(4 * tck, s.clock_mhz);         // nCCDL 4: 6
  c.tRRD_S = c.tRRD_L = cycles(4.0, s.clock_mhz);  // 4 ns: 7
  c.tFAW = cycles(15.0, s.clock_mhz);              // 15 ns: 24
  c.tWTR_S = cycles(8 * tck, s.clock_mhz);         // nWTRS 8: 11
  c.tWTR_L = cycles(10 * tck, s.clock_mhz);        // nWTRL 10: 14
  c.tRTW = 0;                                      // tCL + burst + 2 - tWL = 19
  c.tRFC = cycles(350.0, s.clock_mhz);             // 560
  c.tREFI = cycles(3900.0, s.clock_mhz);           // 6240
  c.bank_groups = 4;
  c.burst_length = 4;
  c.bus_bytes = 8;
  c.data_rate = 2;
  return s;
}

// HBM3 at 6.4 Gb/s a pin, JESD238's first top rate: Ramulator 2's HBM3_6400Mbps preset
// (python/ramulator/dram/hbm3.py), tCK 0.625 ns (1.6 GHz), BL8 at four beats a clock on a 32-bit
// pseudo-channel (32 B a column command, 2 clocks), 16 banks in 4 bank groups and 1 KB rows (its
// HBM3 organisations, one stack ID). Stacks of 8 or more dies add stack IDs with more banks and a
// tCCDR between them; one is modelled (banks 32, bank_groups 8 approximate two, without tCCDR).
// tRFC 350 ns is Ramulator 2's HBM3 value for an 8Gb channel (16Gb dies in 16 GB stacks).
DramSpec hbm3() {
  DramSpec s = command_spec(1600.0, 16, 1024);
  CommandTiming& c = s.command;
  c.tRCD = 31, c.tRCDWR = 15, c.tCL = 20, c.tWL = 10, c.tRP = 26, c.tRAS = 45, c.tRC = 72;
  c.tWR = 33, c.tRTP = 9;
  c.tCCD_S = 2, c.tCCD_L = 4;
  c.tRRD_S = 4, c.tRRD_L = 5, c.tFAW = 24;
  c.tWTR_S = 7, c.tWTR_L = 10;
  c.tRTW = 20;                            // nRTW (the rule would give 14)
  c.tRFC = cycles(350.0, s.clock_mhz);    // 560
  c.tREFI = cycles(3900.0, s.clock_mhz);  // 3.9 us: 6240 (nREFI)
  c.bank_groups = 4;
  c.burst_length = 8;
  c.bus_bytes = 4;
  c.data_rate = 4;
  return s;
}

// HBM3E at 9.6 Gb/s a pin (2.4 GHz): chosen within the vendors' announced 9.2 (Micron) to 9.8
// Gb/s (Samsung Shinebolt); SK hynix gives 9.6 for its HBM3E. Organisation as hbm3. No public
// HBM3E datasheet gives cycle counts: the ns values are chosen as Ramulator 2's HBM3_6400Mbps has
// them (tCK 0.625 ns), converted at 2.4 GHz, with tCCD_S the burst; tRFC 450 ns for a 12Gb
// channel (24Gb dies in 8-high 24 GB stacks; Ramulator 2's HBM3 table, up to 16Gb).
DramSpec hbm3e() {
  DramSpec s = command_spec(2400.0, 16, 1024);
  CommandTiming& c = s.command;
  const double tck = 0.625;                  // Ramulator 2 HBM3_6400Mbps
  c.tRCD = cycles(31 * tck, s.clock_mhz);    // 47
  c.tRCDWR = cycles(15 * tck, s.clock_mhz);  // 23
  c.tCL = cycles(20 * tck, s.clock_mhz);     // 30
  c.tWL = cycles(10 * tck, s.clock_mhz);     // 15
  c.tRP = cycles(26 * tck, s.clock_mhz);     // 39
  c.tRAS = cycles(45 * tck, s.clock_mhz);    // 68
  c.tRC = cycles(72 * tck, s.clock_mhz);     // 108
  c.tWR = cycles(33 * tck, s.clock_mhz);     // 50
  c.tRTP = cycles(9 * tck, s.clock_mhz);     // 14
  c.tCCD_S = 2;                              // BL8 at four beats a clock
  c.tCCD_L = cycles(4 * tck, s.clock_mhz);   // 6
  c.tRRD_S = cycles(4 * tck, s.clock_mhz);   // 6
  c.tRRD_L = cycles(5 * tck, s.clock_mhz);   // 8
  c.tFAW = cycles(24 * tck, s.clock_mhz);    // 36
  c.tWTR_S = cycles(7 * tck, s.clock_mhz);   // 11
  c.tWTR_L = cycles(10 * tck, s.clock_mhz);  // 15
  c.tRTW = cycles(20 * tck, s.clock_mhz);    // 30
  c.tRFC = cycles(450.0, s.clock_mhz);       // 1080
  c.tREFI = cycles(3900.0, s.clock_mhz);     // 9360
  c.bank_groups = 4;
  c.burst_length = 8;
  c.bus_bytes = 4;
  c.data_rate = 4;
  return s;
}

// The presets by name.
const std::pair<const char*, DramSpec (*)()> kPresets[] = {
    {"ddr4-2400", ddr4_2400}, {"gddr5", gddr5}, {"gddr6", gddr6}, {"hbm2", hbm2},
    {"hbm2e", hbm2e},         {"hbm3", hbm3},   {"hbm3e", hbm3e}};

}  // namespace

std::vector<std::string> DramSpec::preset_names() {
  std::vector<std::string> names;
  for (const auto& [name, make] : kPresets) names.push_back(name);
  return names;
}

std::optional<DramSpec> DramSpec::preset(const std::string& name) {
  for (const auto& [preset_name, make] : kPresets)
    if (name == preset_name) return make();
  return std::nullopt;
}

}  // namespace gputlm::mem
