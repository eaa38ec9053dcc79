#include "models/func/module_image.h"

#include <algorithm>

#include "models/common/error.h"

namespace gputlm::func {

uint64_t ModuleImage::at(const std::string& name) const {
  auto it = address.find(name);
  if (it == address.end()) throw InputError("no module variable named '" + name + "'");
  return it->second;
}

ModuleImage load_module_variables(const isa::Module& module, GlobalMemory& memory) {
  ModuleImage image;
  for (const isa::ModuleVar& v : module.variables) {
    if (v.size == 0)
      throw SourceError(
          module.file, v.line,
          "variable '" + v.name + "' has no size (an .extern array defined elsewhere)");
    if (v.align > 256)
      throw SourceError(module.file, v.line,
                        "variable '" + v.name + "' asks for .align " + std::to_string(v.align) +
                            " (at most 256)");
    const uint64_t base =
        memory.allocate(v.size, "module:" + v.name);  // 256-byte aligned: any .align up to 256
    std::vector<uint8_t> bytes(v.size, 0);
    std::copy_n(v.init.begin(), std::min<size_t>(v.init.size(), v.size),
                bytes.begin());  // no initialiser: zeros
    memory.write(base, bytes.data(), bytes.size());
    image.address[v.name] = base;
    image.size[v.name] = v.size;
  }
  for (const isa::ModuleVar& v : module.variables)
    for (const isa::ModuleVar::Reloc& r : v.relocs) {
      auto it = image.address.find(r.name);
      uint64_t function =
          module.function_address(r.name);  // a table of function (or kernel) pointers
      if (!function) function = module.kernel_address(r.name);
      if (it == image.address.end() && !function)
        throw SourceError(
            module.file, v.line,
            "the initialiser of '" + v.name + "' takes the address of '" + r.name +
                "', which is neither a .global/.const variable nor a function or kernel");
      const uint64_t a =
          (it != image.address.end() ? it->second : function) + static_cast<uint64_t>(r.addend);
      memory.write(image.address[v.name] + r.offset, &a, 8);
    }
  return image;
}

}  // namespace gputlm::func
