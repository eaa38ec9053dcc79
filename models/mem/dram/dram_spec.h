// Configuration of one DRAM channel and its controller ("dram" in a config), with the defaults of
// the papers' abstraction (Narasiman dissertation Table 5.1: 8 banks, 4KB row buffers, open row,
// FCFS, 100-cycle row hit, 300-cycle row conflict, 32 GB/s). Values the papers do not give are
// marked "chosen" and stay config keys.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/common/config_reader.h"

namespace gputlm::mem {

// Address bits of a channel, from the least significant: e.g. column 12 bits (4KB rows), bank
// 3 bits; the row is every bit above the listed fields. Fields: "column", "bank", "bank_group"
// (the bank number's high bits: DDR4 controllers often put them below the bank bits), "channel".
struct AddressField {
  std::string field;
  unsigned bits = 0;
};

struct LatencyTiming {  // the papers' abstraction, in controller cycles
  uint64_t row_hit = 100;
  uint64_t row_conflict = 300;
  uint64_t row_empty = 200;  // chosen: the papers give none; activate without precharge
  double bandwidth_gbps = 32.0;
  // How long a row change (conflict or empty bank) keeps the bank from starting another row:
  // "opening" its row_conflict - row_hit (or row_empty - row_hit) cycles, after which the next
  // row change may overlap its column access; "access" until its data transfer ends, so row
  // changes in a bank never overlap (the dissertation's Fig. 7.3 break-even assumes this). Row
  // hits to the open row start a cycle apart either way.
  std::string conflict_busy = "opening";
  // Data bus order: "issue" transfers in the order accesses start (a row hit issued after another
  // bank's conflict waits for that conflict's data); "data" each in the first free bus slot from
  // when its data is ready (a hit's data may pass a conflict's still being fetched).
  std::string bus_order = "issue";
};

// Command-level model (timing_model "command"), in command clock cycles. The constraints are
// JEDEC's (JESD79-4 for DDR4; the GDDR5, GDDR6 and HBM presets cite theirs in dram_presets.cpp):
//   same bank:        ACT->RD tRCD, ACT->WR tRCDWR, ACT->PRE tRAS, ACT->ACT tRC, PRE->ACT tRP,
//                     RD->PRE tRTP, WR->PRE tWL + burst + tWR
//   same bank group:  RD->RD and WR->WR tCCD_L, ACT->ACT tRRD_L, WR->RD tWL + burst + tWTR_L
//   any bank:         RD->RD and WR->WR tCCD_S, ACT->ACT tRRD_S, at most 4 ACTs in tFAW,
//                     WR->RD tWL + burst + tWTR_S, RD->WR tRTW, REF->ACT tRFC
// where burst = burst_length / data_rate cycles of data on the bus. Bank groups: bank b is in
// group b / (banks / bank_groups); with one group the _L values are unused. A zero tRC is
// tRAS + tRP; a zero tRTW is the JEDEC bus turnaround tCL + burst + 2 - tWL; tFAW 0 is no window;
// tREFI 0 turns refresh off; a zero tRCDWR is tRCD (HBM and GDDR6 give activate-to-write its own,
// shorter value). The defaults are the gddr5 preset's cycles (dram_presets.cpp) with one
// bank group; refresh is on.
struct CommandTiming {
  uint64_t tRCD = 12, tCL = 12, tWL = 4, tRP = 12, tRAS = 28, tRC = 40;
  uint64_t tCCD_S = 2, tCCD_L = 3, tRRD_S = 6, tRRD_L = 6, tFAW = 22;
  uint64_t tRTP = 2, tWR = 12, tWTR_S = 5, tWTR_L = 5, tRTW = 0;
  uint64_t tREFI = 3604, tRFC = 61;
  uint64_t tRCDWR = 0;
  uint32_t bank_groups = 1;
  uint64_t burst_length = 8;  // beats per column command
  uint64_t bus_bytes = 8;     // bytes per beat (channel width)
  uint64_t data_rate = 4;     // beats per command clock (GDDR5: 4)
  // HBM's separate row and column command interfaces (JESD235: row commands, ACT and PRE, on
  // their own pins beside the column commands): a row command and a column command may issue in
  // the same cycle. false (default): one command a cycle, as DDR and GDDR have, and as the
  // Ramulator 2 comparisons of the hbm presets assume.
  bool dual_command_bus = false;

