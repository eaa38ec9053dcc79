// cudaGraphDebugDotPrint's output: a DOT digraph with one box per node (its type and main
// parameters) and one edge per dependency; a child graph is a cluster of its own.
#include <sstream>

#include "runtime/graph.h"
#include "runtime/runtime.h"

namespace gputlm::runtime {

namespace {

const char* type_name(NodeType t) {
  switch (t) {
    case NodeType::kKernel:
      return "KERNEL";
    case NodeType::kMemcpy:
      return "MEMCPY";
    case NodeType::kMemset:
      return "MEMSET";
    case NodeType::kHost:
      return "HOST";
    case NodeType::kGraph:
      return "CHILD_GRAPH";
    case NodeType::kEmpty:
      return "EMPTY";
    case NodeType::kWaitEvent:
      return "WAIT_EVENT";
    case NodeType::kEventRecord:
      return "EVENT_RECORD";
    case NodeType::kMemAlloc:
      return "MEM_ALLOC";
    case NodeType::kMemFree:
      return "MEM_FREE";
    case NodeType::kConditional:
      return "CONDITIONAL";
    default:
      return "OTHER";
  }
}

std::string label(const GraphNode& n) {
  std::ostringstream s;
  s << type_name(n.type) << "\\nid " << n.id;
  if (n.type == NodeType::kKernel)
    s << "\\n"
      << n.kernel.kernel->name << "\\n<<<(" << n.kernel.grid.x << "," << n.kernel.grid.y << ","
      << n.kernel.grid.z << "),(" << n.kernel.block.x << "," << n.kernel.block.y << ","
      << n.kernel.block.z << ")," << n.kernel.shared << ">>>";
  if (n.type == NodeType::kMemcpy)
    s << "\\n"
      << n.copy.extent.width << "x" << n.copy.extent.height << "x" << n.copy.extent.depth
      << " bytes, kind " << n.copy.kind;
  if (n.type == NodeType::kMemset)
    s << "\\nvalue " << n.memset.value << ", " << n.memset.width << "x" << n.memset.height << " of "
      << n.memset.elementSize << " bytes";
  if (n.type == NodeType::kMemAlloc)
    s << "\\n" << n.alloc->bytes << " bytes at 0x" << std::hex << n.alloc->address;
  if (n.type == NodeType::kMemFree) s << "\\n0x" << std::hex << n.free_address;
  return s.str();
}

std::string dot_id(const std::string& prefix, const GraphNode& n) {
  return "\"" + prefix + std::to_string(n.id) + "\"";
}

void write_body(std::ostream& out, const Graph& g, const std::string& prefix) {
  for (const auto& n : g.nodes()) {
    out << "  " << dot_id(prefix, *n) << " [shape=box, label=\"" << label(*n) << "\"];\n";
    if (n->type == NodeType::kGraph) {
      const std::string inner = prefix + std::to_string(n->id) + "_";
      out << "  subgraph \"cluster_" << inner << "\" {\n  label=\"child graph of node " << n->id
          << "\";\n";
      write_body(out, *n->child, inner);
      out << "  }\n";
    }
    for (size_t b = 0; b < n->bodies.size(); ++b) {
      const std::string inner = prefix + std::to_string(n->id) + "_body" + std::to_string(b) + "_";
      out << "  subgraph \"cluster_" << inner << "\" {\n  label=\"body " << b
          << " of conditional node " << n->id << "\";\n";
      write_body(out, *n->bodies[b], inner);
      out << "  }\n";
    }
  }
  for (const auto& n : g.nodes())
    for (const GraphNode* d : n->deps)
      out << "  " << dot_id(prefix, *d) << " -> " << dot_id(prefix, *n) << ";\n";
}

}  // namespace

void Graph::write_dot(std::ostream& out, const std::string& name) const {
  out << "digraph \"" << name << "\" {\n";
  write_body(out, *this, "node_");
  out << "}\n";
}

}  // namespace gputlm::runtime
