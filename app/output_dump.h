// --dump-outputs DIR: the final contents of a workload run's output buffers as files, so they can
// be compared outside gputlm. One raw file per buffer (<name>.bin: the elements little-endian,
// back to back) and an index, outputs.json: the workload, size, mode, config, launches, the
// verification status, and per buffer its name, element type, element size, count, byte size,
// file and status (verified, failed or unchecked).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/workload/workload.h"

namespace gputlm::app {

// InputError unless `dir` exists as a writable directory or can be made (it is made now): checked
// before a run.
void check_dump_dir(const std::string& dir);

// What the index says about the run besides the buffers.
struct DumpRun {
  std::string mode;                          // timing or functional
  nlohmann::json config = nlohmann::json();  // timing runs: {"name", "hash"}; null for functional
};

// Writes the buffers and the index into `dir` (made if missing); returns the index's path.
// InputError when a file cannot be written.
std::string write_output_dump(const std::string& dir, const workload::Workload& w,
                              const DumpRun& run,
                              const std::vector<workload::OutputBuffer>& outputs,
                              const workload::VerifyReport& verify);

}  // namespace gputlm::app
