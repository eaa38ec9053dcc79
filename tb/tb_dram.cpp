// tb_dram: replays a DRAM request trace (DRAMSys STL text form) through one DRAM controller and
// prints its statistics as JSON; --vcd writes per-bank open row and command, queue occupancy and
// data-bus activity. Simulation time: 1 ns = one controller cycle.
#include <systemc>

#include "models/common/config_reader.h"
#include "models/mem/dram/dram_controller.h"
#include "tb/mem/memory_testbench.h"

using namespace gputlm;

int sc_main(int argc, char** argv) {
  return tb::run_memory_testbench(
      argc, argv, "tb_dram",
      "Replays a request trace through one DRAM controller (config key \"dram\").",
      [](const tb::MemoryTestbenchArgs& a, tb::TestbenchParts& parts) {
        ConfigReader r(a.config, a.config_path, "");
        const mem::DramSpec spec = mem::DramSpec::from_json(r.get_object("dram"), a.config_path);
        r.finish();
        const ClockDomain clock(spec.clock_mhz, spec.clock_mhz);
        auto& dram = parts.add<mem::DramController>("dram", spec, spec.clock_mhz);
        auto& player = parts.add<tb::TracePlayer>("player", a.trace_path, std::nullopt, 128, clock);
        player.downstream.socket.bind(dram.upstream.socket);
        parts.players.push_back(&player);
      });
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
