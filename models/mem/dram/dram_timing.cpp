#include "models/mem/dram/dram_timing.h"

#include "models/common/registry.h"

namespace gputlm::mem {

DramTimingRegistration::DramTimingRegistration(const char* name, DramTimingFactory f) {
  Registry<DramTimingFactory>::instance().add(name, std::move(f));
}

std::unique_ptr<IDramTiming> make_dram_timing(const std::string& name,
                                              const DramTimingContext& context) {
  return Registry<DramTimingFactory>::instance().get(name, "DRAM timing model")(context);
}

}  // namespace gputlm::mem
