// Graphs, graph memory and stream capture's bookkeeping (runtime/graph.h, graph_memory.h,
// capture.h), without a simulation: dependency order, clones, topology comparison, a capture's
// joins through events, its errors and the capture modes, the footprint of graph allocations.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "runtime/capture.h"
#include "runtime/graph.h"
#include "runtime/graph_memory.h"

namespace {

using namespace gputlm::runtime;

std::unique_ptr<GraphNode> node(NodeType type = NodeType::kEmpty) {
  auto n = std::make_unique<GraphNode>();
  n->type = type;
  return n;
}

GraphNode* add(Graph& g, const std::vector<GraphNode*>& deps, NodeType type = NodeType::kEmpty) {
  GraphNode* out = nullptr;
  EXPECT_EQ(g.add(node(type), deps, &out), kSuccess);
  return out;
}

// Two streams (handles the capture only compares) and an event.
int stream_a, stream_b, event_x;
void* const s1 = &stream_a;
void* const s2 = &stream_b;
void* const ev = &event_x;

TEST(Graph, TheOrderRunsEveryNodeAfterItsDependenciesAndACycleHasNone) {
  Graph g;
  GraphNode* a = add(g, {});
  GraphNode* b = add(g, {});
  GraphNode* c = add(g, {b});
  ASSERT_EQ(g.add_edge(c, a), kSuccess);  // a now runs after c
  std::vector<GraphNode*> order;
  ASSERT_TRUE(g.topological_order(order));
  EXPECT_EQ(order, (std::vector<GraphNode*>{b, c, a}));
  EXPECT_EQ(g.roots(), std::vector<GraphNode*>{b});
  ASSERT_EQ(g.add_edge(a, b), kSuccess);
  EXPECT_FALSE(g.topological_order(order));
  EXPECT_EQ(g.add_edge(a, b), kErrorInvalidValue) << "a duplicate edge";
  Graph other;
  EXPECT_EQ(g.add_edge(a, add(other, {})), kErrorInvalidValue) << "a node of another graph";
}

TEST(Graph, ACloneKeepsNodeIdsAndEdgesAndAnUpdateNeedsTheSameTopology) {
  Graph g;
  GraphNode* a = add(g, {}, NodeType::kMemset);
  add(g, {a}, NodeType::kHost);
  std::unique_ptr<Graph> copy = g.clone();
  GraphExecUpdateResult why;
  const GraphNode* where = nullptr;
  EXPECT_TRUE(g.same_topology(*copy, why, where));
  EXPECT_EQ(copy->find(a->id)->type, NodeType::kMemset);
  EXPECT_NE(copy->find(a->id), a);
  copy->remove_edge(copy->nodes()[0].get(), copy->nodes()[1].get());
  EXPECT_FALSE(g.same_topology(*copy, why, where));
  EXPECT_EQ(why, kUpdateTopologyChanged);
  Graph retyped;
  add(retyped, {}, NodeType::kMemcpy);
  add(retyped, {retyped.nodes()[0].get()}, NodeType::kHost);
  EXPECT_FALSE(g.same_topology(retyped, why, where));
  EXPECT_EQ(why, kUpdateNodeTypeChanged);
}

TEST(Capture, AStreamWaitingOnAnEventRecordedInACaptureJoinsIt) {
  Captures c;
  ASSERT_EQ(c.begin(s1, nullptr, {}, kCaptureGlobal), kSuccess);
  c.record_event(ev, s1);
  EXPECT_EQ(c.status(s2), kCaptureNone);
  ASSERT_EQ(c.wait_event(s2, ev), kSuccess);
  EXPECT_EQ(c.status(s2), kCaptureActive);
  ASSERT_EQ(c.add(s1, node()), kSuccess);
  GraphNode* forked = nullptr;
  ASSERT_EQ(c.add(s2, node(), &forked), kSuccess);
  c.record_event(ev, s2);
  ASSERT_EQ(c.wait_event(s1, ev), kSuccess);  // joined back: s1 now depends on both branches
  EXPECT_EQ(c.dependencies(s1).size(), 2u);
  GraphNode* last = nullptr;
  ASSERT_EQ(c.add(s1, node(), &last), kSuccess);
  EXPECT_EQ(last->deps.size(), 2u);
  EXPECT_EQ(last->deps[1], forked);
  Graph* g = nullptr;
  ASSERT_EQ(c.end(s1, &g), kSuccess);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->nodes().size(), 3u);
  EXPECT_EQ(c.status(s2), kCaptureNone);
  delete g;
}

