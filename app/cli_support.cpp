#include "app/cli_support.h"

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "models/common/error.h"
#include "models/common/nearest_name.h"

namespace po = boost::program_options;

namespace gputlm::app {

po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& opts, const std::string& command,
                                const po::positional_options_description* positional) {
  po::variables_map vm;
  try {
    po::command_line_parser parser(args);
    parser.options(opts);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> known;
    for (const auto& o : opts.options()) known.push_back("--" + o->long_name());
    const std::string flag = e.get_option_name();
    throw InputError((command.empty() ? "" : command + ": ") + "unknown option '" + flag + "'" +
                     did_you_mean(flag, known) + " (see --help)");
  }
  return vm;
}

void check_writable(const std::string& path, const std::string& what, bool creates_directories) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  auto fail = [&](const std::string& why) {
    throw InputError(path + ": cannot write " + what + " (" + why + ")");
  };
  if (fs::is_directory(p, ec)) fail("it is a directory");
  if (fs::exists(p, ec)) {
    if (access(path.c_str(), W_OK) != 0) fail("no write permission");
    return;
  }
  fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(dir, ec)) {
    if (!creates_directories) fail("no directory " + dir.string());
    while (!dir.empty() && !fs::exists(dir, ec))
      dir = dir.parent_path();  // the one it would be made in
    if (dir.empty()) dir = ".";
    if (!fs::is_directory(dir, ec)) fail(dir.string() + " is not a directory");
  }
  if (access(dir.c_str(), W_OK) != 0) fail("no write permission in " + dir.string());
}

std::string wrap(const std::string& text, size_t width, size_t indent) {
  std::string out, line(indent, ' ');
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (line.size() > indent && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.assign(indent, ' ');
    }
    line += (line.size() > indent ? " " : "") + word;
  }
  if (line.size() > indent) out += line + "\n";
  return out;
}

size_t terminal_width() {
  const char* c = std::getenv("COLUMNS");
  const long n = c ? std::strtol(c, nullptr, 10) : 0;
  return n >= 60 ? static_cast<size_t>(n) : 100;
}

void parse_vcd_window(const std::string& text, const std::string& what, uint64_t& from,
                      uint64_t& to) {
  const size_t colon = text.find(':');
  try {
    if (colon == std::string::npos) throw std::invalid_argument(text);
    from = std::stoull(text.substr(0, colon));
    to = std::stoull(text.substr(colon + 1));
  } catch (const std::logic_error&) {
    throw InputError(what + " must be FROM:TO in cycles (is '" + text + "')");
  }
  if (to < from) throw InputError(what + " ends before it starts");
}

bool cache_control_flushes(const std::string& value, const std::string& what) {
  if (value != "all" && value != "none")
    throw InputError(what + " must be 'all' or 'none', not '" + value + "'");
  return value == "all";
}

}  // namespace gputlm::app
