// A thread block cluster in flight (PTX ISA 2.2.1 and 9.7.13.3, sm_90): the CTAs of one cluster
// by rank, whose shared memory each of them reaches through .shared::cluster addresses, and the
// cluster's split barrier (barrier.cluster.arrive / .wait). Shared by the CTAs of the cluster: the
// functional executor runs them interleaved, the timing model on several cores at once.
#pragma once

#include <cstdint>
#include <vector>

namespace gputlm::func {

struct CtaState;

// barrier.cluster: a phase completes when every thread of the cluster that has not exited has
// arrived; a thread's wait returns once the phase it arrived in has completed. Exited threads
// count as arrived (PTX ISA 9.7.13.3: "all non-exited threads").
struct ClusterBarrier {
  uint32_t threads = 0;  // of the whole cluster
  uint32_t arrived = 0;  // in the pending phase
  uint32_t exited = 0;
  uint32_t phase = 0;  // phases completed

  void arrive(uint32_t n) {
    arrived += n;
    complete_if_due();
  }
  // `n` threads exit, `arrived_now` of them having arrived in the pending phase.
  void exit(uint32_t n, uint32_t arrived_now) {
    arrived -= arrived_now;
    exited += n;
    complete_if_due();
  }

 private:
  void complete_if_due() {
    if (arrived > 0 && arrived + exited >= threads) {
      ++phase;
      arrived = 0;
    }
  }
};

struct ClusterState {
  ClusterState(uint32_t ctas, uint32_t threads) : ctas(ctas, nullptr) { barrier.threads = threads; }

  std::vector<CtaState*> ctas;  // by %cluster_ctarank; null before a CTA starts and after it ends
  ClusterBarrier barrier;
};

// .shared::cluster addresses (and generic ones in the shared window) name a CTA of the cluster in
// bits 24 and up, as rank + 1 (mapa makes them); 0 there is the executing CTA's own shared memory,
// so a .shared::cta address is the same address in .shared::cluster (PTX ISA 5.1.4). A choice of
// this model: a CTA's shared memory is at most 16 MB here, far above any GPU's 228 KB.
constexpr unsigned kClusterRankShift = 24;
constexpr uint64_t kClusterOffsetMask = (uint64_t{1} << kClusterRankShift) - 1;

}  // namespace gputlm::func
