// DRAM policies without a simulation kernel: the schedulers' choices, the latency timing model's
// cycles, and the address map (the command model's device: test_dram_device.cpp).
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "models/common/error.h"
#include "models/common/registry.h"
#include "models/mem/dram/address_map.h"
#include "models/mem/dram/dram_scheduler.h"
#include "models/mem/dram/latency_banks.h"

namespace gputlm::mem {
namespace {

DramQueueEntry req(uint32_t bank, uint64_t row, Cycle arrival) {
  DramQueueEntry e;
  e.bank = bank;
  e.row = row;
  e.arrival = arrival;
  return e;
}
// The policy's pick with each entry marked from its bank's view, as the latency model does.
int pick(IDramScheduler& s, std::vector<DramQueueEntry> q, const std::vector<DramBankView>& views,
         Cycle now) {
  mark_ready(q, views);
  return s.pick(q, now);
}
std::vector<DramBankView> banks(std::initializer_list<std::pair<bool, std::optional<uint64_t>>> b) {
  std::vector<DramBankView> v;
  for (auto [ready, row] : b) v.push_back({ready, true, row});
  return v;
}

TEST(DramScheduler, FcfsServesABankInArrivalOrderEvenWhenAYoungerRequestHits) {
  auto s = make_dram_scheduler("fcfs");
  const std::vector<DramQueueEntry> q = {req(0, 2, 0), req(0, 1, 1)};
  EXPECT_EQ(pick(*s, q, banks({{true, 1}}), 5), 0);
}

TEST(DramScheduler, FrFcfsServesTheOldestRowHitFirst) {
  auto s = make_dram_scheduler("fr-fcfs");
  const std::vector<DramQueueEntry> q = {req(0, 2, 0), req(1, 9, 1), req(0, 1, 2), req(0, 1, 3)};
  EXPECT_EQ(pick(*s, q, banks({{true, 1}, {true, 5}}), 5), 2);
}

TEST(DramScheduler, NeitherPicksARequestWhoseBankIsBusy) {
  const std::vector<DramQueueEntry> q = {req(0, 1, 0), req(1, 1, 1)};
  for (const char* name : {"fcfs", "fr-fcfs"}) {
    auto s = make_dram_scheduler(name);
    EXPECT_EQ(pick(*s, q, banks({{false, 1}, {true, std::nullopt}}), 5), 1) << name;
    EXPECT_EQ(pick(*s, q, banks({{false, 1}, {false, std::nullopt}}), 5), -1) << name;
  }
}

// fr-fcfs-hold (dissertation section 7.2): a hinted request on bank 0, row 5, picked at 0 with
// its data at 100 and a threshold of 200, holds the row until 300.
struct Held {
  std::unique_ptr<IDramScheduler> s = make_dram_scheduler("fr-fcfs-hold", DramSchedulerParams{200});
  Held() {
    DramQueueEntry e = req(0, 5, 0);
    e.row_hint = true;
    s->on_issue(e, 0, 100);
  }
  uint64_t counter(const std::string& name) const {
    for (const DramPolicyCounter& c : s->counters())
      if (c.name == name) return *c.value;
    return ~uint64_t{0};
  }
};

TEST(DramScheduler, HoldKeepsAHintedRowFromConflictsUntilTheThreshold) {
  Held h;
  const std::vector<DramQueueEntry> conflict = {req(0, 7, 10)};
  EXPECT_EQ(pick(*h.s, conflict, banks({{true, 5}}), 150), -1) << "held";
  EXPECT_EQ(pick(*h.s, conflict, banks({{true, 5}}), 299), -1) << "held until 300";
  EXPECT_EQ(pick(*h.s, conflict, banks({{true, 5}}), 300), 0) << "the threshold passed";
  ASSERT_TRUE(h.s->hold(0, 299));
  EXPECT_EQ(h.s->hold(0, 299)->row, 5u);
  EXPECT_EQ(h.s->hold(0, 299)->until, 300u);
  EXPECT_FALSE(h.s->hold(0, 300));
  h.s->on_issue(conflict[0], 300, 600);
  EXPECT_EQ(h.counter("holds"), 1u);
  EXPECT_EQ(h.counter("hold_timeouts"), 1u);
  EXPECT_EQ(h.counter("hold_hits"), 0u);
}

TEST(DramScheduler, HoldServesTheAnticipatedRowHitAndThenEnds) {
  Held h;
  const std::vector<DramQueueEntry> q = {req(0, 7, 10), req(0, 5, 120)};
  EXPECT_EQ(pick(*h.s, q, banks({{true, 5}}), 130), 1) << "the same-row request is a row hit";
  h.s->on_issue(q[1], 130, 230);
  EXPECT_EQ(h.counter("hold_hits"), 1u);
  EXPECT_FALSE(h.s->hold(0, 131)) << "the anticipated request ended the hold";
  EXPECT_EQ(pick(*h.s, {q[0]}, banks({{true, 5}}), 131), 0) << "so the conflict may go";
}

TEST(DramScheduler, HoldBlocksOnlyItsBank) {
  Held h;
  const std::vector<DramQueueEntry> q = {req(0, 7, 10), req(1, 3, 20)};
  EXPECT_EQ(pick(*h.s, q, banks({{true, 5}, {true, std::nullopt}}), 150), 1);
}

TEST(DramScheduler, OnlyHintedRequestsHoldAndOtherPoliciesNever) {
  auto s = make_dram_scheduler("fr-fcfs-hold");
  s->on_issue(req(0, 5, 0), 0, 100);
  EXPECT_FALSE(s->hold(0, 50));
  EXPECT_EQ(pick(*s, {req(0, 7, 10)}, banks({{true, 5}}), 150), 0);
  for (const char* name : {"fcfs", "fr-fcfs"}) {
    auto p = make_dram_scheduler(name);
    DramQueueEntry e = req(0, 5, 0);
    e.row_hint = true;
    p->on_issue(e, 0, 100);
    EXPECT_FALSE(p->holds_rows()) << name;
    EXPECT_EQ(pick(*p, {req(0, 7, 10)}, banks({{true, 5}}), 150), 0) << name;
  }
}

TEST(DramScheduler, TheHoldThresholdIsRowConflictMinusRowHitUnlessGiven) {
  DramSpec s;
  EXPECT_EQ(s.hold_threshold(), 200u);  // 300 - 100 (Fig. 7.3)
  s.latency.row_conflict = 450;
  EXPECT_EQ(s.hold_threshold(), 350u);
  s.timing_model = DramSpec::TimingModel::Command;
  EXPECT_EQ(s.hold_threshold(), s.command.tRP + s.command.tRCD);
  s.hold_cycles = 77;
  EXPECT_EQ(s.hold_threshold(), 77u);
}

TEST(DramScheduler, ARowChangeWaitsWhereTheBankCannotChangeRowsYetButAHitGoes) {
  for (const char* name : {"fcfs", "fr-fcfs", "fr-fcfs-hold"}) {
    auto s = make_dram_scheduler(name);
    std::vector<DramBankView> b = {{true, false, 5}};
    EXPECT_EQ(pick(*s, {req(0, 7, 0)}, b, 10), -1) << name;
    EXPECT_EQ(pick(*s, {req(0, 5, 0)}, b, 10), 0) << name;
  }
}

TEST(DramScheduler, UnknownNameListsTheKnownOnes) {
  try {
    make_dram_scheduler("lottery");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "unknown DRAM scheduler 'lottery' (known: fcfs, fr-fcfs, fr-fcfs-hold"),
              std::string::npos)
        << e.what();
  }
}

