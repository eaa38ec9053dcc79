// Fuzz target: the Accel-Sim importer. Each input is read three ways: as a kernel's .traceg (the
// stand-in kernel built from it, then every record read again), and as a kernelslist.g naming
// .traceg files of a scratch directory.
#include <sstream>

#include "fuzz/harness.h"
#include "io/trace/accel_sim.h"
#include "io/trace/accel_sim_replay.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gputlm::accelsim;
  const std::string& dir = gputlm::fuzz::scratch_dir();
  gputlm::fuzz::guarded(data, size, [&](const std::string& text) {
    gputlm::fuzz::write_file(dir + "/kernel-1.traceg", text);
    AccelSimKernel kernel(dir + "/kernel-1.traceg");
    std::istringstream in(text);
    TracegReader reader(in, "kernel-1.traceg");
    while (reader.next() != TracegReader::Kind::End) {}
  });
  return gputlm::fuzz::guarded(data, size, [&](const std::string& text) {
    gputlm::fuzz::write_file(dir + "/kernelslist.g", text);
    read_kernelslist(dir);
  });
}
