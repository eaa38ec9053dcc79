// One kernel parameter of a launch description ("params" in launch.json, traces/README.md): a
// pointer into a buffer, a scalar, a vector of scalars, raw bytes, or a struct of such fields laid
// out as C lays it out. Read and checked against the buffers when launch.json is read; checked
// against the kernel's .param declaration (size, alignment) when the kernel is known; encoded into
// the launch's parameter bytes at each launch (pointers take the buffer's address at that time).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/isa/kernel.h"

namespace gputlm::workload {

struct WorkloadSpec;
class SpecReader;

// A part of a parameter's bytes: fixed bytes, or (with `buffer`) the 8-byte device address of
// that buffer plus `offset` bytes.
struct ParamPiece {
  size_t at = 0;  // byte offset in the parameter
  std::vector<uint8_t> bytes;
  std::string buffer;
  uint64_t offset = 0;
};

struct ParamSpec {
  std::string path;  // key in launch.json ("launches[0].params[1]"), for messages
  std::string kind;  // pointer, scalar, vector, bytes or struct
  size_t size = 0;   // bytes
  size_t align =
      1;  // the alignment its layout needs (C's: a field's own size, a struct's largest field)
  std::vector<ParamPiece> pieces;
  std::optional<double> scalar;  // a scalar's value, for references (RefContext::param)

  // The pointer's buffer (kind "pointer"), else "".
  const std::string& buffer() const;
};

// Reads the parameter at `path`: {"buffer": b, "offset": bytes}, {"type": t, "value": v or [v...]},
// {"bytes": "hex"} or {"struct": [fields]}. ConfigError naming the file and key on any problem,
// with the nearest known name for a misspelt key or buffer.
ParamSpec read_param(const SpecReader& r, const nlohmann::json& v, const std::string& path,
                     const WorkloadSpec& spec);

// ConfigError (naming `file` and the parameter's key) unless `p` fits PTX parameter `decl`: the
// same size, and an alignment the declaration's .align holds.
void check_param(const ParamSpec& p, const isa::VarDecl& decl, const std::string& file);

// Writes `p` into `out` at its PTX offset, pointers resolved through `address` (buffer name ->
// device address at this launch).
void encode_param(const ParamSpec& p, const isa::VarDecl& decl,
                  const std::map<std::string, uint64_t>& address, std::vector<uint8_t>& out);

}  // namespace gputlm::workload
