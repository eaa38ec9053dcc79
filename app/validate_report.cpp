#include "app/validate_report.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/kernel_name.h"
#include "app/stat_table.h"

namespace gputlm::app {

std::vector<Comparison> ValidateReport::compared() const {
  std::vector<Comparison> all;
  for (const ProgramOutcome& p : programs)
    all.insert(all.end(), p.matching.compared.begin(), p.matching.compared.end());
  return all;
}

size_t ValidateReport::failures() const {
  size_t n = 0;
  for (const ProgramOutcome& p : programs) n += p.status != "ok" ? 1 : p.matching.hw_only.size();
  return n;
}

namespace {

std::string number(double v, const char* format = "%.6g") {
  if (!std::isfinite(v)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string number(const std::optional<double>& v) { return v ? number(*v, "%.10g") : ""; }

// What a hardware row with no simulated kernel lacks.
std::string missing(const ProgramOutcome& p) {
  return p.status == kTimeLimit ? "no complete simulated launch" : "no simulated kernel";
}

std::string percent(double fraction) { return number(100 * fraction, "%+.1f") + "%"; }

}  // namespace

std::string agreement_text(const Agreement& a) {
  return "MAPE " + (std::isfinite(a.mape) ? number(100 * a.mape, "%.1f") + "%" : "n/a") +
         ", correlation " + number(a.pearson, "%.3f");
}

std::string validate_csv(const ValidateReport& r) {
  std::ostringstream s;
  s << "program,kernel,kernel_demangled,launches,sim_cycles,hw_cycles,error";
  for (const CounterMapping& m : counter_mappings()) s << ",sim_" << m.name << ",hw_" << m.name;
  s << ",untimed_launches\n";
  const std::string counters(2 * counter_mappings().size() + 1, ',');  // empty trailing fields
  for (const ProgramOutcome& p : r.programs) {
    if (p.status != "ok") {
      s << csv_cell(p.name) << ",,,,,," << csv_cell(p.status + ": " + p.first_error) << counters
        << "\n";
      if (p.status != kTimeLimit) continue;
    }
    for (const Comparison& c : p.matching.compared) {
      s << csv_cell(c.program) << "," << csv_cell(c.kernel) << "," << csv_cell(c.demangled) << ","
        << c.launches << "," << number(c.sim_cycles, "%.10g") << "," << number(c.hw_cycles, "%.10g")
        << "," << number(c.error(), "%.4f");
      for (const CounterMapping& m : counter_mappings()) {
        const auto& v = c.counters.at(m.name);
        s << "," << number(v.first) << "," << number(v.second);
      }
      s << "," << c.untimed << "\n";
    }
    for (const HwKernel& h : p.matching.hw_only)
      s << csv_cell(p.name) << "," << csv_cell(h.kernel) << ","
        << csv_cell(demangled_kernel_name(h.kernel)) << ",0,,"
        << number(h.values.at("Elapsed_Cycles"), "%.10g") << "," << missing(p) << counters << "\n";
  }
  return s.str();
}

std::string validate_summary(const ValidateReport& r) {
  const std::vector<Comparison> all = r.compared();
  std::ostringstream s;
  size_t failed = 0;
  for (const ProgramOutcome& p : r.programs) failed += p.status != "ok";
  s << "programs            " << r.programs.size() << " (" << r.programs.size() - failed << " ran, "
    << failed << " failed)\n"
    << "kernels compared    " << all.size() << "\n"
    << "cycles              " << agreement_text(cycles_agreement(all)) << "\n";
  for (const CounterMapping& m : counter_mappings()) {
    const Agreement a = counter_agreement(all, m.name);
    if (a.kernels == 0) continue;
    std::string name = m.name;
    name.resize(std::max<size_t>(name.size() + 1, 20), ' ');
    s << name << agreement_text(a) << " (" << a.kernels
      << (a.kernels == 1 ? " kernel)\n" : " kernels)\n");
  }
  for (const ProgramOutcome& p : r.programs) {
    if (p.status != "ok")
      s << "FAILED              " << p.name << ": " << p.status << ": " << p.first_error << " (log "
        << p.log << ")\n";
    for (const HwKernel& h : p.matching.hw_only)
      s << "FAILED              " << p.name << ": " << missing(p) << " " << h.kernel << "\n";
  }
  return s.str();
}

std::string validate_markdown(const ValidateReport& r) {
  std::ostringstream s;
  s << "# gputlm validate\n\n"
    << "gputlm " << r.commit << ": `" << r.command << "`\n\n"
    << "| program | kernel | launches | sim cycles | hw cycles | error |\n"
    << "|---|---|---:|---:|---:|---:|\n";
  for (const Comparison& c : r.compared())
    s << "| " << c.program << " | `" << c.demangled << "` | " << c.launches
      << (c.untimed ? " (+" + std::to_string(c.untimed) + " untimed)" : "") << " | "
      << number(c.sim_cycles, "%.1f") << " | " << number(c.hw_cycles, "%.1f") << " | "
      << percent(c.error()) << " |\n";
  for (const ProgramOutcome& p : r.programs)
    for (const SimKernel& k : p.matching.sim_only)
      s << "| " << p.name << " | `" << k.demangled << "` | " << k.launches << " | "
        << number(k.cycles, "%.1f") << " | (no row) | |\n";
  s << "\n```\n" << validate_summary(r) << "```\n";
  return s.str();
}

}  // namespace gputlm::app
