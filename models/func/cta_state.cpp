#include "models/func/cta_state.h"

namespace gputlm::func {

void CtaState::join(std::shared_ptr<ClusterState> c) {
  cluster = std::move(c);
  cluster_rank = launch->cluster_rank(ctaid);
  cluster->ctas.at(cluster_rank) = this;
}

void CtaState::leave_cluster() {
  if (cluster && cluster_rank < cluster->ctas.size() && cluster->ctas[cluster_rank] == this)
    cluster->ctas[cluster_rank] = nullptr;
  cluster.reset();
}

std::string CtaState::shared_miss(uint64_t addr) const {
  const uint64_t r = addr >> kClusterRankShift;
  if (r == 0)
    return "shared memory access beyond the CTA's " + std::to_string(shared.size()) + " bytes";
  const uint64_t n = cluster ? cluster->ctas.size() : 1;
  if (r - 1 >= n)
    return "shared::cluster access to CTA rank " + std::to_string(r - 1) + " of a cluster of " +
           std::to_string(n) + " CTAs";
  const CtaState* owner = cluster ? cluster->ctas[r - 1] : this;
  if (!owner)
    return "shared::cluster access to CTA rank " + std::to_string(r - 1) +
           ", which is not running (it has exited)";
  return "shared::cluster access beyond CTA rank " + std::to_string(r - 1) + "'s " +
         std::to_string(owner->shared.size()) + " bytes";
}

}  // namespace gputlm::func
