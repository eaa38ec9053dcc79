// VcdFile::write_save_file: the GTKWave save file (.gtkw) and its translate filter files.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include "app/vcd_file.h"
#include "models/common/error.h"

namespace gputlm::app {
namespace {

// GTKWave trace flags (analyzer.h): display format, right-justified name, translate filter file,
// group begin and end, closed group.
constexpr unsigned kHex = 0x2, kDec = 0x4, kBin = 0x8, kRightJustify = 0x20, kBlank = 0x200,
                   kCollapsed = 0x1000, kTranslated = 0x2000, kClosed = 0x400000,
                   kGroupBegin = 0x800000, kGroupEnd = 0x1000000;
// Rows of signals the waves pane of a 1600x900 window shows: groups after these open collapsed.
constexpr unsigned kVisibleRows = 40;

std::string stem(const std::string& path) {
  return path.substr(0, path.size() - 4);
}  // without ".vcd"

// Which groups open expanded: those the modules mark open while they fit the window (all, when
// none is marked: a save file of one kind of module).
std::vector<bool> expanded(const std::vector<WaveGroup>& groups) {
  bool any = false;
  for (const WaveGroup& g : groups) any |= g.open;
  std::vector<bool> open;
  unsigned rows = 0;
  for (const WaveGroup& g : groups) {
    ++rows;
    const bool fits = (g.open || !any) && rows + g.signals.size() <= kVisibleRows;
    if (fits) rows += static_cast<unsigned>(g.signals.size());
    open.push_back(fits);
  }
  return open;
}

}  // namespace

void VcdFile::write_save_file(const std::vector<WaveGroup>& groups, unsigned visible_cycles,
                              uint64_t start) const {
  const std::string base = stem(m_path);
  const std::string gtkw = base + ".gtkw";
  std::ofstream out(gtkw);
  if (!out) throw InputError(gtkw + ": cannot write the GTKWave save file");
  const uint64_t units = units_per_cycle();
  out << "[*] GTKWave save file written by gputlm: signals grouped per module; one cycle = "
      << units << (units == 1 ? " ns" : " ps x " + std::to_string(m_unit_ps)) << " (1 ns)\n";
  out << "[dumpfile] \"" << std::filesystem::path(m_path).filename().string() << "\"\n";
  out << "[timestart] " << start * units << "\n[size] 1600 900\n[pos] -1 -1\n";
  // Zoom is a power of two of the time per pixel; measured in GTKWave 3.3 with this layout, zoom z
  // shows about 2.6 * 2^-z time units in the waves pane.
  const double zoom = std::log2(2.6 / (double(visible_cycles) * double(units)));
  out << "*" << std::fixed << zoom << " " << start * units
      << " -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n";
  out << "[sst_width] 220\n[signals_width] 300\n[sst_expanded] 0\n";
  std::map<std::string, size_t> filters;  // names id -> filter number (1-based)
  const std::vector<bool> open = expanded(groups);
  for (size_t i = 0; i < groups.size(); ++i) {
    const WaveGroup& g = groups[i];
    out << "@" << std::hex << (kGroupBegin | kBlank | (open[i] ? 0 : kClosed)) << std::dec << "\n-"
        << g.name << "\n";
    for (const WaveSignal& s : g.signals) {
      unsigned flags = kRightJustify | (s.format == WaveSignal::Format::Hex   ? kHex
                                        : s.format == WaveSignal::Format::Dec ? kDec
                                                                              : kBin);
      if (!s.names.id.empty()) {
        flags = kRightJustify | kDec | kTranslated;
        auto [it, fresh] = filters.emplace(s.names.id, filters.size() + 1);
        const std::string file = base + "." + s.names.id + ".txt";
        if (fresh) {
          std::ofstream f(file);
          f << "# " << s.names.id
            << ": the names GTKWave shows for the values (written by gputlm)\n";
          for (const auto& [value, name] : s.names.names) f << value << " " << name << "\n";
          if (!f) throw InputError(file + ": cannot write the translate filter file");
        }
        out << "^" << it->second << " " << file
            << "\n";  // as the VCD was named: GTKWave opens it from the same directory
      }
      out << "@" << std::hex << flags << std::dec << "\nSystemC." << s.name;
      if (s.bits > 1) out << "[" << s.bits - 1 << ":0]";
      out << "\n";
    }
    out << "@" << std::hex << (kGroupEnd | kBlank | (open[i] ? 0 : kClosed | kCollapsed))
        << std::dec << "\n-" << g.name << "\n";
  }
}

}  // namespace gputlm::app
