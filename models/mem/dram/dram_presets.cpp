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

// The presets by name.
const std::pair<const char*, DramSpec (*)()> kPresets[] = {
    {"ddr4-2400", ddr4_2400}, {"gddr5", gddr5}, {"gddr6", gddr6}};

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
