// Thread block clusters on the functional engine (PTX ISA 2.2.1, 9.7.13.3 barrier.cluster,
// 9.7.9.18 mapa, 9.7.9.19 getctarank, the %cluster registers of section 10): the cluster
// directives, the order CTAs start in, the split barrier counting exited threads, reaching another
// CTA's shared memory through mapa (plain and generic addresses, atomics, mbarrier arrives), and
// the faults of a barrier that can never complete and of a rank outside the cluster.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "models/func/cluster_state.h"
#include "models/func/kernel_fault.h"
#include "models/func/reference_executor.h"
#include "models/vgiw/mapper/kernel_map.h"
#include "support/ptx_harness.h"
#include "tensor_warp_harness.h"

namespace gputlm::test {
namespace {

// A kernel `k(.u64 out)` with `body` (registers %r1..%r9 .b32, %rd1..%rd9 .b64, %p1..%p3 .pred,
// a 256-byte shared array `buf`), launched on `grid` CTAs of `threads` threads in clusters of
// `cluster`; returns the first `words` 32-bit words of out.
struct ClusterRun {
  ClusterRun(const std::string& body, func::Dim3 grid, uint32_t threads, func::Dim3 cluster,
             const std::string& directives = "") {
    module =
        parse(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)" +
              directives +
              "\n{\n .reg .b32 %r<10>;\n .reg .b64 %rd<10>;\n .reg .pred %p<4>;\n"
              " .shared .align 8 .b8 buf[256];\n ld.param.u64 %rd9, [out];\n" +
              body + "\n ret;\n}\n");
    const isa::Kernel& k = *module->kernels.at(0);
    bound = std::make_unique<func::BoundKernel>(k);
    out = memory.allocate(4096, "out");
    launch.kernel = &k;
    launch.grid = grid;
    launch.block.x = threads;
    launch.cluster = cluster;
    launch.explicit_cluster = cluster.count() > 1;
    launch.memory = &memory;
    launch.params.resize(8);
    std::memcpy(launch.params.data(), &out, 8);
  }
  // The kernel fault the launch ends with ("" if it ends without one).
  std::string fault() {
    return kernel_fault([&] { func::run_reference(*bound, launch); });
  }
  std::vector<uint32_t> run(size_t words) {
    func::run_reference(*bound, launch);
    std::vector<uint32_t> v(words);
    memory.read(out, v.data(), 4 * words);
    return v;
  }
  std::unique_ptr<isa::Module> module;
  std::unique_ptr<func::BoundKernel> bound;
  func::GlobalMemory memory;
  func::Launch launch;
  uint64_t out = 0;
};

// out[linear CTA id] = what `reg` computes from the special registers (thread 0 stores).
const std::string kStoreOne =
    "mov.u32 %r8, %tid.x;\n setp.ne.u32 %p3, %r8, 0;\n @%p3 bra DONE;\n"
    "mov.u32 %r5, %ctaid.x;\n mov.u32 %r6, %ctaid.y;\n mov.u32 %r7, %nctaid.x;\n mad.lo.u32 %r5, "
    "%r6, %r7, %r5;\n"
    "mul.wide.u32 %rd1, %r5, 4;\n add.u64 %rd1, %rd9, %rd1;\n st.global.u32 [%rd1], %r1;\nDONE:\n";

TEST(Clusters, TheDirectivesOfAKernelAreRecorded) {
  auto m = parse(
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() .explicitcluster "
      ".reqnctapercluster 2, 3\n"
      " .maxclusterrank 8\n{\n ret;\n}\n");
  const isa::Kernel& k = *m->kernels.at(0);
  EXPECT_EQ(k.cluster_dims, (std::array<uint32_t, 3>{2, 3, 1}));
  EXPECT_TRUE(k.explicit_cluster);
  EXPECT_EQ(k.max_cluster_rank, 8u);
}

TEST(Clusters, CtasStartClusterByClusterEachByRank) {
  func::Launch l;
  l.grid = {4, 2, 1};
  l.cluster = {2, 2, 1};
  // Cluster 0 holds CTAs (0,0) (1,0) (0,1) (1,1): linear 0 1 4 5; cluster 1 the rest.
  const std::vector<uint64_t> want{0, 1, 4, 5, 2, 3, 6, 7};
  for (uint64_t i = 0; i < want.size(); ++i) EXPECT_EQ(l.cta_in_order(i), want[i]) << i;
  EXPECT_EQ(l.cluster_rank({1, 1, 0}), 3u);
  EXPECT_EQ(l.cluster_index({3, 0, 0}), 1u);
}

TEST(Clusters, SpecialRegistersDescribeTheClusterAndThePlaceInIt) {
  // %r1 = clusterid.x * 1000 + nclusterid.y * 100 + cluster_ctaid.y * 10 + cluster_ctarank, then
  // + 10000 * cluster_nctarank + 100000 * is_explicit_cluster.
  ClusterRun r(
      "mov.u32 %r2, %clusterid.x;\n mov.u32 %r3, %nclusterid.y;\n mov.u32 %r4, %cluster_ctaid.y;\n"
      "mov.u32 %r1, %cluster_ctarank;\n mad.lo.u32 %r1, %r2, 1000, %r1;\n mad.lo.u32 %r1, %r3, "
      "100, %r1;\n"
      "mad.lo.u32 %r1, %r4, 10, %r1;\n mov.u32 %r2, %cluster_nctarank;\n mad.lo.u32 %r1, %r2, "
      "10000, %r1;\n"
      "mov.u32 %r2, %is_explicit_cluster;\n mad.lo.u32 %r1, %r2, 100000, %r1;\n" +
          kStoreOne,
      {4, 2, 1}, 32, {2, 2, 1});
  const std::vector<uint32_t> got = r.run(8);
  // CTA (x, y): cluster x / 2, 1 cluster in y, position y in the cluster, rank x % 2 + 2 y.
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x)
      EXPECT_EQ(got[y * 4 + x], 100000u + 40000u + (x / 2) * 1000 + 100 + y * 10 + (x % 2 + 2 * y))
          << x << "," << y;
}

