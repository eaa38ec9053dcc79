// Compiled, never run, by the ctest pair memory_link_binding_own_protocol (must compile) and
// memory_link_binding_base_protocol (must not: GPUTLM_BIND_BASE_PROTOCOL). A memory link's
// initiator end binds to a target socket of the memory protocol (mem::MemProtocol), and a module
// of TLM's base protocol bound to it by mistake is a compile error (tests/CMakeLists.txt).
#include <tlm_utils/simple_target_socket.h>
#include <tlm>

#include "models/mem/tlm_ends.h"

namespace gputlm::mem {

#ifdef GPUTLM_BIND_BASE_PROTOCOL
using Target = tlm_utils::simple_target_socket<sc_core::sc_module>;  // tlm_base_protocol_types
#else
using Target = tlm_utils::simple_target_socket<sc_core::sc_module, 32, MemProtocol>;
#endif

void bind(InitiatorEnd& end, Target& target) { end.socket.bind(target); }

}  // namespace gputlm::mem
