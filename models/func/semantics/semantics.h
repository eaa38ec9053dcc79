// Instruction semantics of the functional engine. At kernel load each instruction is bound once
// to a function (ExecFn) specialised for its opcode, type and modifiers; executing is then one
// indirect call per warp instruction and a loop over the active lanes. A combination the engine
// does not implement is reported at bind time with the instruction's location.
#pragma once

#include "models/func/exec_context.h"

namespace gputlm::func {

struct TextureObject;

// The semantic function of `in`, or nullptr if this opcode/type/modifier combination is not
// implemented.
ExecFn bind_instruction(const isa::Instruction& in);

namespace sem {
ExecFn bind_int(const isa::Instruction& in);      // add sub mul mad div rem abs neg min max ...
ExecFn bind_bits(const isa::Instruction& in);     // and or xor not shl shr popc clz brev bfe ...
ExecFn bind_compare(const isa::Instruction& in);  // setp set selp slct
ExecFn bind_move(const isa::Instruction& in);     // mov cvta
ExecFn bind_float(const isa::Instruction& in);    // float arithmetic and special functions
ExecFn bind_convert(const isa::Instruction& in);  // cvt
ExecFn bind_memory(const isa::Instruction& in);   // ld st atom red prefetch
ExecFn bind_warp(const isa::Instruction& in);     // vote shfl activemask
ExecFn bind_control(const isa::Instruction& in);  // bra ret exit bar membar fence trap
ExecFn bind_call(const isa::Instruction& in);     // call, ret from a device function
ExecFn bind_service_call(
    const isa::Instruction& in);  // call of a device service: vprintf __assertfail malloc free
ExecFn bind_carry(const isa::Instruction& in);  // add.cc addc sub.cc subc mad.cc madc
ExecFn bind_int_packed(
    const isa::Instruction& in);  // dp4a dp2a, add/min/max .u16x2/.s16x2, min/max.relu
ExecFn bind_tensor(
    const isa::Instruction& in);  // mma.sync, wmma (tensor_ops.cpp), and via bind_matrix_memory:
ExecFn bind_matrix_memory(
    const isa::Instruction& in);  // wmma.load/store ldmatrix stmatrix movmatrix
ExecFn bind_sparse_mma(
    const isa::Instruction& in);  // mma.sp, mma.sp::ordered_metadata (sparse_mma_ops.cpp)
ExecFn bind_async_copy(
    const isa::Instruction&
        in);  // cp.async{.ca,.cg,.commit_group,.wait_group,.wait_all,.mbarrier.arrive}
ExecFn bind_mbarrier(const isa::Instruction& in);  // mbarrier.* and cp.async.mbarrier.arrive
ExecFn bind_bulk_copy(
    const isa::Instruction& in);  // cp.async.bulk{,.commit_group,.wait_group,.prefetch.L2}
ExecFn bind_tensor_copy(
    const isa::Instruction& in);  // cp.async.bulk{.prefetch}.tensor (tensor_copy_ops.cpp)
// The complete-tx of `bytes` on one lane's mbarrier object at address operand `a` (shared
// memory): what a cp.async.bulk with .mbarrier::complete_tx::bytes does when its data has landed.
// With `now` false the object is checked and the transaction recorded in the result
// (ExecResult::tx_mbar) for the timing model to complete later.
void mbarrier_complete_tx(ExecCtx& c, unsigned lane, uint32_t tid, const isa::Operand& a,
                          uint32_t bytes, bool now = true);
ExecFn bind_cluster(const isa::Instruction& in);  // barrier.cluster.arrive/.wait mapa getctarank
ExecFn bind_remote_async(const isa::Instruction& in);  // st.async red.async (cluster_ops.cpp)
// The active lanes exit: the cluster barrier counts them as arrived from now on.
void cluster_exit(ExecCtx& c);
ExecFn bind_stack(const isa::Instruction& in);  // alloca stacksave stackrestore (stack_ops.cpp)
ExecFn bind_video(const isa::Instruction& in);  // vadd ... vset4 (video_ops.cpp)
ExecFn bind_video_simd(const isa::Instruction& in);  // vadd2 ... vset4 (video_simd_ops.cpp)
ExecFn bind_texture(const isa::Instruction& in);     // tex tld4 txq, and via bind_surface:
ExecFn bind_surface(const isa::Instruction& in);     // suld.b sust.b
// The live texture (or surface) object the lane's handle operand names; a kernel fault otherwise.
const TextureObject& texture_object(ExecCtx& c, uint32_t tid, bool surface);
}  // namespace sem

}  // namespace gputlm::func
