#include "app/report.h"

#include <iomanip>

#include "app/kernel_name.h"

namespace gputlm::app {

nlohmann::json to_json(const func::FuncStats& s) {
  nlohmann::json j;
  j["warp_instructions"] = s.warp_instructions;
  j["thread_instructions"] = s.thread_instructions;
  j["average_active_lanes"] = s.average_active_lanes();
  j["ctas"] = s.ctas;
  j["warps"] = s.warps;
  j["barrier_arrivals"] = s.barriers;
  j["active_lanes_histogram"] = s.active_histogram;
  nlohmann::json cls;
  for (size_t i = 0; i < s.by_class.size(); ++i)
    cls[std::string(isa::instr_class_name(static_cast<isa::InstrClass>(i)))] = s.by_class[i];
  j["instructions_by_class"] = cls;
  return j;
}

nlohmann::json to_json(const FunctionalRun& run) {
  nlohmann::json j;
  j["workload"] = run.workload;
  j["size"] = run.size;
  j["mode"] = "functional";
  mark_completeness(j, run.stopped_by);
  j["host_seconds"] = run.host_seconds;
  for (const auto& l : run.launches) {
    nlohmann::json lj = to_json(l.stats);
    lj["kernel"] = l.kernel;
    lj["kernel_demangled"] = demangled_kernel_name(l.kernel);
    lj["grid"] = {l.grid.x, l.grid.y, l.grid.z};
    lj["block"] = {l.block.x, l.block.y, l.block.z};
    j["launches"].push_back(lj);
  }
  j["total"] = to_json(run.total);
  j["verify"] = run.self_checked ? self_checked_json() : to_json(run.verify);
  return j;
}

nlohmann::json to_json(const workload::VerifyReport& v) {
  nlohmann::json j;
  j["buffers"] = nlohmann::json::array();
  for (const auto& b : v.buffers)
    j["buffers"].push_back({{"name", b.name},
                            {"mode", b.mode},
                            {"elements", b.elements},
                            {"mismatches", b.mismatches},
                            {"first_mismatch", b.first_mismatch}});
  j["ok"] = v.ok();
  j["status"] = v.status();
  if (v.unchecked()) j["reason"] = v.unchecked_reason;
  return j;
}

void print_verify(std::ostream& os, const workload::VerifyReport& v) {
  for (const auto& b : v.buffers) {
    os << "check " << std::left << std::setw(14) << b.name << std::right << b.elements
       << " elements, " << b.mode << ": ";
    if (b.mismatches)
      os << "MISMATCH in " << b.mismatches << " (" << b.first_mismatch << ")\n";
    else
      os << "ok\n";
  }
  if (v.unchecked())
    os << "UNCHECKED (no buffers checked): " << v.unchecked_reason << "\n";
  else
    os << (v.ok() ? "VERIFIED" : "FAILED") << ": " << v.buffers.size()
       << " output buffer(s) checked against the CPU reference\n";
}

nlohmann::json self_checked_json() {
  return {{"buffers", nlohmann::json::array()},
          {"status", "checked by the program"},
          {"checked_by", "the program"}};
}

void print_self_checked(std::ostream& os) {
  os << "outputs             checked by the program itself (its own output and exit status)\n";
}

void mark_completeness(nlohmann::json& j, const std::string& stopped_by) {
  j["complete"] = stopped_by.empty();
  if (!stopped_by.empty()) j["stopped_by"] = stopped_by;
}

void print_stopped(std::ostream& os, const std::string& stopped_by) {
  os << "STOPPED by " << stopped_by
     << ": the statistics are of the part that ran (marked incomplete); outputs not checked\n";
}

namespace {
bool holds_only_scalars(const nlohmann::json& v) {
  for (const auto& x : v)
    if (x.is_structured()) return false;
  return true;
}

void write_stats(std::string& out, const nlohmann::json& v, size_t depth, bool members_flat) {
  if (v.is_object() && !v.empty()) {
    out += "{\n";
    size_t i = 0;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out.append(2 * (depth + 1), ' ');
      out += nlohmann::json(it.key()).dump();
      out += ": ";
      if (members_flat)
        out += it.value().dump();
      else
        write_stats(out, it.value(), depth + 1, it.key() == "modules" && it.value().is_object());
      out += ++i < v.size() ? ",\n" : "\n";
    }
    out.append(2 * depth, ' ');
    out += '}';
  } else if (v.is_array() && !holds_only_scalars(v)) {
    out += "[\n";
    for (size_t i = 0; i < v.size(); ++i) {
      out.append(2 * (depth + 1), ' ');
      if (v[i].is_object() && holds_only_scalars(v[i]))
        out += v[i].dump();
      else
        write_stats(out, v[i], depth + 1, false);
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out.append(2 * depth, ' ');
    out += ']';
  } else {
    out += v.dump();
  }
}
}  // namespace

std::string stats_text(const nlohmann::json& stats) {
  std::string out;
  write_stats(out, stats, 0, false);
  return out + "\n";
}

void print_summary(std::ostream& os, const FunctionalRun& run) {
  if (run.self_checked)
    os << "program             " << run.workload << ", functional\n";
  else
    os << "workload            " << run.workload << " (size " << run.size << "), functional\n";
  for (const auto& l : run.launches)
    os << "launch              " << demangled_kernel_name(l.kernel) << " grid " << l.grid.str()
       << " block " << l.block.str() << ": " << l.stats.warp_instructions << " warp instructions\n";
  const func::FuncStats& t = run.total;
  os << "warp instructions   " << t.warp_instructions << "\n";
  os << "thread instructions " << t.thread_instructions << "\n";
  os << "avg active lanes    " << std::fixed << std::setprecision(2) << t.average_active_lanes()
     << " of 32\n";
  os << "host time           " << std::setprecision(3) << run.host_seconds << " s ("
     << std::setprecision(1)
     << (run.host_seconds > 0 ? t.warp_instructions / run.host_seconds / 1e6 : 0.0)
     << " M warp instructions/s)\n";
  if (!run.stopped_by.empty())
    print_stopped(os, run.stopped_by);
  else if (run.self_checked)
    print_self_checked(os);
  else
    print_verify(os, run.verify);
}

}  // namespace gputlm::app
