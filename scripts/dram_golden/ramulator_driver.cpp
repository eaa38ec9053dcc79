// gputlm's own driver for Ramulator 2.1 (linked against its libramulator.so; no Ramulator code
// here). It replays one DRAMSys-STL request trace -- the same file tb_dram reads -- through
// Ramulator's `External` frontend, one memory-controller tick per DRAM cycle, and runs until
// every request has completed (Ramulator's own Python run loop stops as soon as the frontend has
// *sent* its last request, so it never measures the drain; that is why this driver exists).
//
//   ramulator_driver CONFIG.yaml TRACE.stl [TICKS_PER_CYCLE]
//
// TICKS_PER_CYCLE (default 1): controller ticks per trace cycle, for standards Ramulator ticks
// faster than their command clock (HBM3: 2, half clocks). A request is then offered from tick
// TICKS_PER_CYCLE * its trace cycle, and every figure below is in ticks.
//
// Offer rule, per DRAM cycle t = 0, 1, 2, ...: if the oldest not-yet-accepted request has
// trace cycle <= t, it is offered (send) before the controller's tick t+1; a refused request
// (controller read/write buffer full) is offered again at t+1. At most one request is offered
// per cycle. Ramulator stamps an accepted request with arrive = t (its m_clk before the tick).
//
// Completion: a read completes when Ramulator calls its callback (controller clock
// depart = RD issue cycle + read_latency); a write completes when its callback fires, which
// Ramulator does when the WR command issues (or at once if the write coalesced into a buffered
// write to the same address). drain_cycles = controller clock of the last completion.
//
// Output on stdout: `key: value` lines -- the driver's own measurements (prefix drv_), then
// Ramulator's stats tree as it prints it.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "ramulator/base/base.h"
#include "ramulator/base/config.h"
#include "ramulator/base/factory.h"
#include "ramulator/base/request.h"
#include "ramulator/frontend/i_frontend.h"
#include "ramulator/memory_system/i_memory_system.h"

namespace {

struct Req {
  uint64_t cycle;
  bool write;
  uint64_t addr;
};

std::vector<Req> read_stl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Req> out;
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    n++;
    auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream ss(line);
    std::string cyc, op, addr;
    if (!(ss >> cyc)) continue;
    if (!(ss >> op >> addr) || cyc.back() != ':' || (op != "read" && op != "write"))
      throw std::runtime_error(path + ":" + std::to_string(n) + ": malformed line");
    cyc.pop_back();
    out.push_back({std::stoull(cyc), op == "write", std::stoull(addr, nullptr, 0)});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s CONFIG.yaml TRACE.stl [TICKS_PER_CYCLE]\n", argv[0]);
    return 2;
  }
  const uint64_t ticks_per_cycle = argc == 4 ? std::stoull(argv[3]) : 1;
  auto trace = read_stl(argv[2]);
  auto config = Ramulator::Config::parse_config_file(argv[1]);
  auto* frontend = Ramulator::Factory::create_frontend(config);
  auto* mem = Ramulator::Factory::create_memory_system(config);
  frontend->connect_memory_system(mem);
  mem->connect_frontend(frontend);
  const int tx = mem->get_tx_bytes();

  uint64_t done = 0, reads_done = 0, writes_done = 0, last_done = 0, now = 0;
  uint64_t lat_arrive_sum = 0, lat_trace_sum = 0, refused = 0;
  std::vector<uint64_t> offered_at(trace.size());
  size_t next = 0;
  const uint64_t limit = 100000000;

  for (uint64_t t = 0; done < trace.size(); t++) {
    if (t > limit) throw std::runtime_error("no progress");
    if (next < trace.size() && trace[next].cycle * ticks_per_cycle <= t) {
      const size_t i = next;
      const Req r = trace[i];
      auto cb = [&, i, r](Ramulator::Request& q) {
        // Reads: q.depart is the completion clock. Writes: called during the tick that
        // issues WR (clock = now), or inside send() when coalesced (clock = t).
        uint64_t end = r.write ? now : static_cast<uint64_t>(q.depart);
        if (!r.write) {
          reads_done++;
          lat_arrive_sum += q.depart - q.arrive;
          lat_trace_sum += q.depart - trace[i].cycle * ticks_per_cycle;
        } else {
          writes_done++;
        }
        done++;
        if (end > last_done) last_done = end;
      };
      if (frontend->receive_external_requests(r.write ? 1 : 0,
                                              static_cast<Ramulator::Addr_t>(r.addr), 0, cb, tx))
        next++;
      else
        refused++;
    }
    now = t + 1;  // the controller's m_clk during this tick
    mem->tick();
  }

  frontend->finalize();
  mem->finalize();
  std::cout << "drv_ticks_per_cycle: " << ticks_per_cycle << "\n"
            << "drv_requests: " << trace.size() << "\n"
            << "drv_reads_done: " << reads_done << "\n"
            << "drv_writes_done: " << writes_done << "\n"
            << "drv_drain_cycles: " << last_done << "\n"
            << "drv_ticks: " << now << "\n"
            << "drv_refused_offers: " << refused << "\n"
            << "drv_read_latency_arrive_sum: " << lat_arrive_sum << "\n"
            << "drv_read_latency_trace_sum: " << lat_trace_sum << "\n";
  mem->print_stats(std::cout);
  return 0;
}
