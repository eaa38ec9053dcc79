// A set-associative, banked, non-blocking cache: the L1 data cache of a core and each L2 slice
// are instances with their own CacheSpec. Requests arrive on a TLM target socket and a bank
// starts at most one access a cycle. A hit responds hit_latency cycles later; a miss takes an MSHR
// (requests to a line already missing merge into its MSHR, up to mshr_merge) and sends one line
// fill downstream. Write-through caches (no-allocate) forward stores and atomics and answer when
// the level below does; write-back caches (write-allocate) keep dirty lines and write back a dirty
// victim when a fill evicts it. A request that cannot be handled (bank busy, MSHRs full) stays
// unaccepted at the socket: back-pressure to the sender.
// Sectored (CacheSpec::sector_bytes): a request needs the sectors its MemExtension::sectors names
// (else those its bytes touch) and hits only if all are valid. A miss sends one request of
// sector_bytes per sector it needs that is neither valid nor already being fetched, as Accel-Sim's
// sectored caches send a miss below as one sector (gpu-cache.cc, baseline_cache::send_read_request:
// data size set to the sector); a line that is present but lacks a sector (a sector miss) gets the
// sector added without an eviction. One MSHR per line (chosen): it holds the sectors in flight, and
// a request waiting for other sectors of the line joins it and fetches only those. A write-back
// line has a dirty bit per sector; a dirty victim writes back each dirty sector, one request each.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <queue>
#include <systemc>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "models/common/clock.h"
#include "models/common/clocked_module.h"
#include "models/common/shared_edges.h"
#include "models/common/stats.h"
#include "models/common/wakeup.h"
#include "models/common/waves.h"
#include "models/mem/cache/cache_spec.h"
#include "models/mem/cache/tag_array.h"
#include "models/mem/payload_pool.h"
#include "models/mem/tlm_ends.h"

