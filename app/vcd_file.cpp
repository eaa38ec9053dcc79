#include "app/vcd_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <systemc>

#include "models/common/error.h"

namespace gputlm::app {
namespace {
std::string stem(const std::string& path) {
  const std::string ext = ".vcd";
  return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0
             ? path.substr(0, path.size() - ext.size())
             : path;
}
}  // namespace

VcdFile::VcdFile(const std::string& path, uint64_t unit_ps)
    : m_path(stem(path) + ".vcd"), m_unit_ps(unit_ps) {
  const auto dir = std::filesystem::path(m_path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  if (!std::ofstream(m_path)) throw InputError(m_path + ": cannot write VCD file");
  m_tf = sc_core::sc_create_vcd_trace_file(stem(path).c_str());
  sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
  if (unit_ps == 1000)
    m_tf->set_time_unit(1, sc_core::SC_NS);
  else
    m_tf->set_time_unit(static_cast<double>(unit_ps), sc_core::SC_PS);
}

VcdFile::~VcdFile() {
  if (m_tf) sc_core::sc_close_vcd_trace_file(m_tf);
}

void VcdFile::close(uint64_t from_cycle, uint64_t to_cycle) {
  if (m_tf) sc_core::sc_close_vcd_trace_file(m_tf);
  m_tf = nullptr;
  clip_vcd(m_path, from_cycle * units_per_cycle(), to_cycle * units_per_cycle());
}

uint64_t vcd_unit_ps(const std::vector<uint64_t>& periods_ps) {
  for (uint64_t unit : {1000, 100, 10}) {
    bool divides = true;
    for (uint64_t p : periods_ps) divides &= p % unit == 0;
    if (divides) return unit;
  }
  return 1;
}

namespace {
void trace_below(sc_core::sc_object* obj, sc_core::sc_trace_file* tf, const std::string& scope,
                 std::vector<WaveGroup>& groups) {
  // A module's parts (a core's pipeline stages and caches) come before its own waves (its warps).
  for (sc_core::sc_object* child : obj->get_child_objects()) trace_below(child, tf, scope, groups);
  if (auto* w = dynamic_cast<WaveProvider*>(obj);
      w && std::string(obj->name()).rfind(scope, 0) == 0) {
    w->start_waves(tf);
    for (auto& g : w->wave_groups()) groups.push_back(std::move(g));
  }
}

// The outermost modules that trace themselves (gpu.core0, gpu.dram0; a scope may also name a
// part of one, e.g. gpu.core0.l1d).
void list_scopes(sc_core::sc_object* obj, std::string& out) {
  if (dynamic_cast<WaveProvider*>(obj)) {
    out += std::string(out.empty() ? "" : ", ") + obj->name();
    return;
  }
  for (sc_core::sc_object* child : obj->get_child_objects()) list_scopes(child, out);
}
}  // namespace

std::vector<WaveGroup> trace_all(VcdFile& vcd, const std::string& scope) {
  std::vector<WaveGroup> groups;
  for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects())
    trace_below(o, vcd.file(), scope, groups);
  if (groups.empty() && !scope.empty()) {
    std::string scopes;
    for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) list_scopes(o, scopes);
    throw InputError("--vcd-scope '" + scope + "' matches no module; the scopes are: " + scopes +
                     " (or a part of one, e.g. its caches)");
  }
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
  uint64_t t = 0, last = 0;  // time now, last timestamp written
  while (std::getline(in, line)) {
    if (in_header) {
      out << line << "\n";
      if (line.find("$enddefinitions") != std::string::npos) in_header = false;
      continue;
    }
    if (!line.empty() && line[0] == '#') {
      t = std::stoull(line.substr(1));
      if (t > from && !dumped) {  // the values at `from` are those after its changes
        out << "#" << from << "\n$dumpvars\n";
        for (const auto& [id, v] : values) out << v << "\n";
        out << "$end\n";
        dumped = true;
        last = from;
      }
      if (t > to) break;
      if (t > from) out << line << "\n";
      last = std::max(last, t);
      continue;
    }
    // SystemC's "$comment All initial values are dumped below ... $end" inside the initial dump
    if (line.rfind("$comment", 0) == 0)
      in_comment = line.find("$end") == std::string::npos;
    else if (in_comment)
      in_comment = line.find("$end") == std::string::npos;
    if (line.empty() || line.rfind("$", 0) == 0 || in_comment)
      continue;  // $dumpvars / $end of the original initial dump
    if (!dumped)
      values[id_of(line)] = line;
    else
      out << line << "\n";
  }
  if (!dumped) {  // nothing changed from the window's start on: its values, then the end
    out << "#" << from << "\n$dumpvars\n";
    for (const auto& [id, v] : values) out << v << "\n";
    out << "$end\n";
    last = from;
  }
  if (last < to) out << "#" << to << "\n";
  out.close();
  if (!out) throw InputError(path + ": cannot write the VCD file (disk full?)");
  std::filesystem::rename(tmp, path);
}

}  // namespace gputlm::app