TEST(Clusters, ALaunchWithoutClustersIsClustersOfOneCta) {
  ClusterRun r(
      "mov.u32 %r1, %cluster_nctarank;\n mov.u32 %r2, %clusterid.x;\n mad.lo.u32 %r1, %r2, 10, "
      "%r1;\n" +
          kStoreOne,
      {3, 1, 1}, 32, {1, 1, 1});
  EXPECT_EQ(r.run(3), (std::vector<uint32_t>{1, 11, 21}));
}

// Each CTA writes 100 + rank into its buf[0], syncs the cluster, reads rank (r+1)%n's buf[0]
// through mapa (`space`: ".shared::cluster" with shared addresses, "" with generic ones).
std::string neighbour_read(const std::string& space) {
  const bool generic = space.empty();
  return std::string(
             "mov.u32 %r2, %cluster_ctarank;\n add.u32 %r3, %r2, 100;\n st.shared.u32 [buf], "
             "%r3;\n") +
         "barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;\n"
         "mov.u32 %r4, %cluster_nctarank;\n add.u32 %r5, %r2, 1;\n rem.u32 %r5, %r5, %r4;\n" +
         (generic ? "cvta.shared.u64 %rd2, buf;\n mapa.u64 %rd3, %rd2, %r5;\n ld.u32 %r1, [%rd3];\n"
                  : "mov.u32 %r6, buf;\n mapa.shared::cluster.u32 %r7, %r6, %r5;\n "
                    "ld.shared::cluster.u32 %r1, [%r7];\n") +
         "barrier.cluster.arrive;\n barrier.cluster.wait;\n" + kStoreOne;
}

TEST(Clusters, MapaReachesTheNeighboursSharedMemoryThroughSharedClusterAddresses) {
  ClusterRun r(neighbour_read(".shared::cluster"), {6, 1, 1}, 64, {3, 1, 1});
  EXPECT_EQ(r.run(6), (std::vector<uint32_t>{101, 102, 100, 101, 102, 100}));
}

TEST(Clusters, MapaReachesTheNeighboursSharedMemoryThroughGenericAddresses) {
  ClusterRun r(neighbour_read(""), {4, 1, 1}, 96, {4, 1, 1});
  EXPECT_EQ(r.run(4), (std::vector<uint32_t>{101, 102, 103, 100}));
}

TEST(Clusters, GetctarankNamesTheCtaAnAddressIsIn) {
  // %r1 = getctarank of (own buf) * 10 + getctarank of rank 2's buf.
  ClusterRun r(
      "mov.u32 %r6, buf;\n getctarank.shared::cluster.u32 %r2, %r6;\n mapa.shared::cluster.u32 "
      "%r7, %r6, 2;\n"
      "getctarank.shared::cluster.u32 %r3, %r7;\n mad.lo.u32 %r1, %r2, 10, %r3;\n" +
          kStoreOne,
      {4, 1, 1}, 32, {4, 1, 1});
  EXPECT_EQ(r.run(4), (std::vector<uint32_t>{2, 12, 22, 32}));
}