DramSpec papers() {
  DramSpec s;  // defaults: 100/300/200 cycles, 32 GB/s at 1 GHz
  s.address_map = {{"column", 12}, {"bank", 3}};
  return s;
}

TEST(LatencyTiming, HitEmptyAndConflictPayTheirLatencies) {
  auto t = std::make_unique<LatencyBanks>(papers());
  DramIssue a = t->issue({0, 7, false, 128}, 0, true);
  EXPECT_EQ(a.outcome, RowOutcome::Empty);
  EXPECT_EQ(a.done, 200u);
  EXPECT_EQ(t->bank_ready(0, 0), 100u);  // the bank spends row_empty - row_hit opening the row
  DramIssue b = t->issue({0, 7, false, 128}, 300, true);
  EXPECT_EQ(b.outcome, RowOutcome::Hit);
  EXPECT_EQ(b.done, 400u);
  DramIssue c = t->issue({0, 8, false, 128}, 500, true);
  EXPECT_EQ(c.outcome, RowOutcome::Conflict);
  EXPECT_EQ(c.done, 800u);
  EXPECT_EQ(t->open_row(0), std::optional<uint64_t>(8));
}

TEST(LatencyTiming, HitsArePipelinedButTheBusMovesOneLineEveryFourCycles) {
  auto t = std::make_unique<LatencyBanks>(papers());
  t->issue({0, 1, false, 128}, 0, true);  // opens row 1, done at 200
  Cycle last = 0;
  for (Cycle i = 0; i < 8; ++i) {
    ASSERT_EQ(t->bank_ready(0, 100 + i), 100 + i);
    last = t->issue({0, 1, false, 128}, 100 + i, true).done;
  }
  EXPECT_EQ(last, 200u + 8 * 4);  // 128 B at 32 B/cycle
  EXPECT_EQ(t->bus_busy_cycles(), 9u * 4);
}

