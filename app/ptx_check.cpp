#include "app/ptx_check.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "models/common/error.h"
#include "models/common/text_file.h"
#include "models/func/bound_kernel.h"
#include "models/func/module_image.h"
#include "models/isa/ptx_parser.h"

namespace gputlm::app {
namespace {

std::vector<std::string> entry_names(const std::string& text) {
  static const std::regex kEntry(R"(\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*))");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kEntry);
       it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

}  // namespace

PtxCheckCounts check_ptx_files(const std::vector<std::string>& files, std::ostream& out) {
  PtxCheckCounts n;
  for (const std::string& path : files) {
    std::string text;
    if (!read_text_file(path, text)) {
      out << path << ": cannot open\n";
      continue;
    }
    const std::vector<std::string> names = entry_names(text);
    n.found += names.size();
    std::unique_ptr<isa::Module> module;
    try {
      module = isa::parse_ptx(text, path);
    } catch (const InputError& e) {
      out << path << ": module error: " << e.what() << "\n";
      continue;
    }
    func::GlobalMemory memory;
    func::ModuleImage image;
    std::string image_error;
    try {
      image = func::load_module_variables(*module, memory);
    } catch (const InputError& e) {
      image_error = e.what();
    }
    for (const std::string& name : names) {
      out << path << ": kernel " << name << ": ";
      const isa::Kernel* k = module->find(name);
      if (!k) {
        auto it = module->kernel_errors.find(name);
        out << "parse error: "
            << (it != module->kernel_errors.end() ? it->second.what() : "not found") << "\n";
        continue;
      }
      ++n.parsed;
      try {
        if (!image_error.empty()) throw InputError(image_error);
        func::BoundKernel bound(*k, &image);
        ++n.bound;
        out << "ok (" << k->code.size() << " instructions, " << k->functions.size()
            << " functions, " << k->local_bytes << " local bytes per thread)\n";
      } catch (const InputError& e) {
        out << "bind error: " << e.what() << "\n";
      }
    }
  }
  return n;
}

}  // namespace gputlm::app
