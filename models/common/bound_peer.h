// The interface a socket is bound to, looked up on first use and kept in `cached`: binding is
// fixed once elaboration has ended, so a link end calls its peer directly instead of going through
// the socket's port (whose interface pointer lies in another cache line) on every transaction.
#pragma once

namespace gputlm {

template <class Interface, class Socket>
Interface& bound_peer(Interface*& cached, Socket& socket) {
  if (!cached) cached = socket.operator->();
  return *cached;
}

}  // namespace gputlm