// Two conflicts in one bank: "opening" lets the second start once the first has opened its row
// (200 cycles), "access" only when the first's data is out (300); hits to the open row start
// after the opening either way.
TEST(LatencyTiming, ConflictBusyChoosesWhenTheNextRowChangeMayStart) {
  for (const char* mode : {"opening", "access"}) {
    DramSpec s = papers();
    s.latency.conflict_busy = mode;
    auto t = std::make_unique<LatencyBanks>(s);
    t->issue({0, 1, false, 128}, 0, true);  // empty bank: row 1 open at 100, done 200
    const DramIssue c =
        t->issue({0, 2, false, 128}, t->row_change_ready(0, 0), true);  // a conflict
    const bool access = std::string(mode) == "access";
    EXPECT_EQ(c.done - 300, access ? 200u : 100u) << mode;
    EXPECT_EQ(t->bank_ready(0, 0), c.done - 300 + 200)
        << mode << ": a hit to row 2 may start once it is open";
    EXPECT_EQ(t->row_change_ready(0, 0), access ? c.done : c.done - 100) << mode;
  }
}

// A row hit in bank 1 issued after a conflict in bank 0: "issue" order sends its data after the
// conflict's (300), "data" order as soon as it is ready (110), and a third transfer ready at the
// same cycle takes the next free slot.
TEST(LatencyTiming, BusOrderChoosesWhetherAHitsDataMayPassAConflicts) {
  for (const char* order : {"issue", "data"}) {
    DramSpec s = papers();
    s.latency.bus_order = order;
    auto t = std::make_unique<LatencyBanks>(s);
    t->issue({1, 7, false, 128}, 0, true);    // bank 1 opens row 7 (done 200)
    t->issue({0, 1, false, 128}, 0, true);    // bank 0 opens row 1 (done 204: the bus after bank 1)
    t->issue({0, 2, false, 128}, 104, true);  // a conflict in bank 0 at 104 (data ready 404)
    const bool data = std::string(order) == "data";
    EXPECT_EQ(t->issue({1, 7, false, 128}, 110, true).done, data ? 210u : 408u) << order;
    EXPECT_EQ(t->issue({1, 7, false, 128}, 110, true).done, data ? 214u : 412u) << order;
    EXPECT_EQ(t->bus_busy_cycles(), 5u * 4) << order;
  }
}

TEST(LatencyTiming, ClosedPageMakesEveryAccessAnEmptyOne) {
  auto t = std::make_unique<LatencyBanks>(papers());
  t->issue({0, 1, false, 128}, 0, false);
  EXPECT_EQ(t->open_row(0), std::nullopt);
  EXPECT_EQ(t->issue({0, 1, false, 128}, 300, false).outcome, RowOutcome::Empty);
}

TEST(AddressMap, DefaultLayoutPutsEach4KBBlockInOneRowOfOneBank) {
  DramSpec s;
  s.address_map = {{"column", 12}, {"bank", 3}};
  AddressMap m(s);
  for (uint64_t off : {0ull, 128ull, 4095ull}) {
    const DramCoord c = m.map((5ull << 15) | (3ull << 12) | off);
    EXPECT_EQ(c.bank, 3u);
    EXPECT_EQ(c.row, 5u);
    EXPECT_EQ(c.column, off);
  }
  EXPECT_EQ(m.map(4096).bank, 1u);
}

TEST(AddressMap, BankGroupBitsBecomeTheBanksHighBitsWhereverTheySit) {
  DramSpec
      s;  // DDR4 as Ramulator's RoBaRaCoCh: 13 column bits, 2 bank group bits, then 2 bank bits
  s.address_map = {{"column", 13}, {"bank_group", 2}, {"bank", 2}};
  AddressMap m(s);
  const DramCoord c = m.map((7ull << 17) | (1ull << 15) | (2ull << 13) | 64);
  EXPECT_EQ(c.bank, 2u * 4 + 1);  // group 2, bank 1 of it
  EXPECT_EQ(c.row, 7u);
  EXPECT_EQ(c.column, 64u);
}

