#include "models/mem/payload_pool.h"

namespace gputlm::mem {

std::string_view access_kind_name(AccessKind k) {
  switch (k) {
    case AccessKind::Load:
      return "load";
    case AccessKind::Store:
      return "store";
    case AccessKind::Atomic:
      return "atomic";
    case AccessKind::Fetch:
      return "fetch";
    case AccessKind::Writeback:
      return "writeback";
  }
  return "?";
}

PayloadPool::~PayloadPool() = default;  // payloads (and their extensions) die with the pool

tlm::tlm_generic_payload& PayloadPool::make(uint64_t address, uint32_t bytes, AccessKind kind,
                                            const sc_core::sc_time& issued) {
  tlm::tlm_generic_payload* p;
  if (m_free.empty()) {
    m_all.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
    p = m_all.back().get();
    p->set_extension(new MemExtension);
  } else {
    p = m_free.back();
    m_free.pop_back();
  }
  MemExtension& ext = MemExtension::of(*p);
  ext = MemExtension{};
  ext.kind = kind;
  ext.id = m_next_id++;
  ext.issued_ps = issued.value();
  p->set_command(carries_write_data(kind) ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  p->set_address(address);
  p->set_data_ptr(nullptr);  // timing path: addresses only
  p->set_data_length(bytes);
  p->set_streaming_width(bytes);
  p->set_byte_enable_ptr(nullptr);
  p->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  p->acquire();
  return *p;
}

void PayloadPool::free(tlm::tlm_generic_payload* p) { m_free.push_back(p); }

}  // namespace gputlm::mem