TEST(Clusters, AtomicsOnAPeersSharedMemoryAllLand) {
  // Every thread of the cluster of 4 adds 1 to rank 0's buf[0]; rank 0 reads it after the barrier.
  ClusterRun r(
      "st.shared.u32 [buf], 0;\n barrier.cluster.arrive;\n barrier.cluster.wait;\n"
      "mov.u32 %r6, buf;\n mapa.shared::cluster.u32 %r7, %r6, 0;\n atom.shared::cluster.add.u32 "
      "%r2, [%r7], 1;\n"
      "barrier.cluster.arrive;\n barrier.cluster.wait;\n ld.shared.u32 %r1, [buf];\n" +
          kStoreOne,
      {4, 1, 1}, 128, {4, 1, 1});
  const std::vector<uint32_t> got = r.run(4);
  EXPECT_EQ(got[0], 512u);
  EXPECT_EQ(got[1], 0u);
}

TEST(Clusters, ExitedThreadsCountAsArrived) {
  // Rank 1's threads and half of rank 0's exit first; the rest still pass the cluster barrier.
  ClusterRun r(
      "mov.u32 %r2, %cluster_ctarank;\n mov.u32 %r3, %tid.x;\n setp.ne.u32 %p1, %r2, 0;\n @%p1 bra "
      "OUT;\n"
      "setp.ge.u32 %p1, %r3, 32;\n @%p1 bra OUT;\n barrier.cluster.arrive;\n "
      "barrier.cluster.wait;\n mov.u32 %r1, 9;\n" +
          kStoreOne + "OUT:\n",
      {2, 1, 1}, 64, {2, 1, 1});
  EXPECT_EQ(r.run(2), (std::vector<uint32_t>{9, 0}));
}

TEST(ClusterBarrier, APhaseCompletesWhenTheArrivedAndExitedMakeTheCluster) {
  func::ClusterBarrier b;
  b.threads = 4;
  b.arrive(2);
  b.exit(1, 0);
  EXPECT_EQ(b.phase, 0u);
  b.arrive(1);
  EXPECT_EQ(b.phase, 1u);
  EXPECT_EQ(b.arrived, 0u);
  b.arrive(2);
  b.exit(1, 1);  // an arrived thread exits: it counts once
  EXPECT_EQ(b.phase, 1u);
  b.arrive(1);
  EXPECT_EQ(b.phase, 2u);
}

TEST(Clusters, AWaitNoThreadCanCompleteIsAFault) {
  // Rank 0's second warp waits at bar.sync for its first warp, which waits at the cluster barrier
  // for the second warp: nobody can move.
  ClusterRun r(
      "mov.u32 %r3, %tid.x;\n mov.u32 %r2, %cluster_ctarank;\n setp.eq.u32 %p1, %r2, 0;\n "
      "setp.ge.u32 %p2, %r3, 32;\n"
      "and.pred %p1, %p1, %p2;\n @!%p1 bra GO;\n bar.sync 0;\nGO:\n barrier.cluster.arrive;\n "
      "barrier.cluster.wait;\n",
      {2, 1, 1}, 64, {2, 1, 1});
  const std::string fault = r.fault();
  EXPECT_NE(fault.find(
                "barrier.cluster.wait can never complete: 96 of the cluster's 128 threads arrived"),
            std::string::npos)
      << fault;
}

TEST(Clusters, ARankOutsideTheClusterIsAFault) {
  ClusterRun r("mov.u32 %r6, buf;\n mapa.shared::cluster.u32 %r7, %r6, 2;\n", {2, 1, 1}, 32,
               {2, 1, 1});
  const std::string fault = r.fault();
  EXPECT_NE(fault.find("mapa: CTA rank 2 outside the cluster of 2 CTAs"), std::string::npos)
      << fault;
}

TEST(Clusters, AnAccessBeyondAPeersSharedMemoryIsAFault) {
  ClusterRun r(
      "mov.u32 %r6, buf;\n add.u32 %r6, %r6, 256;\n mapa.shared::cluster.u32 %r7, %r6, 1;\n "
      "ld.shared::cluster.u32 %r1, [%r7];\n",
      {2, 1, 1}, 32, {2, 1, 1});
  const std::string fault = r.fault();
  EXPECT_NE(fault.find("shared::cluster access beyond CTA rank 1's 256 bytes"), std::string::npos)
      << fault;
}

