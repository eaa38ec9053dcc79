#include "models/vgiw/mapper/live_values.h"

#include <algorithm>
#include <set>

namespace gputlm::vgiw {

LiveValues allocate_live_values(const std::vector<Segment>& segments) {
  // Interference: registers in one live-in or one live-out set.
  std::map<int32_t, std::set<int32_t>> clash;
  std::vector<int32_t> order;  // registers by first boundary they cross, in schedule order
  auto add_set = [&](const std::vector<int32_t>& live) {
    for (int32_t r : live) {
      if (!clash.count(r)) order.push_back(r);
      auto& c = clash[r];
      for (int32_t o : live)
        if (o != r) c.insert(o);
    }
  };
  for (const Segment& s : segments) {
    add_set(s.live_in);
    add_set(s.live_out);
  }
  LiveValues lv;
  for (int32_t r : order) {
    std::set<uint32_t> taken;
    for (int32_t o : clash[r])
      if (auto it = lv.id_of.find(o); it != lv.id_of.end()) taken.insert(it->second);
    uint32_t id = 0;
    while (taken.count(id)) ++id;
    lv.id_of[r] = id;
    lv.count = std::max(lv.count, id + 1);
  }
  return lv;
}

}  // namespace gputlm::vgiw
