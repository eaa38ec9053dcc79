#include "io/trace/trace_file.h"

#include <boost/iostreams/device/file.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <fstream>

#include "models/common/error.h"

namespace gputlm::trace {

namespace io = boost::iostreams;

std::unique_ptr<std::istream> open_trace(const std::string& path) {
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw InputError(path + ": cannot read the trace");
  unsigned char magic[2] = {0, 0};
  probe.read(reinterpret_cast<char*>(magic), 2);
  if (!(probe.gcount() == 2 && magic[0] == 0x1f && magic[1] == 0x8b)) {
    probe.close();
    return std::make_unique<std::ifstream>(path, std::ios::binary);
  }
  auto in = std::make_unique<io::filtering_istream>();
  in->push(io::gzip_decompressor());
  in->push(io::file_source(path, std::ios::binary));
  in->exceptions(std::ios::badbit);  // a corrupt stream is an error, not a silent end
  return in;
}

std::unique_ptr<std::ostream> create_trace(const std::string& path, Compression compression) {
  if (compression == Compression::None) {
    auto out = std::make_unique<std::ofstream>(path, std::ios::binary);
    if (!*out) throw InputError(path + ": cannot write the trace");
    return out;
  }
  {
    std::ofstream probe(path, std::ios::binary);
    if (!probe) throw InputError(path + ": cannot write the trace");
  }
  auto out = std::make_unique<io::filtering_ostream>();
  out->push(io::gzip_compressor());
  out->push(io::file_sink(path, std::ios::binary));
  return out;
}

void finish_trace(std::unique_ptr<std::ostream> out, const std::string& path) {
  out->flush();
  const bool ok = static_cast<bool>(*out);
  if (auto* f = dynamic_cast<io::filtering_ostream*>(out.get()))
    f->reset();  // writes the gzip trailer
  out.reset();
  if (!ok) throw InputError(path + ": the trace could not be written (disk full?)");
}

}  // namespace gputlm::trace