TEST(Clusters, AMbarrierOfAPeerTakesRemoteArrivals) {
  // Rank 0 inits an mbarrier for 96 arrivals; the 32 threads of ranks 1-3 each arrive on it
  // remotely (no state); rank 0 waits for phase 0 to complete.
  ClusterRun r(
      "mov.u32 %r2, %cluster_ctarank;\n mov.u32 %r6, buf;\n setp.ne.u32 %p1, %r2, 0;\n"
      "@!%p1 mbarrier.init.shared::cta.b64 [buf], 96;\n barrier.cluster.arrive;\n "
      "barrier.cluster.wait;\n"
      "@%p1 bra ARRIVE;\nWAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %p2, [buf], 0;\n @!%p2 "
      "bra WAIT;\n"
      "mov.u32 %r1, 77;\n bra DONE1;\nARRIVE:\n mapa.shared::cluster.u32 %r7, %r6, 0;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r7];\n mov.u32 %r1, %r2;\nDONE1:\n"
      "barrier.cluster.arrive;\n barrier.cluster.wait;\n" +
          kStoreOne,
      {4, 1, 1}, 32, {4, 1, 1});
  EXPECT_EQ(r.run(4), (std::vector<uint32_t>{77, 1, 2, 3}));
}

TEST(Clusters, AsyncStoresAndReductionsIntoAPeerCompleteItsMbarrier) {
  // Rank 0's mbarrier (at buf+128) expects its 32 threads' arrivals and 8 + 4 bytes: rank 1's
  // thread 0 st.async's a .v2.u32 into rank 0's buf[0..7] and red.async.add's 5 to buf[8]. Rank 0
  // then reads buf[0] + buf[4] + buf[8] (7 + 8 + 1 + 5).
  ClusterRun r(
      "mov.u32 %r2, %cluster_ctarank;\n mov.u32 %r3, %tid.x;\n mov.u32 %r6, buf;\n setp.ne.u32 "
      "%p1, %r2, 0;\n"
      "setp.eq.u32 %p0, %r3, 0;\n and.pred %p0, %p0, !%p1;\n"  // rank 0's thread 0
      "@!%p1 st.shared.u32 [buf+8], 1;\n add.u32 %r8, %r6, 128;\n"
      "@%p0 mbarrier.init.shared::cta.b64 [%r8], 32;\n @%p0 mbarrier.expect_tx.shared::cta.b64 "
      "[%r8], 12;\n"
      "barrier.cluster.arrive;\n barrier.cluster.wait;\n @!%p1 bra WAIT;\n setp.ne.u32 %p2, %r3, "
      "0;\n @%p2 bra DONE1;\n"
      "mapa.shared::cluster.u32 %r7, %r6, 0;\n mapa.shared::cluster.u32 %r9, %r8, 0;\n mov.u32 "
      "%r4, 7;\n mov.u32 %r5, 8;\n"
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r7], {%r4, %r5}, [%r9];\n"
      "add.u32 %r7, %r7, 8;\n "
      "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r7], 5, "
      "[%r9];\n"
      "bra DONE1;\nWAIT:\n @%p1 bra DONE1;\n mbarrier.arrive.shared::cta.b64 %rd1, [%r8];\nPOLL:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r8], 0;\n @!%p2 bra POLL;\n"
      "ld.shared.u32 %r1, [buf];\n ld.shared.u32 %r4, [buf+4];\n ld.shared.u32 %r5, [buf+8];\n "
      "add.u32 %r1, %r1, %r4;\n add.u32 %r1, %r1, %r5;\n"
      "DONE1:\n barrier.cluster.arrive;\n barrier.cluster.wait;\n" +
          kStoreOne,
      {2, 1, 1}, 32, {2, 1, 1});
  EXPECT_EQ(r.run(1)[0], 21u);
}

// VGIW's fabric maps no cluster construct and no bulk or tensor copy: each refuses the kernel with
// the instruction's text and why.
TEST(ClusterSemantics, VgiwRefusesClusterInstructionsAndBulkReductionsNamingThem) {
  const std::pair<std::string, std::string> cases[] = {
      {"barrier.cluster.arrive;", "thread block clusters"},
      {"mapa.shared::cluster.u32 %r32, %r0, 1;", "thread block clusters"},
      {"getctarank.shared::cluster.u32 %r32, %r0;", "thread block clusters"},
      {"cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd0, {%r0}], "
       "[%r1];",
       "asynchronous copies"}};
  for (const auto& [line, why] : cases) {
    auto m = parse(tensor_warp_kernel(line));
    try {
      vgiw::map_kernel(*m->kernels.at(0));
      ADD_FAILURE() << "VGIW mapped " << line;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("'" + line + "'"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gputlm::test
