// The driver API's linker (cuLinkCreate, cuLinkAddData, cuLinkAddFile, cuLinkComplete,
// cuLinkDestroy; CUDA driver API, "Module Management"). NVIDIA's driver JIT-compiles PTX to machine
// code and links it; gputlm runs PTX, so the link's output is the PTX itself: the inputs linked as
// nvlink would link them (ptx_text_link.h), which cuModuleLoadData takes as any PTX image. An input
// is read by the PTX front end when it is added, so a malformed one fails there with
// CUDA_ERROR_INVALID_PTX and the front end's message in the error log, as a JIT error would.
// Inputs: PTX (CU_JIT_INPUT_PTX) and fat binaries holding PTX; machine code (cubin, objects,
// libraries such as cudadevrt) and NVVM IR end the run as not implemented (exit 2).
// Output options, written at cuLinkComplete: CU_JIT_WALL_TIME (the option's value becomes the
// float milliseconds spent), the info and error log buffers with their sizes. The others are kept
// and change nothing.
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "models/common/error.h"
#include "models/isa/ptx_parser.h"
#include "runtime/driver_support.h"
#include "runtime/fat_binary.h"
#include "runtime/ptx_text_link.h"

using namespace gputlm::runtime;

namespace {

constexpr int kJitWallTime = 2, kJitInfoLog = 3, kJitInfoLogSize = 4, kJitErrorLog = 5,
              kJitErrorLogSize = 6;
constexpr int kInputPtx = 1, kInputFatbinary = 2;
constexpr CudaError kDriverInvalidPtx = CudaError(218);  // CUDA_ERROR_INVALID_PTX

struct LinkState {
  std::vector<int> options;
  void** values = nullptr;
  std::vector<std::string> inputs;
  std::string output, info, error;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

  // The option's value slot, nullptr when it was not given.
  void** slot(int option) const {
    for (size_t i = 0; i < options.size(); ++i)
      if (options[i] == option) return &values[i];
    return nullptr;
  }
  // The log buffers' sizes as given (the size options are overwritten with what was written).
  unsigned info_capacity = 0, error_capacity = 0;
  unsigned given(int size_option) const {
    void** size = slot(size_option);
    return size ? static_cast<unsigned>(reinterpret_cast<uintptr_t>(*size)) : 0;
  }
  // Writes `text` into the log buffer `buffer_option` of `capacity` bytes (capped, NUL-terminated);
  // the size option `size_option` then says how much was written.
  void write_log(int buffer_option, int size_option, unsigned capacity,
                 const std::string& text) const {
    void** buffer = slot(buffer_option);
    void** size = slot(size_option);
    if (!buffer || !*buffer || !size || !capacity) return;
    const size_t n = std::min<size_t>(text.size(), capacity - 1);
    std::memcpy(*buffer, text.data(), n);
    static_cast<char*>(*buffer)[n] = 0;
    *size = reinterpret_cast<void*>(static_cast<uintptr_t>(n + 1));
  }
  void write_outputs() const {
    if (void** wall = slot(kJitWallTime)) {
      const float ms =
          std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - started)
              .count();
      std::memcpy(wall, &ms, sizeof ms);
    }
    write_log(kJitInfoLog, kJitInfoLogSize, info_capacity, info);
    write_log(kJitErrorLog, kJitErrorLogSize, error_capacity, error);
  }
};

// Adds one input (its bytes); the CUresult.
CudaError add_input(LinkState& s, int type, const char* data, size_t size,
                    const std::string& name) {
  std::string ptx;
  if (type == kInputPtx) {
    ptx.assign(data, strnlen(data, size));
  } else if (type == kInputFatbinary) {
    ptx = select_ptx(read_container(reinterpret_cast<const uint8_t*>(data), size, name), name)
              .payload;
  } else {
    static const char* const kinds[] = {"a cubin",   "PTX",       "a fat binary",
                                        "an object", "a library", "NVVM IR"};
    not_implemented(std::string("cuLinkAddData of ") +
                    (type >= 0 && type <= 5 ? kinds[type] : "an unknown input type") +
                    " (gputlm links PTX, and fat binaries holding PTX)");
  }
  std::string errors;
  try {
    const auto module = gputlm::isa::parse_ptx(ptx, name);
    for (const auto& [kernel, e] : module->kernel_errors)
      errors += std::string(e.what()) + "\n";  // ptxas fails the whole module
  } catch (const gputlm::SourceError& e) {
    errors = std::string(e.what()) + "\n";
  }
  if (!errors.empty()) {
    s.error += errors;
    s.write_outputs();
    return kDriverInvalidPtx;
  }
  s.inputs.push_back(std::move(ptx));
  s.info +=
      "gputlm: added " + name + " (PTX, " + std::to_string(s.inputs.back().size()) + " bytes)\n";
  return kSuccess;
}

}  // namespace

extern "C" {

int cuLinkCreate_v2(unsigned num_options, int* options, void** values, void** state) {
  return driver("cuLinkCreate", [&] {
    if (!state || (num_options && (!options || !values))) return kErrorInvalidValue;
    auto* s = new LinkState;
    s->options.assign(options, options + num_options);
    s->values = values;
    s->info_capacity = s->given(kJitInfoLogSize);
    s->error_capacity = s->given(kJitErrorLogSize);
    *state = s;
    return kSuccess;
  });
}
int cuLinkCreate(unsigned num_options, int* options, void** values, void** state) {
  return cuLinkCreate_v2(num_options, options, values, state);
}

int cuLinkAddData_v2(void* state, int type, void* data, size_t size, const char* name, unsigned,
                     int*, void**) {
  return driver("cuLinkAddData", [&] {
    if (!state || !data || !size) return kErrorInvalidValue;
    return add_input(*static_cast<LinkState*>(state), type, static_cast<const char*>(data), size,
                     name && *name ? name : "cuLinkAddData input");
  });
}
int cuLinkAddData(void* state, int type, void* data, size_t size, const char* name, unsigned n,
                  int* options, void** values) {
  return cuLinkAddData_v2(state, type, data, size, name, n, options, values);
}

int cuLinkAddFile_v2(void* state, int type, const char* path, unsigned, int*, void**) {
  return driver("cuLinkAddFile", [&] {
    if (!state || !path) return kErrorInvalidValue;
    std::ifstream in(path, std::ios::binary);
    if (!in) return kDriverNotFound;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return add_input(*static_cast<LinkState*>(state), type, bytes.c_str(), bytes.size() + 1, path);
  });
}
int cuLinkAddFile(void* state, int type, const char* path, unsigned n, int* options,
                  void** values) {
  return cuLinkAddFile_v2(state, type, path, n, options, values);
}

int cuLinkComplete(void* state, void** image, size_t* size) {
  return driver("cuLinkComplete", [&] {
    if (!state || !image || !size) return kErrorInvalidValue;
    auto& s = *static_cast<LinkState*>(state);
    if (s.inputs.empty()) return kErrorInvalidValue;
    s.output = link_ptx_modules(s.inputs);
    s.info += "gputlm: linked " + std::to_string(s.inputs.size()) +
              " PTX module(s); the image is their PTX (gputlm runs PTX)\n";
    s.write_outputs();
    *image = s.output.data();
    *size = s.output.size() + 1;
    return kSuccess;
  });
}

int cuLinkDestroy(void* state) {
  return driver("cuLinkDestroy", [&] {
    if (!state) return kDriverInvalidHandle;
    delete static_cast<LinkState*>(state);
    return kSuccess;
  });
}

}  // extern "C"
