// Configuration of one DRAM channel and its controller ("dram" in a config), with the defaults of
// the papers' abstraction (Narasiman dissertation Table 5.1: 8 banks, 4KB row buffers, open row,
// FCFS, 100-cycle row hit, 300-cycle row conflict, 32 GB/s). Values the papers do not give are
// marked "chosen" and stay config keys.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/common/config_reader.h"

namespace gputlm::mem {

// Address bits of a channel, from the least significant: e.g. column 12 bits (4KB rows), bank
// 3 bits; the row is every bit above the listed fields. Fields: "column", "bank", "channel".
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

struct CommandTiming {  // command-level model, in controller (command clock) cycles
  uint64_t tRCD = 12, tCL = 12, tWL = 4, tRP = 12, tRAS = 28, tCCD = 2, tRRD = 6, tWR = 12;
  uint64_t burst_length = 8;  // beats per column command
  uint64_t bus_bytes = 8;     // bytes per beat (channel width)
  uint64_t data_rate = 4;     // beats per command clock (GDDR5: 4)
};

struct DramSpec {
  double clock_mhz = 1000.0;   // controller clock; chosen 1 GHz so 32 GB/s is 32 B/cycle
  uint32_t banks = 8;
  uint32_t row_bytes = 4096;
  uint32_t queue_depth = 32;   // chosen: request queue entries
  std::string page_policy = "open";       // open | closed
  std::string scheduler = "fcfs";         // a registered IDramScheduler name
  // fr-fcfs-hold: cycles a hinted row stays held after its data; 0 = the dissertation's threshold,
  // row conflict minus row hit latency (section 7.2, Fig. 7.3; tRP + tRCD in the command model).
  uint64_t hold_cycles = 0;
  std::string timing_model = "latency";   // latency | command
  std::vector<AddressField> address_map;  // empty = column bits of row_bytes, then bank bits
  LatencyTiming latency;
  CommandTiming command;

  // Reads `j` (the "dram" object) over the defaults; ConfigError names the key of any problem.
  static DramSpec from_json(const nlohmann::json& j, const std::string& where, const std::string& path = "dram");
  // The hold threshold in effect (hold_cycles, or the default above).
  uint64_t hold_threshold() const;
  // The GDDR5 preset of the command model (GPGPU-Sim's GTX 480 timing, 924 MHz command clock).
  static DramSpec gddr5();
};

}  // namespace gputlm::mem
