#include "io/workload/reference.h"

#include "models/common/registry.h"

namespace gputlm::workload {

int64_t HostData::var(const std::string& name) const {
  auto it = m_vars.find(name);
  if (it == m_vars.end())
    throw InputError(m_where + ": reference asks for unknown size variable '" + name + "'");
  return it->second;
}

HostBuffer& HostData::find(const std::string& buffer) const {
  for (auto& b : m_buffers)
    if (b.name == buffer) return b;
  throw InputError(m_where + ": reference or generator names unknown buffer '" + buffer + "'");
}

void HostData::check_shape(const HostBuffer& b, size_t elem_size, size_t n) const {
  if (elem_size != b.elem_size || n != b.count)
    throw InputError(m_where + ": buffer '" + b.name + "' is " + std::to_string(b.count) + " x " +
                     b.type + " but the reference or generator uses " + std::to_string(n) +
                     " elements of " + std::to_string(elem_size) + " bytes");
}

double RefContext::param(size_t launch, size_t index) const {
  if (launch >= m_scalars.size() || index >= m_scalars[launch].size() || !m_scalars[launch][index])
    throw InputError(m_where + ": reference asks for launches[" + std::to_string(launch) +
                     "].params[" + std::to_string(index) + "], which is not a scalar parameter");
  return *m_scalars[launch][index];
}

const ReferenceFn* find_reference(const std::string& name) {
  return Registry<ReferenceFn>::instance().find(name);
}
const GeneratorFn* find_generator(const std::string& name) {
  return Registry<GeneratorFn>::instance().find(name);
}
std::vector<std::string> reference_names() { return Registry<ReferenceFn>::instance().names(); }
std::vector<std::string> generator_names() { return Registry<GeneratorFn>::instance().names(); }

ReferenceRegistration::ReferenceRegistration(const char* name, ReferenceFn fn) {
  Registry<ReferenceFn>::instance().add(name, std::move(fn));
}
GeneratorRegistration::GeneratorRegistration(const char* name, GeneratorFn fn) {
  Registry<GeneratorFn>::instance().add(name, std::move(fn));
}

}  // namespace gputlm::workload
