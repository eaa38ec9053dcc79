// The diagnostic of a watchdog that stops a kernel whose warp waits on itself under the "stack"
// reconvergence policy (simt_stack.h): the top path of a warp's SIMT stack keeps running (a spin
// loop) while lanes of the same warp wait below it, e.g. for a lock that only they can release.
// Without independent thread scheduling those lanes run only once the top path has reconverged,
// so the warp never finishes. Whether the top path would ever stop cannot be decided in general;
// the watchdog's limit decides, and this names the shape it found.
#pragma once

#include <cstdint>
#include <string>

#include "models/common/lane_mask.h"
#include "models/func/simt_stack.h"
#include "models/isa/kernel.h"

namespace gputlm::func {

// "lanes 1-31", "lane 0", "lanes 0-3, 8".
std::string lane_list(LaneMask lanes);

// "" unless `stack` is under "stack" and lanes wait below its top path; else "warp W of CTA C:
// lanes ... spin at PC p (where) while lanes ... of the same warp wait below them in the SIMT
// stack at PC q (where): an intra-warp dependence that needs independent thread scheduling
// (core.reconvergence \"its\")".
std::string intra_warp_wait(const SimtStack<LaneMask>& stack, const isa::Kernel& kernel,
                            uint32_t warp, const std::string& cta);

}  // namespace gputlm::func
