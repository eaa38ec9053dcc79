#include "tb/vcd_file.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <systemc>

#include "models/common/error.h"

namespace gputlm::tb {
namespace {
std::string stem(const std::string& path) {
  const std::string ext = ".vcd";
  return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0
             ? path.substr(0, path.size() - ext.size())
             : path;
}
}  // namespace

VcdFile::VcdFile(const std::string& path) : m_path(stem(path) + ".vcd") {
  const auto dir = std::filesystem::path(m_path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  if (!std::ofstream(m_path)) throw InputError(m_path + ": cannot write VCD file");
  m_tf = sc_core::sc_create_vcd_trace_file(stem(path).c_str());
  sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
  m_tf->set_time_unit(1, sc_core::SC_NS);
}

VcdFile::~VcdFile() {
  if (m_tf) sc_core::sc_close_vcd_trace_file(m_tf);
}

void VcdFile::write_save_file(const std::vector<WaveGroup>& groups, unsigned visible_cycles, uint64_t start) const {
  std::ofstream out(stem(m_path) + ".gtkw");
  out << "[*] GTKWave save file written by gputlm: signals grouped per module, one time unit = one cycle\n";
  out << "[dumpfile] \"" << std::filesystem::path(m_path).filename().string() << "\"\n";
  out << "[timestart] " << start << "\n[size] 1600 900\n[pos] -1 -1\n";
  // Zoom is a power of two of the time per pixel; measured in GTKWave 3.3 with this layout, zoom z
  // shows about 2.6 * 2^-z cycles in the waves pane.
  const double zoom = std::log2(2.6 / visible_cycles);
  out << "*" << std::fixed << zoom << " " << start << " -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n";
  out << "[sst_width] 220\n[signals_width] 260\n[sst_expanded] 1\n";
  for (const WaveGroup& g : groups) {
    out << "@800200\n-" << g.name << "\n";
    for (const WaveSignal& s : g.signals) {
      // GTKWave trace flags: 0x20 right-justify with 0x2 hex, 0x4 decimal or 0x8 binary.
      out << (s.format == WaveSignal::Format::Hex ? "@22\n" : s.format == WaveSignal::Format::Dec ? "@24\n" : "@28\n");
      out << "SystemC." << s.name;
      if (s.bits > 1) out << "[" << s.bits - 1 << ":0]";
      out << "\n";
    }
    out << "@1000200\n-" << g.name << "\n";
  }
}

namespace {
void trace_below(sc_core::sc_object* obj, sc_core::sc_trace_file* tf, const std::string& scope, std::vector<WaveGroup>& groups) {
  // A module's parts (a core's pipeline stages and caches) come before its own waves (its warps).
  for (sc_core::sc_object* child : obj->get_child_objects()) trace_below(child, tf, scope, groups);
  if (auto* w = dynamic_cast<WaveProvider*>(obj); w && std::string(obj->name()).rfind(scope, 0) == 0) {
    obj->trace(tf);
    for (auto& g : w->wave_groups()) groups.push_back(std::move(g));
  }
}
}  // namespace

std::vector<WaveGroup> trace_all(VcdFile& vcd, const std::string& scope) {
  std::vector<WaveGroup> groups;
  for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) trace_below(o, vcd.file(), scope, groups);
  return groups;
}

void clip_vcd(const std::string& path, uint64_t from, uint64_t to) {
  std::ifstream in(path);
  const std::string tmp = path + ".clip";
  std::ofstream out(tmp);
  std::string line;
  std::map<std::string, std::string> values;  // id -> latest value line before the window
  auto id_of = [](const std::string& l) {
    if (l.empty()) return std::string();
    if (l[0] == 'b' || l[0] == 'r') return l.substr(l.find(' ') + 1);
    return l.substr(1);  // scalar: value then id
  };
  bool in_header = true, dumped = false, in_comment = false;
  uint64_t t = 0;
  while (std::getline(in, line)) {
    if (in_header) {
      out << line << "\n";
      if (line.find("$enddefinitions") != std::string::npos) in_header = false;
      continue;
    }
    if (!line.empty() && line[0] == '#') {
      t = std::stoull(line.substr(1));
      if (t >= from && !dumped) {
        out << "#" << from << "\n$dumpvars\n";
        for (const auto& [id, v] : values) out << v << "\n";
        out << "$end\n";
        dumped = true;
      }
      if (t > to) break;
      if (t > from) out << line << "\n";
      continue;
    }
    // SystemC's "$comment All initial values are dumped below ... $end" inside the initial dump
    if (line.rfind("$comment", 0) == 0) in_comment = line.find("$end") == std::string::npos;
    else if (in_comment) in_comment = line.find("$end") == std::string::npos;
    if (line.rfind("$", 0) == 0 || in_comment) continue;  // $dumpvars / $end of the original initial dump
    if (t < from || !dumped) values[id_of(line)] = line;
    else out << line << "\n";
  }
  out.close();
  std::filesystem::rename(tmp, path);
}

}  // namespace gputlm::tb
