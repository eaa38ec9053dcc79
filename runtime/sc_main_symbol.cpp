// libsystemc's own main() calls sc_main, and Debian's libsystemc is linked with BIND_NOW: every
// process loading it must define sc_main. A CUDA program has its own main and never reaches
// libsystemc's, so this definition only satisfies the loader; the runtime runs its simulations
// from its API calls (app::TimingSession). If anything ever calls it, it says so and fails.
#include "models/common/error.h"
#include "runtime/api_support.h"

extern "C" int sc_main(int, char**) {
  gputlm::runtime::fatal(gputlm::kExitInputError,
                         "sc_main called inside a CUDA program (nothing should call it)");
}