TEST(Capture, AForkedStreamNotJoinedBackCannotEndTheCapture) {
  Captures c;
  ASSERT_EQ(c.begin(s1, nullptr, {}, kCaptureGlobal), kSuccess);
  c.record_event(ev, s1);
  ASSERT_EQ(c.wait_event(s2, ev), kSuccess);
  ASSERT_EQ(c.add(s2, node()), kSuccess);
  Graph* g = nullptr;
  EXPECT_EQ(c.end(s2, &g), kErrorStreamCaptureUnmatched)
      << "ended in a stream other than its origin";
  ASSERT_EQ(c.begin(s1, nullptr, {}, kCaptureGlobal), kSuccess);
  c.record_event(ev, s1);
  ASSERT_EQ(c.wait_event(s2, ev), kSuccess);
  ASSERT_EQ(c.add(s2, node()), kSuccess);
  EXPECT_EQ(c.end(s1, &g), kErrorStreamCaptureUnjoined);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(c.status(s1), kCaptureNone);
}

TEST(Capture, AnInvalidatedCaptureRefusesNodesAndEndsWithoutAGraph) {
  Captures c;
  EXPECT_EQ(c.begin(nullptr, nullptr, {}, kCaptureGlobal), kErrorStreamCaptureUnsupported)
      << "the legacy stream";
  ASSERT_EQ(c.begin(s1, nullptr, {}, kCaptureGlobal), kSuccess);
  EXPECT_EQ(c.begin(s1, nullptr, {}, kCaptureGlobal), kErrorIllegalState);
  EXPECT_EQ(c.invalidate(s1, kErrorStreamCaptureUnsupported), kErrorStreamCaptureUnsupported);
  EXPECT_EQ(c.status(s1), kCaptureInvalidated);
  EXPECT_EQ(c.add(s1, node()), kErrorStreamCaptureInvalidated);
  Graph* g = nullptr;
  EXPECT_EQ(c.end(s1, &g), kErrorStreamCaptureInvalidated);
  EXPECT_EQ(g, nullptr);
}

TEST(Capture, UnsafeCallsAreRefusedByTheCaptureAndThreadModes) {
  Captures c;
  EXPECT_EQ(c.unsafe_call(), kSuccess) << "no capture";
  ASSERT_EQ(c.begin(s1, nullptr, {}, kCaptureRelaxed), kSuccess);
  EXPECT_EQ(c.unsafe_call(), kSuccess) << "a relaxed capture forbids nothing";
  ASSERT_EQ(c.begin(s2, nullptr, {}, kCaptureGlobal), kSuccess);
  EXPECT_EQ(c.exchange_mode(kCaptureRelaxed), kCaptureGlobal);
  EXPECT_EQ(c.unsafe_call(), kSuccess) << "this thread is relaxed";
  EXPECT_EQ(c.exchange_mode(kCaptureGlobal), kCaptureRelaxed);
  EXPECT_EQ(c.unsafe_call(), kErrorStreamCaptureUnsupported);
  EXPECT_EQ(c.status(s2), kCaptureInvalidated);
  EXPECT_EQ(c.status(s1), kCaptureActive);
  Graph* g = nullptr;
  EXPECT_EQ(c.end(s2, &g), kErrorStreamCaptureInvalidated);
  EXPECT_EQ(c.end(s1, &g), kSuccess);
  delete g;
}

TEST(GraphMemory, AnAllocationKeepsItsAddressAndTheFootprintShrinksOnlyByTrimming) {
  DeviceMemory device;
  GraphMemory m(device);
  std::shared_ptr<GraphAllocation> a = m.reserve(1000);
  ASSERT_TRUE(a);
  EXPECT_EQ(m.attribute(kUsedMemCurrent), 0u) << "adding the node maps no memory";
  EXPECT_EQ(m.free(a->address), kErrorInvalidValue) << "not allocated yet";
  ASSERT_EQ(m.allocate(*a), kSuccess);
  EXPECT_EQ(m.allocate(*a), kErrorInvalidValue) << "still allocated";
  ASSERT_EQ(m.free(a->address), kSuccess);
  EXPECT_EQ(m.attribute(kUsedMemCurrent), 1000u);
  m.trim();
  EXPECT_EQ(m.attribute(kUsedMemCurrent), 0u);
  EXPECT_EQ(m.attribute(kUsedMemHigh), 1000u);
  ASSERT_EQ(m.allocate(*a), kSuccess);
  const uint64_t address = a->address;
  a.reset();  // the graph is gone, the allocation stays until freed
  EXPECT_TRUE(m.owns(address));
  EXPECT_EQ(m.free(address), kSuccess);
  EXPECT_FALSE(m.owns(address));
  EXPECT_EQ(device.in_use(), 0u);
}

}  // namespace
