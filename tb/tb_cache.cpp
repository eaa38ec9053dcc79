// tb_cache: drives L1 -> interconnect -> L2 -> DRAM from an address trace and prints every
// module's statistics as JSON. Config: "cores" (one L1 and one trace player each; a trace line's
// core=N picks the player), "l1", "xbar", "l2" (optional: without it the interconnect feeds the
// DRAM channels directly, as in Narasiman's Table 5.1), "partitions" (L2 slice + DRAM channel
// pairs) and "dram". Simulation time: 1 ns = one L1 cycle.
#include <systemc>

#include "models/common/config_reader.h"
#include "models/mem/cache/cache.h"
#include "models/mem/dram/dram_controller.h"
#include "models/mem/xbar/xbar.h"
#include "tb/mem/memory_testbench.h"

using namespace gputlm;

int sc_main(int argc, char** argv) {
  return tb::run_memory_testbench(
      argc, argv, "tb_cache", "Replays an address trace through L1 -> interconnect -> L2 -> DRAM.",
      [](const tb::MemoryTestbenchArgs& a, tb::TestbenchParts& parts) {
        ConfigReader r(a.config, a.config_path, "");
        const uint32_t cores = static_cast<uint32_t>(r.get_uint("cores", 1, 1, 1024));
        const uint32_t partitions = static_cast<uint32_t>(r.get_uint("partitions", 1, 1, 1024));
        const mem::CacheSpec l1 =
            mem::CacheSpec::from_json(r.get_object("l1"), a.config_path, "l1");
        const mem::XbarSpec xs =
            mem::XbarSpec::from_json(r.get_object("xbar"), a.config_path, "xbar");
        const bool has_l2 = r.has("l2");
        mem::CacheSpec l2 = l1;
        if (has_l2) l2 = mem::CacheSpec::from_json(r.get_object("l2"), a.config_path, "l2");
        const mem::DramSpec ds =
            mem::DramSpec::from_json(r.get_object("dram"), a.config_path, "dram");
        r.finish();
        const double ref = l1.clock_mhz;
        const ClockDomain clock(ref, ref);
        // Created in data-path order (cores, L1s, interconnect, L2 slices, DRAM) so that statistics
        // and waves list them that way.
        std::vector<mem::Cache*> l1s;
        for (uint32_t c = 0; c < cores; ++c) {
          auto& player =
              parts.add<tb::TracePlayer>(("core" + std::to_string(c)).c_str(), a.trace_path,
                                         std::optional<uint32_t>(c), l1.line_bytes, clock);
          l1s.push_back(&parts.add<mem::Cache>(("l1_" + std::to_string(c)).c_str(), l1, ref));
          player.downstream.socket.bind(l1s.back()->upstream.socket);
          parts.players.push_back(&player);
        }
        auto& xbar = parts.add<mem::Xbar>("xbar", xs, cores, partitions, ref);
        for (uint32_t c = 0; c < cores; ++c)
          l1s[c]->downstream.socket.bind(xbar.upstream(c).socket);
        for (uint32_t m = 0; m < partitions; ++m) {
          mem::Cache* slice =
              has_l2 ? &parts.add<mem::Cache>(("l2_" + std::to_string(m)).c_str(), l2, ref)
                     : nullptr;
          auto& dram =
              parts.add<mem::DramController>(("dram_" + std::to_string(m)).c_str(), ds, ref);
          if (slice) slice->downstream.socket.bind(dram.upstream.socket);
          xbar.downstream(m).socket.bind(slice ? slice->upstream.socket : dram.upstream.socket);
        }
      });
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
