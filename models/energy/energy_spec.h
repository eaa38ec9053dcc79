// The per-event energy table of a GPU config ("energy" in a config, usually a file of
// configs/energy/ that the config names: gpu::load_config puts the file's object in its place).
// Every value is given by the table (no defaults here: a table says where each number comes from,
// in its "description" strings and "sources"), in picojoules per event or watts of static power,
// for the process node the table names. energy_model.h turns a launch's module statistics into
// joules with it. No SystemC: the table and the model are plain C++ (unit-tested on hand-made
// statistics).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "models/isa/opcode.h"

namespace gputlm::energy {

// A mem::Cache instance: energy per counted event (its "hits", "misses", "fills", "writebacks")
// and its static power (0 where the owner's static power covers it).
struct CacheEnergy {
  double hit_pj = 0;        // tag check and data access of one request
  double miss_pj = 0;       // tag check and MSHR of a request that missed
  double fill_pj = 0;       // writing a line that came from below
  double writeback_pj = 0;  // reading a dirty line out
  double static_w = 0;
};

// The SIMT core (sm::Core): per warp instruction (fetch, decode, scheduling), per warp-wide
// register operand read and write, per thread instruction of each class (isa::InstrClass, by
// isa::instr_class_name), per shared-memory word, and the core's static power (its L1s included).
struct SimtCoreEnergy {
  double instruction_pj = 0;
  double register_read_pj = 0;
  double register_write_pj = 0;
  std::array<double, isa::kInstrClasses> unit_pj{};
  double shared_access_pj = 0;
  double static_w = 0;
};

// The interconnect: per byte of a flit per hop (a crossbar traversal is `hops` hops).
struct XbarEnergy {
  double byte_hop_pj = 0;
  double hops = 1;
  double static_w = 0;
};

// One DRAM device's datasheet currents (mA) at VDD (V), with the tRC, tRAS and tRFC (ns) of their
// test conditions; a channel has devices_per_channel devices working in lockstep (Micron TN-41-01,
// DRAMPower). Derived energies are per device.
struct DramEnergy {
  double vdd = 0;
  double idd0_ma = 0, idd2n_ma = 0, idd3n_ma = 0, idd4r_ma = 0, idd4w_ma = 0, idd5_ma = 0;
  double trc_ns = 0, tras_ns = 0, trfc_ns = 0;
  uint32_t devices_per_channel = 1;

  // An activate and its precharge: (IDD0 tRC - (IDD3N tRAS + IDD2N (tRC - tRAS))) VDD, pJ.
  double activate_precharge_pj() const {
    return (idd0_ma * trc_ns - (idd3n_ma * tras_ns + idd2n_ma * (trc_ns - tras_ns))) * vdd;
  }
  // One refresh: (IDD5 - IDD3N) VDD tRFC, pJ.
  double refresh_pj() const { return (idd5_ma - idd3n_ma) * vdd * trfc_ns; }
  // Power above active standby while data bursts: (IDD4R|W - IDD3N) VDD, W.
  double read_burst_w() const { return (idd4r_ma - idd3n_ma) * vdd * 1e-3; }
  double write_burst_w() const { return (idd4w_ma - idd3n_ma) * vdd * 1e-3; }
  // Background: a bank open (active standby) or all precharged, W.
  double active_standby_w() const { return idd3n_ma * vdd * 1e-3; }
  double precharge_standby_w() const { return idd2n_ma * vdd * 1e-3; }
};

// The VGIW core (Voitsechov & Etsion, MICRO 2015): per firing of each unit type, per token buffer
// access of a firing, per token hop, per shared-memory word, per control vector table word read
// and update, per reconfiguration, its caches, and the core's static power.
struct VgiwEnergy {
  double compute_pj = 0, special_pj = 0, load_store_pj = 0, live_value_pj = 0, split_join_pj = 0,
         control_vector_pj = 0;
  double token_buffer_pj = 0;
  double token_hop_pj = 0;
  double shared_access_pj = 0;
  double cvt_read_pj = 0, cvt_update_pj = 0;
  double reconfiguration_pj = 0;
  double static_w = 0;
  CacheEnergy l1d, lvc;
};

struct EnergySpec {
  std::string name;
  std::string description;
  std::string table_file;  // the file the config named ("" when the table is written in the config)
  double process_nm = 0;
  SimtCoreEnergy core;
  CacheEnergy l1i, l1d, l2;
  XbarEnergy xbar;
  DramEnergy dram;
  VgiwEnergy vgiw;

  // Reads a table (every key required; "description" strings and a "sources" object of strings
  // are allowed in each group); ConfigError names the key of any problem, missing or unknown.
  static EnergySpec from_json(const nlohmann::json& j, const std::string& where,
                              const std::string& path = "energy");
  // Checks what no single key can: DRAM currents that would give a negative energy.
  void validate(const std::string& where, const std::string& path = "energy") const;
};

}  // namespace gputlm::energy
