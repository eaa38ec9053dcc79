#include "models/mem/cache/cache.h"

#include <algorithm>
#include <stdexcept>

namespace gputlm::mem {
namespace {
// The valid sectors of `line` if it is present (bit 0 alone when unsectored), else 0; for a load,
// those it may read (not partial: TagArray::store_sectors). A lookup: a present line's
// replacement state is touched, as by a hit.
uint32_t present_sectors(TagArray& tags, uint64_t line, bool sectored, bool load = false) {
  if (!tags.lookup(line)) return 0;
  if (!sectored) return 1;
  return load ? tags.readable_sectors(line) : tags.valid_sectors(line);
}
}  // namespace

Cache::Cache(sc_core::sc_module_name name, const CacheSpec& spec, double reference_mhz)
    : ClockedModule(name, spec.clock_mhz, reference_mhz),
      upstream("upstream", m_wake, m_clock),
      downstream("downstream", m_wake, m_clock),
      m_spec(spec),
      m_write_back(spec.write_back()),
      m_install_full_stores(spec.full_line_stores == "install"),
      m_lazy_stores(spec.full_line_stores == "lazy"),
      m_sectored(spec.sectored()),
      m_all_sectors(m_sectored ? static_cast<uint32_t>(
                                     (uint64_t{1} << (spec.line_bytes / spec.sector_bytes)) - 1)
                               : 1),
      m_tags(spec.sets(), spec.assoc, make_replacement(spec.replacement, spec.sets(), spec.assoc)),
      m_bank_used(spec.banks, 0),
      m_last_stall(spec.ports, kNever),
      m_mshr_stall_since(spec.ports, kNever) {
  if (spec.set_index == "slice" && spec.slices > 1)
    m_tags.index_by_slice(std::max<uint64_t>(1, spec.slice_run_bytes / spec.line_bytes),
                          spec.slices);
  for (uint32_t i = 1; i < spec.ports; ++i)
    m_more_ports.push_back(
        std::make_unique<TargetEnd>(("upstream_" + std::to_string(i)).c_str(), m_wake, m_clock));
  downstream.owner_plans_sends();  // tick asks for the next send's edge while m_to_send has more
  m_stats.counter("accesses", m_accesses, "count", "requests accepted");
  m_stats.counter("reads", m_reads, "count", "loads and fetches accepted");
  m_stats.counter("writes", m_writes, "count", "stores, atomics and write-backs accepted");
  m_stats.counter("hits", m_hits, "count", "accesses that found their line");
  m_stats.counter("misses", m_misses, "count", "accesses that did not (merged ones included)");
  m_stats.formula(
      "hit_rate", [this] { return ratio(m_hits, m_hits + m_misses); }, "ratio",
      "hits / (hits + misses)");
  m_stats.counter("mshr_merges", m_merges, "count",
                  "misses merged into an MSHR already waiting for the line");
  m_stats.counter("mshr_full_stalls", m_mshr_stalls, "cycles",
                  "cycles a request waited for an MSHR (or a merge slot)");
  m_stats.counter("bank_conflicts", m_bank_conflicts, "count",
                  "requests that waited because their bank was busy");
  m_stats.counter("fills", m_fills, "count", "lines filled from the level below");
  m_stats.counter("writebacks", m_writebacks, "count",
                  "dirty lines written back (victims, and lines max_dirty_ways cleaned)");
  m_stats.counter("forwarded", m_forwards, "count", "stores and atomics passed to the level below");
  m_stats.maximum("max_mshrs_in_use", m_max_mshrs, "count",
                  "most MSHRs (and forwarded requests) outstanding at once");
  // Registered only where they mean something, so that other configurations' statistics stay as
  // they were.
  if (m_sectored) {
    m_stats.counter("sector_hits", m_sector_hits, "count",
                    "sectors accesses needed that were valid (hits' and misses')");
    m_stats.counter("sector_misses", m_sector_misses, "count",
                    "sectors accesses needed that were not valid (merged ones included)");
    m_stats.counter("sector_only_misses", m_sector_only_misses, "count",
                    "misses whose line was present but lacked a sector they need (no eviction)");
    m_stats.counter("read_sectors", m_read_sectors, "count", "sectors loads and fetches needed");
    m_stats.counter("write_sectors", m_write_sectors, "count",
                    "sectors stores, atomics and write-backs wrote");
    m_stats.counter("writeback_sectors", m_writeback_sectors, "count",
                    "dirty sectors written back (one request each)");
  }
  if (spec.prefetch_lines) {
    m_stats.counter("prefetches", m_prefetches, "count", "lines fetched by prefetches");
    m_stats.counter("prefetch_merges", m_prefetch_merges, "count",
                    "misses that found their line on its way from a prefetch");
  }
  if (spec.max_dirty_ways)
    m_stats.counter("early_writebacks", m_early_writebacks, "count",
                    "dirty lines written back and kept, clean, to keep at most max_dirty_ways "
                    "of a set dirty");
  if (spec.bypass_cg)
    m_stats.counter("bypassed", m_bypassed, "count",
                    "ld.global.cg loads passed to the level below without a lookup");
}

void Cache::set_ways(uint32_t ways) {
  if (ways == m_spec.assoc) return;
  if (ways == 0 || busy())
    throw std::logic_error(std::string(name()) + ": resized while busy or to no ways");
  const uint32_t sets = m_spec.sets();
  m_spec.assoc = ways;
  m_spec.size_bytes = uint64_t{sets} * ways * m_spec.line_bytes;
  m_tags = TagArray(sets, ways, make_replacement(m_spec.replacement, sets, ways));
}

void Cache::flush() {
  if (busy()) throw std::logic_error(std::string(name()) + ": flushed while busy");
  m_tags.clear();
}

uint32_t Cache::sectors_of(const tlm::tlm_generic_payload& p) const {
  if (!m_sectored) return 1;
  if (const uint32_t named = MemExtension::of(p).sectors) return named & m_all_sectors;
  const uint64_t offset = p.get_address() % m_spec.line_bytes;
  const uint64_t end =
      std::min<uint64_t>(m_spec.line_bytes, offset + std::max<uint32_t>(p.get_data_length(), 1));
  const uint64_t first = offset / m_spec.sector_bytes, last = (end - 1) / m_spec.sector_bytes;
  return static_cast<uint32_t>(((uint64_t{2} << last) - 1) & ~((uint64_t{1} << first) - 1));
}

// Named sectors count as written whole when the request's bytes fill them (a core's line
// request carries the bytes of its lanes in the line, chosen); else the sectors inside
// [address, address + data length).
uint32_t Cache::whole_sectors_of(const tlm::tlm_generic_payload& p) const {
  if (!m_sectored) return p.get_data_length() >= m_spec.line_bytes ? 1 : 0;
  if (const uint32_t named = MemExtension::of(p).sectors & m_all_sectors)
    return p.get_data_length() >= popcount32(named) * m_spec.sector_bytes ? named : 0;
  const uint64_t offset = p.get_address() % m_spec.line_bytes;
  const uint64_t end = std::min<uint64_t>(m_spec.line_bytes, offset + p.get_data_length());
  const uint64_t first = (offset + m_spec.sector_bytes - 1) / m_spec.sector_bytes,
                 stop = end / m_spec.sector_bytes;  // sectors [first, stop)
  if (stop <= first) return 0;
  return static_cast<uint32_t>(((uint64_t{1} << stop) - 1) & ~((uint64_t{1} << first) - 1));
}

Cycle Cache::cycle(Cycle now) {
  receive(now);
  bool retry_next_cycle = false;
  for (uint32_t k = 0; k < m_spec.ports; ++k) {
    const uint32_t i = static_cast<uint32_t>((now + k) % m_spec.ports);  // round-robin by cycle
    TargetEnd& in = port(i);
    tlm::tlm_generic_payload* p = in.peek();
    if (!p) continue;
    if (i != 0) m_port_of[p] = i;
    const Outcome o = handle(*p, now);
    if (o == Outcome::Accepted) {
      in.take();
      // The cycles it waited for an MSHR, counted whether the cache slept through them or not.
      if (m_mshr_stall_since[i] != kNever) m_mshr_stalls += now - m_mshr_stall_since[i];
      m_mshr_stall_since[i] = kNever;
      continue;
    }
    if (i != 0) m_port_of.erase(p);
    if (o == Outcome::BankBusy) {
      if (m_last_stall[i] != now) ++m_bank_conflicts;  // retried every cycle: counted each cycle
      m_last_stall[i] = now;
    } else if (m_mshr_stall_since[i] == kNever) {
      m_mshr_stall_since[i] = now;
    }
    retry_next_cycle |= o == Outcome::BankBusy;
  }
  while (!m_to_send.empty() && downstream.can_send()) {
    tlm::tlm_generic_payload* p = m_to_send.front();
    m_to_send.pop_front();
    downstream.send(*p);
  }
  while (!m_ready.empty() && m_ready.top().at <= now && port(m_ready.top().port).can_respond()) {
    const Ready r = m_ready.top();
    m_ready.pop();
    if (r.port != 0) m_port_of.erase(r.payload);
    port(r.port).respond(*r.payload);
  }
  m_max_mshrs = std::max<uint64_t>(m_max_mshrs, outstanding());
  m_wave_mshrs = m_mshrs.size();
  m_wave_forwarded = m_forwarded.size();
  m_wave_to_send = m_to_send.size();

  Cycle next = kNever;
  if (!m_ready.empty()) next = std::max(now + 1, m_ready.top().at);
  if (retry_next_cycle) next = std::min(next, now + 1);
  if (!m_to_send.empty()) next = std::min(next, std::max(now + 1, downstream.next_send_cycle()));
  return next;
}

std::optional<sc_core::sc_time> Cache::take_idle_hit(uint64_t address,
                                                     const sc_core::sc_time& sent) {
  for (uint32_t i = 1; i < m_spec.ports; ++i)
    if (!port(i).empty()) return std::nullopt;
  if (!upstream.empty() || !m_ready.empty() || !m_mshrs.empty() || !m_forwarded.empty() ||
      !m_to_send.empty() || !downstream.idle())
    return std::nullopt;
  const Cycle at = m_clock.cycle_at(m_clock.edge_after(sent));  // the edge that would take it
  const uint64_t line = address / m_spec.line_bytes;
  const uint32_t bank = bank_of(address, line);
  // A sectored line must hold every sector (what a request of the whole line needs).
  if (m_bank_used[bank] == at + 1 ||
      (!m_spec.perfect && m_sectored && m_tags.valid_sectors(line) != m_all_sectors) ||
      (!m_spec.perfect && !m_tags.lookup(line)))
    return std::nullopt;  // lookup touches a hit only
  ++m_hits;
  count_sectors(m_all_sectors, m_all_sectors);
  accepted(bank, at, false, m_all_sectors);
  ++m_seq;  // the response's place in m_ready, had it gone there
  return m_clock.time_of(at + m_spec.hit_latency - 1);
}

Cache::Outcome Cache::handle(tlm::tlm_generic_payload& p, Cycle now) {
  const uint64_t line = p.get_address() / m_spec.line_bytes;
  const uint32_t bank = bank_of(p.get_address(), line);
  if (m_bank_used[bank] == now + 1) return Outcome::BankBusy;
  const MemExtension& ext = MemExtension::of(p);
  const AccessKind kind = ext.kind;
  const bool write = changes_line(kind);
  const uint32_t need = sectors_of(p);
  Outcome o;
  if (m_spec.perfect) {
    ++m_hits;
    count_sectors(need, need);
    respond_at(p, now + m_spec.hit_latency - 1);
    o = Outcome::Accepted;
  } else if (!write && m_spec.bypass_cg && ext.cache_global && kind == AccessKind::Load) {
    o = forward(p);  // neither a hit nor a miss here
    if (o == Outcome::Accepted) ++m_bypassed;
  } else if (!write) {
    // A present line's valid sectors (a hit touches the replacement state, as does a sector miss).
    const uint32_t valid = present_sectors(m_tags, line, m_sectored, true);
    if ((valid & need) == need) {
      ++m_hits;
      count_sectors(need, valid);
      respond_at(p, now + m_spec.hit_latency - 1);
      o = Outcome::Accepted;
    } else if (m_spec.resident_fetches && kind == AccessKind::Fetch && !m_mshrs.count(line)) {
      install(line, need, valid, false, 0);  // CacheSpec::resident_fetches: there all along
      ++m_hits;
      count_sectors(need, need);
      respond_at(p, now + m_spec.hit_latency - 1);
      o = Outcome::Accepted;
    } else {
      o = miss(p, line, need, 0);
    }
  } else if (!m_write_back) {
    // Write-through, no write-allocate (Fermi L1): the line stays clean; atomics invalidate it.
    const uint32_t valid = present_sectors(m_tags, line, m_sectored);
    if (kind == AccessKind::Atomic) m_tags.invalidate(line);
    o = forward(p);
    if (o == Outcome::Accepted) {
      ++m_forwards;
      ((valid & need) == need ? m_hits : m_misses)++;
      count_sectors(need, valid);
    }
  } else {
    o = write_line(p, line, now);
  }
  if (o == Outcome::Accepted) accepted(bank, now, write, need);
  return o;
}

// Installs the sectors `need` of `line` without fetching them: added to the line if it is present
// (it holds `valid`; a sectored line that lacked them, no eviction), else in a line of their own
// (`partial` of them written in part), which may evict another.
void Cache::install(uint64_t line, uint32_t need, uint32_t valid, bool dirty, uint32_t partial) {
  if (valid) {
    m_tags.add_sectors(line, need, dirty);
  } else if (auto v = m_tags.fill(line, dirty, need, partial)) {
    evict(*v);
  }
}

// Write-back, write-allocate: a hit dirties the line; a miss fetches it (a full-line write-back
// from the level above installs it at once, and so does a full-line store with full_line_stores
// "install"); atomics are performed here like stores.
// Sectored, the same at sector grain: a store hits if all its sectors are valid, installs at once
// if it writes all of them whole (as a full line above), else fetches the missing ones; with
// full_line_stores "lazy" it installs at once whatever it writes, a sector written in part then
// partial until a load's fill completes it (TagArray::store_sectors).
Cache::Outcome Cache::write_line(tlm::tlm_generic_payload& p, uint64_t line, Cycle now) {
  const AccessKind kind = MemExtension::of(p).kind;
  const uint32_t need = sectors_of(p);
  const uint32_t valid = present_sectors(m_tags, line, m_sectored);
  const bool lazy = m_lazy_stores && kind == AccessKind::Store;
  if ((valid & need) == need) {
    ++m_hits;
    count_sectors(need, valid);
    if (lazy)  // sectors it writes whole are partial no longer
      m_tags.store_sectors(line, need, whole_sectors_of(p) & need);
    else
      m_tags.mark_dirty(line, need);
    limit_dirty(line);
    respond_at(p, now + m_spec.hit_latency - 1);
    return Outcome::Accepted;
  }
  const uint32_t whole = whole_sectors_of(p) & need;
  const bool full = whole == need;
  const bool installs = kind == AccessKind::Writeback
                            ? full
                            : kind == AccessKind::Store && ((m_install_full_stores && full) ||
                                                            m_spec.write_validate || lazy);
  if (installs && !m_mshrs.count(line)) {
    ++m_misses;
    count_sectors(need, valid);
    if (lazy && valid)
      m_tags.store_sectors(line, need, whole);
    else
      install(line, need, valid, true, lazy ? need & ~whole : 0);
    limit_dirty(line);
    respond_at(p, now + m_spec.hit_latency - 1);
    return Outcome::Accepted;
  }
  return miss(p, line, need, need);
}

// `need`: the sectors `p` needs; `dirty_on_fill`: those it writes (a write-back cache's store).
// A sectored cache's valid ones (a present line's) are dirtied at once, the others on their fill.
Cache::Outcome Cache::miss(tlm::tlm_generic_payload& p, uint64_t line, uint32_t need,
                           uint32_t dirty_on_fill) {
  const uint32_t valid = m_sectored ? m_tags.readable_sectors(line) : 0;
  const uint32_t wait = need & ~valid;  // the sectors p waits for
  auto it = m_mshrs.find(line);
  if (it != m_mshrs.end()) {
    Mshr& m = it->second;
    if (m.waiting.size() >= m_spec.mshr_merge) return Outcome::NoMshr;
    if (m.prefetch) ++m_prefetch_merges;
    m.waiting.push_back({&p, wait});
    m.dirty_on_fill |= dirty_on_fill & wait;
    ++m_misses;
    count_sectors(need, valid);
    if (valid & dirty_on_fill) {
      m_tags.mark_dirty(line, valid & dirty_on_fill);
      limit_dirty(line);
    }
    if (const uint32_t more = wait & ~m.pending) {
      m.pending |= more;  // shares the line's MSHR, fetches its own sectors
      fetch(p, line, more);
    } else {
      ++m_merges;  // everything it needs is on its way
    }
    return Outcome::Accepted;
  }
  if (mshrs_full()) return Outcome::NoMshr;
  Mshr& m = new_mshr(line);
  m.waiting.push_back({&p, wait});
  m.pending = wait;
  m.dirty_on_fill = dirty_on_fill & wait;
  m.prefetch = false;
  ++m_misses;
  count_sectors(need, valid);
  if (valid) {
    ++m_sector_only_misses;
    if (valid & dirty_on_fill) {
      m_tags.mark_dirty(line, valid & dirty_on_fill);
      limit_dirty(line);
    }
  }
  fetch(p, line, wait);
  if (m_spec.prefetch_lines && MemExtension::of(p).kind == AccessKind::Fetch)
    prefetch_after(p, line);
  return Outcome::Accepted;
}

void Cache::prefetch_after(const tlm::tlm_generic_payload& p, uint64_t line) {
  for (uint64_t next = line + 1; next <= line + m_spec.prefetch_lines; ++next) {
    if (m_prefetching >= m_spec.prefetch_lines) return;
    if (m_mshrs.count(next)) continue;
    const uint32_t have =
        m_sectored ? m_tags.readable_sectors(next) : (m_tags.lookup(next, false) ? 1u : 0u);
    const uint32_t want = m_all_sectors & ~have;
    if (!want) continue;
    Mshr& m = new_mshr(next);
    m.pending = want;
    m.dirty_on_fill = 0;
    m.prefetch = true;
    ++m_prefetching;
    ++m_prefetches;
    fetch(p, next, want);
  }
}

// Sends the reads of `sectors` of `line` (the whole line when unsectored) for the miss of `p`.
void Cache::fetch(const tlm::tlm_generic_payload& p, uint64_t line, uint32_t sectors) {
  const MemExtension& re = MemExtension::of(p);
  // The fill is a read: an instruction fetch's stays a fetch (so traces can tell them apart).
  const AccessKind fill_kind = re.kind == AccessKind::Fetch ? AccessKind::Fetch : AccessKind::Load;
  const uint32_t bytes = m_sectored ? m_spec.sector_bytes : m_spec.line_bytes;
  for (uint32_t s = 0; sectors >> s; ++s) {
    if (!(sectors >> s & 1)) continue;
    tlm::tlm_generic_payload& f = m_pool.make(line * m_spec.line_bytes + uint64_t{s} * bytes, bytes,
                                              fill_kind, m_clock.time());
    MemExtension& fe = MemExtension::of(f);
    fe.core = re.core;
    fe.warp = re.warp;
    fe.lanes = re.lanes;
    fe.pc = re.pc;
    fe.row_hint = re.row_hint;
    m_to_send.push_back(&f);
  }
}

Cache::Mshr& Cache::new_mshr(uint64_t line) {
  if (m_spare_mshrs.empty()) return m_mshrs[line];
  std::unordered_map<uint64_t, Mshr>::node_type node = std::move(m_spare_mshrs.back());
  m_spare_mshrs.pop_back();
  node.key() = line;
  return m_mshrs.insert(std::move(node)).position->second;
}

Cache::Outcome Cache::forward(tlm::tlm_generic_payload& p) {
  if (mshrs_full()) return Outcome::NoMshr;
  m_forwarded.insert(&p);
  m_to_send.push_back(&p);
  return Outcome::Accepted;
}

uint32_t Cache::port_of(tlm::tlm_generic_payload& p) {
  if (m_spec.ports == 1) return 0;
  auto it = m_port_of.find(&p);
  return it == m_port_of.end() ? 0 : it->second;
}

void Cache::receive(Cycle now) {
  while (downstream.has_response()) {
    tlm::tlm_generic_payload& r = downstream.front_response();
    downstream.pop_response();
    if (m_forwarded.erase(&r)) {
      respond_at(r, now);  // the level below has performed the store or atomic
    } else if (MemExtension::of(r).kind == AccessKind::Writeback) {
      r.release();  // our write-back is done
    } else {
      fill(r, now);
    }
  }
}

// A fill of a line (unsectored) or of one sector: installs it (a sector of a present line is
// added without an eviction), answers the requests that waited for nothing else, in their order,
// and frees the MSHR once nothing of the line is in flight.
void Cache::fill(tlm::tlm_generic_payload& f, Cycle now) {
  const uint64_t line = f.get_address() / m_spec.line_bytes;
  const uint32_t sector =
      m_sectored ? 1u << (f.get_address() % m_spec.line_bytes / m_spec.sector_bytes) : 1;
  auto it = m_mshrs.find(line);
  ++m_fills;
  const bool dirty = it != m_mshrs.end() && (it->second.dirty_on_fill & sector);
  if (!(m_sectored && m_tags.add_sectors(line, sector, dirty)))
    if (auto v = m_tags.fill(line, dirty, sector)) evict(*v);
  if (dirty) limit_dirty(line);
  if (it != m_mshrs.end()) {
    Mshr& m = it->second;
    m.pending &= ~sector;
    size_t kept = 0;
    for (Waiter& w : m.waiting) {
      w.sectors &= ~sector;
      if (w.sectors == 0 || m.pending == 0)
        respond_at(*w.payload, now);
      else
        m.waiting[kept++] = w;
    }
    m.waiting.resize(kept);
    if (m.pending == 0) {
      if (m.prefetch) --m_prefetching;
      m_spare_mshrs.push_back(m_mshrs.extract(it));
    }
  }
  f.release();
}

void Cache::evict(const TagArray::Victim& v) {
  if (!v.dirty) return;
  ++m_writebacks;
  if (!m_sectored) {
    m_to_send.push_back(&m_pool.make(v.line * m_spec.line_bytes, m_spec.line_bytes,
                                     AccessKind::Writeback, m_clock.time()));
    return;
  }
  for (uint32_t s = 0; v.dirty_sectors >> s; ++s) {
    if (!(v.dirty_sectors >> s & 1)) continue;
    ++m_writeback_sectors;
    m_to_send.push_back(&m_pool.make(v.line * m_spec.line_bytes + uint64_t{s} * m_spec.sector_bytes,
                                     m_spec.sector_bytes, AccessKind::Writeback, m_clock.time()));
  }
}

void Cache::limit_dirty(uint64_t line) {
  if (!m_spec.max_dirty_ways) return;
  if (auto v = m_tags.clean_over(line, m_spec.max_dirty_ways)) {
    ++m_early_writebacks;
    evict(*v);
  }
}

void Cache::prepare_waves() {
  m_wake.keep_in_step();  // waves sample at the kernel's time
}

void Cache::declare_waves(WaveList& waves) const {
  const std::string n = name();
  // Collapsed at first beside a core's pipeline and warps (a save file of caches alone opens them).
  waves.group(n + ": MSHRs, forwarded, queue down", false);
  waves.add(m_wave_mshrs, n + ".mshrs_in_use", 16);
  waves.add(m_wave_forwarded, n + ".forwarded_in_flight", 16);
  waves.add(m_wave_to_send, n + ".downstream_queue", 16);
}

}  // namespace gputlm::mem
