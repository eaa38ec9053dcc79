// Fuzz target: a GPU config (JSON text -> validated gpu::GpuSpec). The input is written as
// config.json into a scratch directory holding a copy of the repository's configs/, so a "base"
// key can name a real preset (or a missing file, a directory, itself).
#include <filesystem>

#include "fuzz/harness.h"
#include "models/gpu/gpu_spec.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  namespace fs = std::filesystem;
  fs::copy(fs::path(GPUTLM_SOURCE_DIR) / "configs", gputlm::fuzz::scratch_dir(),
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gputlm::fuzz::guarded(data, size, [](const std::string& text) {
    const std::string path = gputlm::fuzz::scratch_dir() + "/config.json";
    gputlm::fuzz::write_file(path, text);
    gputlm::gpu::GpuSpec::from_file(path);
  });
}
