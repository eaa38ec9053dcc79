// The shared frame of the memory testbenches (tb_dram, tb_cache): command line, config file,
// building the modules, running the simulation, printing statistics as JSON, optional VCD with a
// GTKWave save file, and one clear error and exit code for bad input.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tb/mem/trace_player.h"

namespace gputlm::tb {

struct MemoryTestbenchArgs {
  std::string config_path;
  nlohmann::json config;  // the parsed config file
  std::string trace_path;
};

// What a testbench builds: every module (owned here, alive through the simulation) and the trace
// players among them (the testbench ends when all have finished).
struct TestbenchParts {
  std::vector<std::unique_ptr<sc_core::sc_module>> modules;
  std::vector<TracePlayer*> players;

  template <class M, class... Args>
  M& add(Args&&... args) {
    auto m = std::make_unique<M>(std::forward<Args>(args)...);
    M& ref = *m;
    modules.push_back(std::move(m));
    return ref;
  }
};

// Builds the modules under test from the config. Throws ConfigError for bad values.
using BuildTestbench = std::function<void(const MemoryTestbenchArgs&, TestbenchParts&)>;

// Parses `--config --trace [--vcd] [--stats] [--help]`, builds, runs and reports; returns the
// process exit code.
int run_memory_testbench(int argc, char** argv, const std::string& name, const std::string& purpose,
                         const BuildTestbench& build);

}  // namespace gputlm::tb
