// An executable graph (cudaGraphExec_t): a snapshot of a graph made at instantiation, whose node
// parameters may be changed afterwards (cudaGraphExec*NodeSetParams, cudaGraphExecUpdate) without
// touching the graph it came from. A launch runs the nodes in a topological order, one at a time
// to its end, as serialised streams run calls: a kernel node launches as <<<>>> does (the
// statistics record each launch), a memcpy node copies as cudaMemcpy3D, an event record node
// records as cudaEventRecord.
#pragma once

#include <map>
#include <memory>

#include "runtime/graph.h"

namespace gputlm::runtime {

class GraphExec {
 public:
  // kErrorInvalidValue when the graph's edges hold a cycle (`why` the instantiate result).
  static CudaError instantiate(const Graph& graph, unsigned long long flags,
                               std::unique_ptr<GraphExec>& out);

  CudaError launch();
  unsigned long long flags() const { return m_flags; }
  const Graph& graph() const { return *m_graph; }
  // The node of this executable graph that `original` (a node of a graph it was made or updated
  // from) became; nullptr if none.
  GraphNode* node_for(const GraphNode* original) const;
  // cudaGraphExecUpdate: the parameters of `graph`'s nodes when its topology matches, else the
  // reason in `info` and kErrorGraphExecUpdateFailure.
  CudaError update(const Graph& graph, GraphExecUpdateResultInfo& info);

 private:
  void map_nodes(const Graph& from);

  std::unique_ptr<Graph> m_graph;
  unsigned long long m_flags = 0;
  std::map<const GraphNode*, uint64_t> m_handles;  // a node of a source graph -> id here
};

// Runs a graph's nodes in a topological order (`graph` acyclic); the first error ends it.
CudaError run_graph(Graph& graph);

}  // namespace gputlm::runtime
