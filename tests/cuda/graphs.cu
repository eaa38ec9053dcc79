// CUDA graphs: one built explicitly (memset, memcpy, kernel, child graph, memcpy back, host and
// empty nodes with dependencies) and one captured from two streams joined by events; each is
// instantiated, launched several times and updated (cudaGraphExecKernelNodeSetParams, a disabled
// kernel node, and cudaGraphExecUpdate from a new capture), the results checked on the host. Error
// paths: a capturing stream cannot be synchronised (the capture is then invalidated), a capture
// whose forked stream does not rejoin cannot end, and an update to a different topology fails. A
// while conditional node loops on a value its body kernel sets (device-side
// cudaGraphSetConditional).
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <cuda.h>  // CU_LAUNCH_PARAM_* of the `extra` argument form

#include "cuda_check.h"

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int kN = 512;

__global__ void axpy(float* out, const float* a, const float* b, float alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * a[i] + b[i];
}
__global__ void scale(float* x, float f, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}
__global__ void fill(float* y, float v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += v;
}

// The body of a while conditional: counts down and ends the loop at 0 (device-side
// cudaGraphSetConditional).
__global__ void count_down(int* counter, cudaGraphConditionalHandle handle) {
  if (--*counter <= 0) cudaGraphSetConditional(handle, 0);
}

struct HostCount {
  int calls = 0;
};
void CUDART_CB count_call(void* data) { ++static_cast<HostCount*>(data)->calls; }

bool all_equal(const float* x, const float* a, float alpha, float b, float f) {
  for (int i = 0; i < kN; ++i)
    if (x[i] != (alpha * a[i] + b) * f) return false;
  return true;
}

