// The one typed extension every memory transaction carries (docs/design/architecture.md): who asked
// (core, warp, lanes), what kind of access, the row-buffer locality hint bit the DRAM controller
// reads, and bookkeeping for statistics. Payloads carry addresses only: the functional engine owns
// values, so data pointers are unused on the timing path.
#pragma once

#include <cstdint>
#include <string_view>
#include <tlm>

#include "models/common/lane_mask.h"

namespace gputlm::mem {

enum class AccessKind : uint8_t { Load, Store, Atomic, Fetch, Writeback };

// What each kind of access does, defined once for every level of the memory system. An atomic is
// a read-modify-write done by the first write-back cache on its way (a write-through cache passes
// it on and drops its copy of the line): it changes the line there, but its request carries no line
// data (its operation and operands travel in the request's header, like a load's address) and its
// response carries the old value back, as a load's does; a DRAM channel that gets one reads.
// Changes the line it touches (a cache takes it as a write): stores, write-backs and atomics.
constexpr bool changes_line(AccessKind k) {
  return k == AccessKind::Store || k == AccessKind::Writeback || k == AccessKind::Atomic;
}
// Its request carries data toward memory: stores and write-backs. This is the payload's TLM
// command (TLM_WRITE_COMMAND; every other kind is TLM_READ_COMMAND), which the crossbar counts
// data flits by (write requests and read responses carry data) and a DRAM channel counts writes
// and reads by.
constexpr bool carries_write_data(AccessKind k) {
  return k == AccessKind::Store || k == AccessKind::Writeback;
}

// What a requester hangs on its request to find its own state again when the response comes (a
// core's memory stage: the waiting warp instruction, sm::WarpInstr, derives from it). The memory
// system only carries it.
class RequestOwner {
 protected:
  ~RequestOwner() = default;
};
std::string_view access_kind_name(AccessKind k);

class MemExtension : public tlm::tlm_extension<MemExtension> {
 public:
  uint32_t core = 0;
  uint32_t warp = 0;
  LaneMask lanes = 0;
  uint32_t pc = 0;  // instruction index of the load or store that asked (traces)
  AccessKind kind = AccessKind::Load;
  bool row_hint = false;          // set by ld.global.rowhint; read by a hint-aware DRAM scheduler
  uint64_t id = 0;                // unique per request, for traces and debugging
  uint64_t issued_ps = 0;         // simulation time the request entered the hierarchy (ps)
  RequestOwner* owner = nullptr;  // the requester's own state (see RequestOwner); left alone below
  // ld.global.cg (PTX ISA "Cache Operators": cache at the L2, not the L1): an L1 with
  // CacheSpec::bypass_cg passes the load on without looking it up or allocating.
  bool cache_global = false;
  // The sectors of the line at the payload's address the request needs (bit s: bytes
  // [s * sector_bytes, (s + 1) * sector_bytes) of the line), as a core coalescing by sectors
  // names them; 0: the bytes [address, address + data length) name them (cache.h).
  uint32_t sectors = 0;
  // The input ports of the crossbars the request is crossing, the innermost in the low bits: a
  // crossbar pushes the port it took the request from and pops it when the response goes back.
  static constexpr uint32_t kRouteBits = 16, kMaxRouteDepth = 64 / kRouteBits;
  uint64_t route = 0;
  uint8_t route_depth = 0;
  // False (nothing pushed) when kMaxRouteDepth crossbars are crossed at once.
  bool push_route(uint32_t port) {
    if (route_depth == kMaxRouteDepth) return false;
    route = route << kRouteBits | port;
    ++route_depth;
    return true;
  }
  uint32_t pop_route() {
    const uint32_t port = static_cast<uint32_t>(route & ((uint64_t{1} << kRouteBits) - 1));
    route >>= kRouteBits;
    --route_depth;
    return port;
  }

  tlm::tlm_extension_base* clone() const override { return new MemExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemExtension&>(other);
  }

  // The extension of a payload (every payload from a PayloadPool has one).
  static MemExtension& of(tlm::tlm_generic_payload& p) { return *p.get_extension<MemExtension>(); }
  static const MemExtension& of(const tlm::tlm_generic_payload& p) {
    return *p.get_extension<MemExtension>();
  }
};

}  // namespace gputlm::mem
