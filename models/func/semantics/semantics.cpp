#include "models/func/semantics/semantics.h"

namespace gputlm::func {

ExecFn bind_instruction(const isa::Instruction& in) {
  using isa::Opcode;
  const bool is_float = isa::dtype_is_float(in.type);
  switch (in.op) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Mad: case Opcode::Div:
    case Opcode::Abs: case Opcode::Neg: case Opcode::Min: case Opcode::Max:
      return is_float ? sem::bind_float(in) : sem::bind_int(in);
    case Opcode::Addc: case Opcode::Subc: case Opcode::Madc: case Opcode::Mul24: case Opcode::Mad24:
    case Opcode::Sad: case Opcode::Rem: case Opcode::Dp4a: case Opcode::Dp2a:
      return sem::bind_int(in);
    case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Not: case Opcode::Cnot:
    case Opcode::Lop3: case Opcode::Shf: case Opcode::Shl: case Opcode::Shr: case Opcode::Prmt:
    case Opcode::Popc: case Opcode::Clz: case Opcode::Bfind: case Opcode::Brev: case Opcode::Bfe:
    case Opcode::Bfi: case Opcode::Bmsk: case Opcode::Szext: case Opcode::Fns:
      return sem::bind_bits(in);
    case Opcode::Copysign: case Opcode::Testp: case Opcode::Fma: case Opcode::Rcp: case Opcode::Sqrt:
    case Opcode::Rsqrt: case Opcode::Sin: case Opcode::Cos: case Opcode::Lg2: case Opcode::Ex2:
    case Opcode::Tanh:
      return sem::bind_float(in);
    case Opcode::Setp: case Opcode::Set: case Opcode::Selp: case Opcode::Slct:
      return sem::bind_compare(in);
    case Opcode::Mov: case Opcode::Cvta: case Opcode::Isspacep: case Opcode::Createpolicy:
      return sem::bind_move(in);
    case Opcode::Cvt:
      return sem::bind_convert(in);
    case Opcode::Ld: case Opcode::Ldu: case Opcode::St: case Opcode::Prefetch: case Opcode::Atom:
    case Opcode::Red: case Opcode::CondAcc: case Opcode::Prefetchu: case Opcode::Applypriority:
    case Opcode::Discard:
      return sem::bind_memory(in);
    case Opcode::Vote: case Opcode::Shfl: case Opcode::Activemask: case Opcode::TreeTraverse:
    case Opcode::Redux: case Opcode::Match: case Opcode::Elect:
      return sem::bind_warp(in);
    case Opcode::Wmma: case Opcode::Mma: case Opcode::Ldmatrix: case Opcode::Stmatrix: case Opcode::Movmatrix:
      return sem::bind_tensor(in);
    case Opcode::CpAsync:
      return sem::bind_async_copy(in);
    case Opcode::CpReduce:
      return sem::bind_bulk_copy(in);
    case Opcode::Mbarrier:
      return sem::bind_mbarrier(in);
    case Opcode::Mapa: case Opcode::Getctarank:
      return sem::bind_cluster(in);
    case Opcode::Vadd: case Opcode::Vsub: case Opcode::Vabsdiff: case Opcode::Vmin: case Opcode::Vmax:
    case Opcode::Vshl: case Opcode::Vshr: case Opcode::Vmad: case Opcode::Vset:
    case Opcode::Vadd2: case Opcode::Vsub2: case Opcode::Vavrg2: case Opcode::Vabsdiff2: case Opcode::Vmin2:
    case Opcode::Vmax2: case Opcode::Vset2: case Opcode::Vadd4: case Opcode::Vsub4: case Opcode::Vavrg4:
    case Opcode::Vabsdiff4: case Opcode::Vmin4: case Opcode::Vmax4: case Opcode::Vset4:
      return sem::bind_video(in);
    case Opcode::Tex: case Opcode::Tld4: case Opcode::Txq: case Opcode::Suld: case Opcode::Sust:
    case Opcode::Suq: case Opcode::Sured: case Opcode::Istypep:
      return sem::bind_texture(in);
    case Opcode::Call:
      return sem::bind_call(in);
    case Opcode::Alloca: case Opcode::Stacksave: case Opcode::Stackrestore:
      return sem::bind_stack(in);
    case Opcode::Ret:
      return in.is_return() ? sem::bind_call(in) : sem::bind_control(in);
    default:
      return sem::bind_control(in);
  }
}

}  // namespace gputlm::func