// address_space "channel": 4 channels of 256 B runs. Channel 1's runs at 256, 1280, 2304, 3328
// (every 1 KB) are its addresses 0, 256, 512, 768: one 1 KB row holds all four; split as the
// global address they are, they lie in four rows.
TEST(AddressMap, ChannelAddressesTakeTheOtherChannelsRunsOut) {
  DramSpec s;
  s.address_map = {{"column", 10}, {"bank", 2}};
  s.channels = 4;
  s.channel_run_bytes = 256;
  const AddressMap global(s);
  s.channel_addresses = true;
  const AddressMap local(s);
  for (uint64_t k = 0; k < 4; ++k) {
    const uint64_t a = 256 + 1024 * k + 32;
    EXPECT_EQ(local.map(a).column, 256 * k + 32) << k;
    EXPECT_EQ(local.map(a).row, 0u) << k;
    EXPECT_EQ(local.map(a).bank, 0u) << k;
    EXPECT_EQ(global.map(a).bank, k) << k;  // 4 banks, 1 KB apart
  }
  EXPECT_EQ(local.map(4096 + 256).bank, 1u);  // the channel's fifth run: its second 1 KB
}

TEST(DramScheduler, FrFcfsReadyTakesTheOldestReadyCommandAfterTheRowsOpenedForRequests) {
  auto s = make_dram_scheduler("fr-fcfs-ready");
  std::vector<DramQueueEntry> q = {req(0, 2, 0), req(1, 1, 1), req(2, 1, 2)};
  q[0].ready = true;             // a precharge for an older conflict
  q[1].ready = q[1].hit = true;  // a younger row hit
  EXPECT_EQ(s->pick(q, 5), 0) << "no preference for row hits";
  q[2].ready = q[2].hit = q[2].opened = true;
  EXPECT_EQ(s->pick(q, 5), 2) << "a row opened for its request goes first";
  EXPECT_EQ(make_dram_scheduler("fr-fcfs")->pick(q, 5), 1) << "fr-fcfs: the oldest ready row hit";
}

// A policy that says it picks among the ready entries only (the command model then gives it only
// those) picks, from random queues, the entry it picks from the whole queue; fcfs and fr-fcfs-hold
// do not say so, and a request of a bank that is not ready yet would change their pick.
TEST(DramScheduler, APolicyThatPicksAmongTheReadyOnlyPicksAlikeFromTheReadyEntries) {
  std::mt19937 random(42);
  std::vector<std::string> ready_only;
  for (const std::string& name : Registry<DramSchedulerFactory>::instance().names()) {
    auto s = make_dram_scheduler(name);
    if (!s->picks_ready_only()) continue;
    ready_only.push_back(name);
    for (int trial = 0; trial < 2000; ++trial) {
      std::vector<DramQueueEntry> q(1 + random() % 12), ready;
      std::vector<int> index_of_ready;
      for (size_t i = 0; i < q.size(); ++i) {
        q[i] = req(random() % 4, random() % 3, i);
        q[i].ready = random() % 2;
        q[i].hit = random() % 2;
        q[i].opened = random() % 4 == 0;
        if (!q[i].ready) continue;
        ready.push_back(q[i]);
        index_of_ready.push_back(static_cast<int>(i));
      }
      const int whole = s->pick(q, 5);
      const int among_ready = ready.empty() ? -1 : s->pick(ready, 5);
      ASSERT_EQ(whole, among_ready < 0 ? -1 : index_of_ready[static_cast<size_t>(among_ready)])
          << name << ", trial " << trial;
    }
  }
  EXPECT_EQ(ready_only, (std::vector<std::string>{"fr-fcfs", "fr-fcfs-ready"}));
  // fcfs: bank 0's older request is not ready, so its younger one waits and bank 1's goes.
  std::vector<DramQueueEntry> q = {req(0, 1, 0), req(0, 1, 1), req(1, 1, 2)};
  q[1].ready = q[2].ready = true;
  EXPECT_EQ(make_dram_scheduler("fcfs")->pick(q, 5), 2);
  EXPECT_EQ(make_dram_scheduler("fcfs")->pick({q[1], q[2]}, 5), 0);  // bank 0's, had it been alone
}

}  // namespace
}  // namespace gputlm::mem