namespace gputlm::mem {

class Cache : public ClockedModule<>,
              public StatProvider,
              public WaveProvider,
              public RequestMaker {
 public:
  Cache(sc_core::sc_module_name name, const CacheSpec& spec, double reference_mhz);

  TargetEnd upstream;  // port 0
  InitiatorEnd downstream;
  // Upstream port i (0: `upstream`), i < spec().ports.
  TargetEnd& port(uint32_t i) { return i == 0 ? upstream : *m_more_ports[i - 1]; }

  void prepare_waves() override;
  void declare_waves(WaveList& waves) const override;
  const CacheSpec& spec() const { return m_spec; }
  // A load or fetch of `address` sent at `sent` (now, or later: a core running ahead) to port 0 of
  // a cache that is idle (nothing at any port, in its MSHRs or queues, nothing to answer, no
  // answer coming from below) and holds the line, or is perfect: the cache does at once what its
  // next edge would do with the request (counters, bank, replacement state) and returns the time
  // it would respond; the sender sees the data from its own first edge after that time, as over
  // the link. Otherwise it does nothing and returns nothing (the sender sends as usual). Nothing
  // else reaches the idle cache before that edge (a second port's sender, the I-cache's constant
  // cache, is a stage of the same core that runs before fetch in each cycle), so the outcome is
  // the link's, without its round trip of kernel events (FetchStage uses it for the I-cache: core
  // key fast_icache_hits).
  std::optional<sc_core::sc_time> take_idle_hit(uint64_t address, const sc_core::sc_time& sent);
  // Gives the cache `ways` ways of its sets and line size (a unified L1/shared array whose split
  // changes between kernels: sm/carveout.h). A change empties it: a reconfigured array holds other
  // lines in other places, and a write-through cache (the only kind resized: CoreSpec) loses no
  // data by it. The same ways keep every line. Only while idle (no MSHR, queued request or
  // response due): std::logic_error otherwise.
  void set_ways(uint32_t ways);
  // Empties the cache between kernels, as Nsight Compute's --cache-control all does before each
  // kernel it measures: every line invalid, dirty ones dropped (the functional engine holds the
  // values; the hardware writes them back before the kernel starts). Only while idle, as set_ways.
  void flush();
  // Its own requests (misses, write-backs, forwarded writes) still out below it.
  size_t requests_out() const override { return m_pool.in_use(); }
  // What the cache holds (the watchdog's dump).
  std::string dump() const {
    return std::to_string(m_mshrs.size()) + " MSHRs in use, " + std::to_string(m_forwarded.size()) +
           " forwarded requests out, " + std::to_string(m_to_send.size()) +
           " requests waiting to go down, " + std::to_string(m_ready.size()) + " responses due";
  }

 private:
  enum class Outcome { Accepted, BankBusy, NoMshr };
  struct Waiter {
    tlm::tlm_generic_payload* payload;
    uint32_t sectors;  // the sectors it still waits for (1 when unsectored)
  };
  struct Mshr {
    std::vector<Waiter> waiting;
    uint32_t pending = 0;        // sectors requested below and not yet filled
    uint32_t dirty_on_fill = 0;  // sectors a waiting store dirties when they arrive
    bool prefetch = false;       // taken by a prefetch (CacheSpec::prefetch_lines)
  };
  struct Ready {
    Cycle at;
    uint64_t seq;
    tlm::tlm_generic_payload* payload;
    uint32_t port;
    bool operator>(const Ready& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  Cycle cycle(Cycle now) override;
  Outcome handle(tlm::tlm_generic_payload& p, Cycle now);
  Outcome miss(tlm::tlm_generic_payload& p, uint64_t line, uint32_t need, uint32_t dirty_on_fill);
  void fetch(const tlm::tlm_generic_payload& p, uint64_t line, uint32_t sectors);
  // The prefetches a read miss of `line` by `p` starts (CacheSpec::prefetch_lines).
  void prefetch_after(const tlm::tlm_generic_payload& p, uint64_t line);
  // The sectors `p` needs and those it writes whole (bit 0 alone, the line, when unsectored).
  uint32_t sectors_of(const tlm::tlm_generic_payload& p) const;
  uint32_t whole_sectors_of(const tlm::tlm_generic_payload& p) const;
  // Counts an access needing `need` with `valid` of them present (sectored counters).
  void count_sectors(uint32_t need, uint32_t valid) {
    if (!m_sectored) return;
    m_sector_hits += popcount32(need & valid);
    m_sector_misses += popcount32(need & ~valid);
  }
  static uint32_t popcount32(uint32_t v) { return static_cast<uint32_t>(__builtin_popcount(v)); }
  Mshr& new_mshr(uint64_t line);  // an empty MSHR for `line` (a spare one if there is one)
  Outcome forward(tlm::tlm_generic_payload& p);
  Outcome write_line(tlm::tlm_generic_payload& p, uint64_t line, Cycle now);
  void install(uint64_t line, uint32_t need, uint32_t valid, bool dirty, uint32_t partial);
  void receive(Cycle now);
  void fill(tlm::tlm_generic_payload& f, Cycle now);
  void evict(const TagArray::Victim& v);
  // Writes back a line of the set of `line` if it has more dirty lines than max_dirty_ways.
  void limit_dirty(uint64_t line);
  // The port a request came in on (0 when there is one port).
  uint32_t port_of(tlm::tlm_generic_payload& p);
  void respond_at(tlm::tlm_generic_payload& p, Cycle at) {
    m_ready.push({at, m_seq++, &p, port_of(p)});
  }
  size_t outstanding() const { return m_mshrs.size() + m_forwarded.size(); }
  // Whether a miss finds no MSHR free (prefetches' MSHRs are beyond CacheSpec::mshrs).
  bool mshrs_full() const { return outstanding() - m_prefetching >= m_spec.mshrs; }
  // Whether anything is in flight: a miss or forward out, a request to send, a response due
  // (set_ways and flush need none).
  bool busy() const { return outstanding() || !m_to_send.empty() || !m_ready.empty(); }
  // A request accepted in cycle `now`: its bank is busy for the cycle, and it is counted.
  void accepted(uint32_t bank, Cycle now, bool write, uint32_t sectors) {
    m_bank_used[bank] = now + 1;
    ++m_accesses;
    (write ? m_writes : m_reads)++;
    if (m_sectored) (write ? m_write_sectors : m_read_sectors) += popcount32(sectors);
  }
  uint32_t bank_of(uint64_t address, uint64_t line) const {
    return static_cast<uint32_t>((m_spec.bank_bytes ? address / m_spec.bank_bytes : line) %
                                 m_spec.banks);
  }

  CacheSpec m_spec;
  bool m_write_back;           // m_spec.write_back(), decided once
  bool m_install_full_stores;  // full_line_stores "install"
  bool m_lazy_stores;          // full_line_stores "lazy"
  bool m_sectored;             // m_spec.sectored()
  uint32_t m_all_sectors;      // the mask of a whole line (1 when unsectored)
  TagArray m_tags;
  PayloadPool m_pool;
  std::vector<std::unique_ptr<TargetEnd>> m_more_ports;  // ports 1 ..
  std::unordered_map<tlm::tlm_generic_payload*, uint32_t>
      m_port_of;                               // requests of ports 1 .., until answered
  std::unordered_map<uint64_t, Mshr> m_mshrs;  // by line number
  std::vector<std::unordered_map<uint64_t, Mshr>::node_type>
      m_spare_mshrs;  // freed, kept: a miss allocates nothing
  std::unordered_set<tlm::tlm_generic_payload*>
      m_forwarded;  // stores/atomics sent on, awaiting the level below
  std::deque<tlm::tlm_generic_payload*> m_to_send;  // fills, write-backs, forwarded requests
  std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>>
      m_ready;                     // upstream responses
  std::vector<Cycle> m_bank_used;  // cycle each bank last started an access (+1, 0 = never)
  uint64_t m_seq = 0;
  std::vector<Cycle> m_last_stall;  // per port: the cycle its last bank conflict was counted
  std::vector<Cycle>
      m_mshr_stall_since;  // per port: since when its request waits for an MSHR (kNever: none)

  uint64_t m_accesses = 0, m_reads = 0, m_writes = 0, m_hits = 0, m_misses = 0, m_merges = 0;
  uint64_t m_mshr_stalls = 0, m_bank_conflicts = 0, m_fills = 0, m_writebacks = 0, m_forwards = 0,
           m_max_mshrs = 0;
  uint64_t m_sector_hits = 0, m_sector_misses = 0, m_sector_only_misses = 0, m_read_sectors = 0,
           m_write_sectors = 0, m_writeback_sectors = 0, m_bypassed = 0;
  uint64_t m_prefetches = 0, m_prefetch_merges = 0, m_early_writebacks = 0;
  size_t m_prefetching = 0;  // prefetches' MSHRs in use

  uint64_t m_wave_mshrs = 0, m_wave_forwarded = 0, m_wave_to_send = 0;
};

}  // namespace gputlm::mem
