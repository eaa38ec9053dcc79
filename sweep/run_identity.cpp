#include "sweep/run_identity.h"

#include <elf.h>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "models/common/error.h"

namespace fs = std::filesystem;

namespace gputlm::sweep {

namespace {
void add_file(Hash128& h, const fs::path& file, const std::string& name) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string() + ": cannot read (hashing the run's inputs)");
  h.field(name);
  std::string buffer(1 << 16, '\0');
  uint64_t total = 0;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    h.add(std::string_view(buffer.data(), static_cast<size_t>(in.gcount())));
    total += static_cast<uint64_t>(in.gcount());
  }
  h.field(std::to_string(total));
}
}  // namespace

Hash128 hash_tree(const std::string& path) {
  Hash128 h;
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) {
    add_file(h, path, fs::path(path).filename().string());
    return h;
  }
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(path, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), path).generic_string());
  if (ec) throw InputError(path + ": cannot list the files (" + ec.message() + ")");
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) add_file(h, fs::path(path) / f, f);
  return h;
}

std::string executable_image(std::string bytes) {
  // The version field (sc_main/git_version.h): marker, then kVersionField bytes.
  constexpr size_t kVersionField = 64;
  const std::string marker = std::string("gputlm-git-") + "version:";
  for (size_t at = bytes.find(marker); at != std::string::npos; at = bytes.find(marker, at + 1)) {
    const size_t from = at + marker.size();
    std::memset(bytes.data() + from, 0, std::min(kVersionField, bytes.size() - from));
  }
  // An ELF file: only the sections loaded into memory (code, constants, data), not the notes (the
  // linker's build id hashes the whole file, version text included) nor the debug information.
  Elf64_Ehdr eh;
  if (bytes.size() < sizeof eh || bytes.compare(0, SELFMAG, ELFMAG) != 0 ||
      bytes[EI_CLASS] != ELFCLASS64)
    return bytes;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  std::string image;
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    const uint64_t at = eh.e_shoff + i * uint64_t{eh.e_shentsize};
    if (eh.e_shentsize < sizeof sh || at + sizeof sh > bytes.size()) break;
    std::memcpy(&sh, bytes.data() + at, sizeof sh);
    const bool loaded =
        (sh.sh_flags & SHF_ALLOC) && sh.sh_type != SHT_NOTE && sh.sh_type != SHT_NOBITS;
    if (loaded && sh.sh_offset + sh.sh_size <= bytes.size())
      image.append(bytes, sh.sh_offset, sh.sh_size);
  }
  return image;
}

Hash128 hash_executable() {
  std::ifstream in("/proc/self/exe", std::ios::binary | std::ios::ate);
  std::string bytes(in ? static_cast<size_t>(in.tellg()) : 0, '\0');
  in.seekg(0);
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
    throw InputError(
        "/proc/self/exe: cannot read gputlm's own executable (to identify the simulator)");
  Hash128 h;
  h.field(executable_image(std::move(bytes)));
  return h;
}

std::string run_id(const nlohmann::json& resolved_config, const std::string& kind,
                   const Hash128& inputs, const std::string& size, const Hash128& simulator,
                   const nlohmann::json& options) {
  Hash128 h;
  h.field("gputlm sweep run 1")
      .field(resolved_config.dump())
      .field(kind)
      .add(inputs)
      .field(size)
      .add(simulator);
  if (!options.empty()) h.field("options").field(options.dump());
  return h.hex();
}

}  // namespace gputlm::sweep