  uint64_t burst() const {
    return burst_length / data_rate;
  }  // cycles a column command holds the bus
  uint64_t rc() const { return tRC ? tRC : tRAS + tRP; }
  uint64_t rcd_write() const { return tRCDWR ? tRCDWR : tRCD; }
  uint64_t rtw() const {
    if (tRTW) return tRTW;
    return tCL + burst() + 2 > tWL ? tCL + burst() + 2 - tWL : 1;
  }
};

struct DramSpec {
  double clock_mhz = 1000.0;  // controller clock; chosen 1 GHz so 32 GB/s is 32 B/cycle
  uint32_t banks = 8;
  uint32_t row_bytes = 4096;
  uint32_t queue_depth = 32;  // chosen: request queue entries (the command model: the read queue)
  // The command model keeps writes in their own queue and serves them in bursts: it turns to
  // writes when the write queue is fuller than write_high (a fraction) or no read waits, and back
  // to reads when it is below write_low and a read waits (Ramulator 2's generic controller).
  uint32_t write_queue_depth = 32;
  double write_high = 0.8, write_low = 0.2;
  // Controller cycles every response waits after its access (key "controller_latency"): the fixed
  // part of a DRAM access that no timing parameter gives, the controller's and the PHY's
  // pipelines (Accel-Sim's `dram_latency`, 100 on its QV100). 0 (the default): none. The banks and
  // the bus are free at the access's own end; only the response waits.
  uint64_t controller_latency = 0;
  enum class PagePolicy { Open, Closed };
  PagePolicy page_policy = PagePolicy::Open;  // "page_policy": open | closed
  std::string scheduler = "fcfs";             // a registered IDramScheduler name
  // fr-fcfs-hold: cycles a hinted row stays held after its data; 0 = the dissertation's threshold,
  // row conflict minus row hit latency (section 7.2, Fig. 7.3; tRP + tRCD in the command model).
  uint64_t hold_cycles = 0;
  enum class TimingModel { Latency, Command };
  TimingModel timing_model = TimingModel::Latency;  // "timing_model": latency | command
  bool command_model() const { return timing_model == TimingModel::Command; }
  // Each timing model's config name, the name its IDramTiming is registered as (dram_timing.h).
  static const std::vector<std::pair<std::string, TimingModel>>& timing_model_names();
  const std::string& timing_model_name() const;
  std::vector<AddressField> address_map;  // empty = column bits of row_bytes, then bank bits
  // What address_map splits (key "address_space"): "global" (false, the default) the physical
  // address as it is; "channel" (true) the channel's own address, the runs of the other channels
  // taken out: (a / (run x channels)) x run + a mod run, so that a channel's runs are contiguous in
  // its rows, as GPGPU-Sim's address decoder removes the channel bits before row, bank and column.
  // The GPU sets channels and channel_run_bytes (its partitions and the crossbar's interleave).
  bool channel_addresses = false;
  uint32_t channels = 1;
  uint64_t channel_run_bytes = 0;
  LatencyTiming latency;
  CommandTiming command;

  // Reads `j` (the "dram" object) over the defaults; ConfigError names the key of any problem.
  static DramSpec from_json(const nlohmann::json& j, const std::string& where,
                            const std::string& path = "dram");
  // The hold threshold in effect (hold_cycles, or the default above).
  uint64_t hold_threshold() const;
  // A command-model preset by name ("ddr4-2400", "gddr5", "gddr6", "hbm2", "hbm2e", "hbm3",
  // "hbm3e"; dram_presets.cpp), or nullopt.
  static std::optional<DramSpec> preset(const std::string& name);
  static std::vector<std::string> preset_names();
};

}  // namespace gputlm::mem
