#include "models/mem/dram/dram_request_log.h"

namespace gputlm::mem {

namespace {
const char* row_outcome_name(RowOutcome o) {
  switch (o) {
    case RowOutcome::Hit:
      return "hit";
    case RowOutcome::Empty:
      return "empty";
    case RowOutcome::Conflict:
      return "conflict";
  }
  return "?";
}
}  // namespace

DramRequestLog::DramRequestLog(std::ostream& out) : m_out(out) {
  m_out << "channel,id,core,warp,pc,kind,address,bank,row,column,arrival,start,done,outcome,queued,"
           "hint\n";
}

void DramRequestLog::record(const DramRequestRecord& r) {
  const MemExtension& e = *r.who;
  m_out << r.channel << ',' << e.id << ',' << e.core << ',' << e.warp << ',' << e.pc << ','
        << access_kind_name(e.kind) << ",0x" << std::hex << r.address << std::dec << ',' << r.bank
        << ',' << r.row << ',' << r.column << ',' << r.arrival << ',' << r.start << ',' << r.done
        << ',' << row_outcome_name(r.outcome) << ',' << r.queued << ',' << (e.row_hint ? 1 : 0)
        << '\n';
}

}  // namespace gputlm::mem
