// The simulated side of `gputlm validate` and the statistics that compare it with hardware: each
// kernel's launches averaged (as the hardware CSV's values are), the counters that have a
// counterpart in the hardware CSV converted to its unit (32-byte sectors), kernels matched by
// mangled name within a program, and the error measures (MAPE, Pearson correlation).
// docs/user-guide/validation.md has the mapping table.
#pragma once

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/hw_counters.h"

namespace gputlm::app {

// A counter compared: the hardware columns it is the sum of, and the simulated statistic summed
// over the modules of one kind (`l1d`: gpu.coreN.l1d, `l2`: gpu.l2_N, `dram`: gpu.dramN), each
// request counted as the sectors of its level's line (see SectorScale).
struct CounterMapping {
  std::string name;                     // l1_reads, ..., dram_writes
  std::vector<std::string> hw_columns;  // summed: L1_RH + L1_RM
  std::string module_kind;              // l1d, l2, dram
  std::string stat;                     // reads, writes, hits, misses
  // In a sectored cache: the statistic that counts 32-byte-class sectors instead of requests
  // (read_sectors, write_sectors, sector_hits, sector_misses; empty for DRAM), as the hardware
  // counts the sectors a warp touched.
  std::string sector_stat;
};
const std::vector<CounterMapping>& counter_mappings();

// 32-byte sectors per simulated request: a level's line over 32 (L1D and L2 requests are lines;
// DRAM requests are the line of the level above it). 0 for a level the config does not have.
struct SectorScale {
  double l1d = 0, l2 = 0, dram = 0;
  // 32-byte sectors per sector of a sectored L1D or L2 (sector_bytes / 32; 0: unsectored): its
  // sector statistics are used instead of its requests.
  double l1d_sector = 0, l2_sector = 0;
  double of(const std::string& module_kind) const;
  double sector_of(const std::string& module_kind) const;
};

// A simulated kernel: its launches' means.
struct SimKernel {
  std::string kernel, demangled;
  size_t launches = 0;  // timed and complete: the ones averaged
  size_t untimed = 0;   // run on the functional engine alone (gputlm cuda --timed-launches)
  double cycles = 0;
  std::map<std::string, double> counters;  // by CounterMapping::name; absent: no module of it
};

// The launches of a --stats JSON grouped by `kernel` (in order of first launch), each value the
// mean over the kernel's launches. A run marked incomplete (stopped at its time limit) leaves its
// last launch out, the one stopped part way; the untimed launches (untimed_launches) are counted
// apart. InputError "<where>: ..." for a JSON without launches.
std::vector<SimKernel> average_launches(const nlohmann::json& stats, const SectorScale& scale,
                                        const std::string& where);

// A hardware kernel beside the simulated one of the same program and mangled name.
struct Comparison {
  std::string program, kernel, demangled;
  size_t launches = 0, untimed = 0;  // as SimKernel's
  double sim_cycles = 0, hw_cycles = 0;
  // By counter name: both values, or an absent value where one side has none.
  std::map<std::string, std::pair<std::optional<double>, std::optional<double>>> counters;
  double error() const { return sim_cycles / hw_cycles - 1; }
};

struct Matching {
  std::vector<Comparison> compared;
  // Copies, not pointers: a Matching outlives the program's simulated kernels (validate_command
  // keeps it for the report after their stats are gone).
  std::vector<HwKernel> hw_only;    // rows of the program with no simulated kernel
  std::vector<SimKernel> sim_only;  // simulated kernels with no row
};

// The rows of `hw` whose Benchmark is `program`, matched to `sim` by exact mangled name.
Matching match_kernels(const std::string& program, const std::vector<SimKernel>& sim,
                       const std::vector<HwKernel>& hw);

// Mean |sim - hw| / hw over the pairs (hw > 0); NaN when there are none.
double mape(const std::vector<double>& sim, const std::vector<double>& hw);
// Pearson's correlation of the pairs; NaN for fewer than two pairs or a constant side.
double pearson(const std::vector<double>& x, const std::vector<double>& y);

// The error measures of one quantity over the kernels that have both values.
struct Agreement {
  size_t kernels = 0;
  double mape = 0, pearson = 0;
};
Agreement cycles_agreement(const std::vector<Comparison>& c);
Agreement counter_agreement(const std::vector<Comparison>& c, const std::string& counter);

}  // namespace gputlm::app
