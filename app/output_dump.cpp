#include "app/output_dump.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "app/cli_support.h"
#include "models/common/error.h"

namespace gputlm::app {
namespace {

namespace fs = std::filesystem;

// A file name for buffer `name`: letters, digits, '-', '_' and '.' kept, anything else '_'; made
// unique among `taken` with a numeric suffix.
std::string file_name(const std::string& name, std::set<std::string>& taken) {
  std::string base;
  for (char c : name)
    base +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  if (base.empty() || base[0] == '.') base = "_" + base;
  std::string file = base + ".bin";
  for (int i = 2; taken.count(file); ++i) file = base + "_" + std::to_string(i) + ".bin";
  taken.insert(file);
  return file;
}

void write_bytes(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw InputError(path.string() + ": cannot write --dump-outputs file");
}

}  // namespace

void check_dump_dir(const std::string& dir) {
  check_writable((fs::path(dir) / "outputs.json").string(), "--dump-outputs", true);
  std::error_code ec;  // made now: a directory that cannot be made fails before the run
  fs::create_directories(dir, ec);
  if (ec)
    throw InputError(dir + ": cannot make the --dump-outputs directory (" + ec.message() + ")");
}

std::string write_output_dump(const std::string& dir, const workload::Workload& w,
                              const DumpRun& run,
                              const std::vector<workload::OutputBuffer>& outputs,
                              const workload::VerifyReport& verify) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw InputError(dir + ": cannot make the --dump-outputs directory (" + ec.message() + ")");
  nlohmann::json index;
  index["workload"] = w.name();
  index["size"] = w.spec().size;
  index["mode"] = run.mode;
  index["config"] = run.config;
  index["byte_order"] = "little-endian";
  index["launches"] = nlohmann::json::array();
  for (const workload::LaunchSpec& l : w.spec().launches)
    index["launches"].push_back({{"kernel", l.kernel},
                                 {"grid", {l.grid.x, l.grid.y, l.grid.z}},
                                 {"block", {l.block.x, l.block.y, l.block.z}},
                                 {"repeat", l.repeat}});
  index["verify"] = {{"status", verify.status()}};
  if (verify.unchecked()) index["verify"]["reason"] = verify.unchecked_reason;
  index["buffers"] = nlohmann::json::array();
  std::set<std::string> taken;
  for (const workload::OutputBuffer& b : outputs) {
    const std::string file = file_name(b.name, taken);
    write_bytes(fs::path(dir) / file, b.bytes);
    index["buffers"].push_back({{"name", b.name},
                                {"type", b.type},
                                {"element_bytes", workload::buffer_type_size(b.type)},
                                {"count", b.count},
                                {"bytes", b.bytes.size()},
                                {"file", file},
                                {"status", verify.status_of(b.name)}});
  }
  const fs::path path = fs::path(dir) / "outputs.json";
  std::ofstream out(path);
  out << index.dump(2) << "\n";
  if (!out) throw InputError(path.string() + ": cannot write the --dump-outputs index");
  return path.string();
}

}  // namespace gputlm::app