// The explicit graph; returns the kernel launches it made (2 per graph launch).
int explicit_graph(float* a_h, float* out_h, float* a_d, float* b_d, float* out_d) {
  cudaGraph_t graph, child;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));
  CUDA_CHECK(cudaGraphCreate(&child, 0));
  int n = kN;
  // The child's kernel takes its arguments in the `extra` form: one buffer laid out as its
  // parameter list (float*, float, int).
  struct {
    float* x;
    float f;
    int n;
  } scale_buffer = {out_d, 2.0f, kN};
  size_t buffer_size = sizeof scale_buffer;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &scale_buffer, CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &buffer_size, CU_LAUNCH_PARAM_END};
  cudaKernelNodeParams sp = {(void*)scale, dim3(kN / 128), dim3(128), 0, nullptr, extra};
  cudaGraphNode_t scale_node;
  CUDA_CHECK(cudaGraphAddKernelNode(&scale_node, child, nullptr, 0, &sp));

  cudaMemsetParams ms = {};
  ms.dst = b_d;
  ms.value = 0x3f800000;  // 1.0f in each 4-byte element
  ms.elementSize = 4;
  ms.width = kN;
  ms.height = 1;
  cudaGraphNode_t memset_node, copy_in, kernel, child_node, copy_out, host, join;
  CUDA_CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &ms));
  CUDA_CHECK(cudaGraphAddMemcpyNode1D(&copy_in, graph, nullptr, 0, a_d, a_h, kN * sizeof(float),
                                      cudaMemcpyHostToDevice));
  float alpha = 3.0f;
  void* axpy_args[] = {&out_d, &a_d, &b_d, &alpha, &n};
  cudaKernelNodeParams kp = {(void*)axpy, dim3(kN / 128), dim3(128), 0, axpy_args, nullptr};
  cudaGraphNode_t first[] = {memset_node, copy_in};
  CUDA_CHECK(cudaGraphAddKernelNode(&kernel, graph, first, 2, &kp));
  alpha = 100.0f;  // the node copied the arguments when added
  CUDA_CHECK(cudaGraphAddChildGraphNode(&child_node, graph, &kernel, 1, child));
  CUDA_CHECK(cudaGraphDestroy(child));  // the node holds its own copy
  cudaMemcpy3DParms cp = {};
  cp.srcPtr = make_cudaPitchedPtr(out_d, kN * sizeof(float), kN, 1);
  cp.dstPtr = make_cudaPitchedPtr(out_h, kN * sizeof(float), kN, 1);
  cp.extent = make_cudaExtent(kN * sizeof(float), 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaGraphAddMemcpyNode(&copy_out, graph, &child_node, 1, &cp));
  HostCount count;
  cudaHostNodeParams hp = {count_call, &count};
  CUDA_CHECK(cudaGraphAddHostNode(&host, graph, &copy_out, 1, &hp));
  CUDA_CHECK(cudaGraphAddEmptyNode(&join, graph, &host, 1));

  size_t nodes = 0, roots = 0, edges = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CUDA_CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  CUDA_CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  EXPECT(nodes == 7 && roots == 2 && edges == 6);
  cudaGraphNodeType type;
  CUDA_CHECK(cudaGraphNodeGetType(child_node, &type));
  EXPECT(type == cudaGraphNodeTypeGraph);

  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 3; ++i) {
    std::memset(out_h, 0, kN * sizeof(float));
    CUDA_CHECK(cudaGraphLaunch(exec, 0));
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT(all_equal(out_h, a_h, 3.0f, 1.0f, 2.0f));
  }
  EXPECT(count.calls == 3);
  // The executable graph's kernel node gets alpha 5; the graph's node keeps 3.
  float alpha5 = 5.0f;
  void* new_args[] = {&out_d, &a_d, &b_d, &alpha5, &n};
  kp.kernelParams = new_args;
  CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, kernel, &kp));
  CUDA_CHECK(cudaGraphLaunch(exec, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT(all_equal(out_h, a_h, 5.0f, 1.0f, 2.0f) && count.calls == 4);
  // With the axpy node disabled only the child's scale runs: the output doubles again.
  CUDA_CHECK(cudaGraphNodeSetEnabled(exec, kernel, 0));
  CUDA_CHECK(cudaGraphLaunch(exec, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT(all_equal(out_h, a_h, 5.0f, 1.0f, 4.0f) && count.calls == 5);
  unsigned enabled = 1;
  CUDA_CHECK(cudaGraphNodeGetEnabled(exec, kernel, &enabled));
  EXPECT(enabled == 0);
  CUDA_CHECK(cudaGraphNodeSetEnabled(exec, kernel, 1));
  cudaKernelNodeParams back;
  CUDA_CHECK(cudaGraphKernelNodeGetParams(kernel, &back));
  EXPECT(back.func == (void*)axpy && *static_cast<float*>(back.kernelParams[3]) == 3.0f);

  const std::string dot = (std::filesystem::temp_directory_path() /
                           ("graphs_test_" + std::to_string(getpid()) + ".dot"))
                              .string();
  CUDA_CHECK(cudaGraphDebugDotPrint(graph, dot.c_str(), cudaGraphDebugDotFlagsVerbose));
  std::stringstream text;
  text << std::ifstream(dot).rdbuf();
  EXPECT(text.str().find("digraph") != std::string::npos &&
         text.str().find("CHILD_GRAPH") != std::string::npos);
  std::remove(dot.c_str());
  // An edge back to a root makes a cycle, which cannot be instantiated; removing it mends the
  // graph.
  CUDA_CHECK(cudaGraphAddDependencies(graph, &join, &memset_node, nullptr, 1));
  cudaGraphExec_t cyclic;
  EXPECT(cudaGraphInstantiate(&cyclic, graph, 0) != cudaSuccess);
  cudaGetLastError();
  CUDA_CHECK(cudaGraphRemoveDependencies(graph, &join, &memset_node, nullptr, 1));
  CUDA_CHECK(cudaGraphInstantiate(&cyclic, graph, 0));
  CUDA_CHECK(cudaGraphExecDestroy(cyclic));
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  return 4 * 2 + 1;
}

// Captures x -> x_d on s1 and y_d = 0 + v on s2 (forked and joined by events), then z = x + y on s1
// and z back to the host, and a host function.
cudaGraph_t capture(cudaStream_t s1, cudaStream_t s2, float* x_h, float* x_d, float* y_d,
                    float* z_d, float* z_h, float v, HostCount* count, bool extra_node = false) {
  cudaEvent_t fork, joined;
  CUDA_CHECK(cudaEventCreate(&fork));
  CUDA_CHECK(cudaEventCreate(&joined));
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork, s1));
  CUDA_CHECK(cudaStreamWaitEvent(s2, fork, 0));
  cudaStreamCaptureStatus status;
  CUDA_CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT(status == cudaStreamCaptureStatusActive);
  CUDA_CHECK(cudaMemcpyAsync(x_d, x_h, kN * sizeof(float), cudaMemcpyHostToDevice, s1));
  CUDA_CHECK(cudaMemsetAsync(y_d, 0, kN * sizeof(float), s2));
  fill<<<kN / 128, 128, 0, s2>>>(y_d, v, kN);
  if (extra_node) CUDA_CHECK(cudaMemsetAsync(z_d, 0, kN * sizeof(float), s2));
  CUDA_CHECK(cudaEventRecord(joined, s2));
  CUDA_CHECK(cudaStreamWaitEvent(s1, joined, 0));
  size_t deps = 0;
  CUDA_CHECK(cudaStreamGetCaptureInfo(s1, &status, nullptr, nullptr, nullptr, nullptr, &deps));
  EXPECT(status == cudaStreamCaptureStatusActive && deps == 2);  // the copy and s2's last node
  axpy<<<kN / 128, 128, 0, s1>>>(z_d, x_d, y_d, 1.0f, kN);
  CUDA_CHECK(cudaMemcpyAsync(z_h, z_d, kN * sizeof(float), cudaMemcpyDeviceToHost, s1));
  CUDA_CHECK(cudaLaunchHostFunc(s1, count_call, count));
  cudaGraph_t graph;
  CUDA_CHECK(cudaStreamEndCapture(s1, &graph));
  CUDA_CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT(status == cudaStreamCaptureStatusNone);
  CUDA_CHECK(cudaEventDestroy(fork));
  CUDA_CHECK(cudaEventDestroy(joined));
  return graph;
}

// Returns the kernel launches made (2 per graph launch).
int captured_graph(float* x_h, float* z_h, float* x_d, float* y_d, float* z_d) {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  HostCount count;
  std::memset(z_h, 0, kN * sizeof(float));
  cudaGraph_t graph = capture(s1, s2, x_h, x_d, y_d, z_d, z_h, 3.0f, &count);
  EXPECT(z_h[1] == 0.0f && count.calls == 0);  // captured work does not run
  size_t nodes = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  EXPECT(nodes == 6);
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 2; ++i) {
    std::memset(z_h, 0, kN * sizeof(float));
    CUDA_CHECK(cudaGraphLaunch(exec, s1));
    CUDA_CHECK(cudaStreamSynchronize(s1));
    EXPECT(all_equal(z_h, x_h, 1.0f, 3.0f, 1.0f) && count.calls == i + 1);
  }
  // The same topology with v = 7 updates the executable graph in place.
  cudaGraph_t same = capture(s1, s2, x_h, x_d, y_d, z_d, z_h, 7.0f, &count);
  cudaGraphExecUpdateResultInfo info;
  CUDA_CHECK(cudaGraphExecUpdate(exec, same, &info));
  EXPECT(info.result == cudaGraphExecUpdateSuccess);
  CUDA_CHECK(cudaGraphLaunch(exec, s1));
  CUDA_CHECK(cudaStreamSynchronize(s1));
  EXPECT(all_equal(z_h, x_h, 1.0f, 7.0f, 1.0f) && count.calls == 3);
  // One more node: the update is refused and the executable graph is unchanged.
  cudaGraph_t bigger = capture(s1, s2, x_h, x_d, y_d, z_d, z_h, 9.0f, &count, true);
  EXPECT(cudaGraphExecUpdate(exec, bigger, &info) == cudaErrorGraphExecUpdateFailure);
  EXPECT(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  EXPECT(cudaGetLastError() == cudaErrorGraphExecUpdateFailure);
  for (cudaGraph_t g : {graph, same, bigger}) CUDA_CHECK(cudaGraphDestroy(g));
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
  return 3 * 2;
}

// A while conditional node whose condition starts at 1 (cudaGraphCondAssignDefault) and whose body
// kernel clears it when its counter reaches 0: the body runs `rounds` times per launch.
int conditional_graph(int* counter_d, int rounds) {
  cudaGraph_t graph;
  CUDA_CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
  cp.conditional.handle = handle;
  cp.conditional.type = cudaGraphCondTypeWhile;
  cp.conditional.size = 1;
  cudaGraphNode_t loop, body;
  CUDA_CHECK(cudaGraphAddNode(&loop, graph, nullptr, nullptr, 0, &cp));
  void* args[] = {&counter_d, &handle};
  cudaGraphNodeParams kp = {cudaGraphNodeTypeKernel};
  kp.kernel.func = (void*)count_down;
  kp.kernel.gridDim = dim3(1);
  kp.kernel.blockDim = dim3(1);
  kp.kernel.kernelParams = args;
  CUDA_CHECK(cudaGraphAddNode(&body, cp.conditional.phGraph_out[0], nullptr, nullptr, 0, &kp));
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_CHECK(cudaMemcpy(counter_d, &rounds, sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaGraphLaunch(exec, 0));
  int left = -1;
  CUDA_CHECK(cudaMemcpy(&left, counter_d, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(left == 0);
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  return rounds;
}

// Synchronising a capturing stream is refused and invalidates the capture; a fork not joined back
// cannot end; the legacy stream cannot be used while a blocking stream captures; no capture's work
// runs.
void capture_errors(float* y_d, float* y_h) {
  cudaStream_t s1, s2;
  CUDA_CHECK(cudaStreamCreate(&s1));
  CUDA_CHECK(cudaStreamCreate(&s2));
  CUDA_CHECK(cudaMemset(y_d, 0, kN * sizeof(float)));
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaMemsetAsync(y_d, 1, kN * sizeof(float), s1));
  EXPECT(cudaStreamSynchronize(s1) == cudaErrorStreamCaptureUnsupported);
  cudaStreamCaptureStatus status;
  CUDA_CHECK(cudaStreamIsCapturing(s1, &status));
  EXPECT(status == cudaStreamCaptureStatusInvalidated);
  EXPECT(cudaMemsetAsync(y_d, 2, kN * sizeof(float), s1) == cudaErrorStreamCaptureInvalidated);
  cudaGraph_t graph = nullptr;
  EXPECT(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureInvalidated && graph == nullptr);

  cudaEvent_t fork;
  CUDA_CHECK(cudaEventCreate(&fork));
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  CUDA_CHECK(cudaEventRecord(fork, s1));
  CUDA_CHECK(cudaStreamWaitEvent(s2, fork, 0));
  CUDA_CHECK(cudaMemsetAsync(y_d, 3, kN * sizeof(float), s2));
  EXPECT(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureUnjoined && graph == nullptr);
  CUDA_CHECK(cudaStreamIsCapturing(s2, &status));
  EXPECT(status == cudaStreamCaptureStatusNone);
  cudaGetLastError();
  CUDA_CHECK(cudaMemcpy(y_h, y_d, kN * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) EXPECT(y_h[i] == 0.0f);
  CUDA_CHECK(cudaEventDestroy(fork));

  // Work on the legacy stream would wait for a capturing blocking stream: refused, and the
  // capture is invalidated.
  CUDA_CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  EXPECT(cudaMemsetAsync(y_d, 4, kN * sizeof(float), 0) == cudaErrorStreamCaptureImplicit);
  EXPECT(cudaStreamEndCapture(s1, &graph) == cudaErrorStreamCaptureInvalidated && graph == nullptr);
  cudaGetLastError();
  CUDA_CHECK(cudaMemcpy(y_h, y_d, kN * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kN; ++i) EXPECT(y_h[i] == 0.0f);
  CUDA_CHECK(cudaStreamDestroy(s1));
  CUDA_CHECK(cudaStreamDestroy(s2));
}

int main() {
  float *a_h, *out_h, *a_d, *b_d, *out_d;
  CUDA_CHECK(cudaMallocHost(&a_h, kN * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&out_h, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&a_d, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&b_d, kN * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&out_d, kN * sizeof(float)));
  for (int i = 0; i < kN; ++i) a_h[i] = static_cast<float>(i % 17);
  int launches = explicit_graph(a_h, out_h, a_d, b_d, out_d);
  launches += captured_graph(a_h, out_h, a_d, b_d, out_d);
  launches += conditional_graph(reinterpret_cast<int*>(out_d), 5);
  capture_errors(b_d, out_h);
  std::printf("graphs: PASSED (%d kernel launches from graphs)\n", launches);
  return 0;
}
