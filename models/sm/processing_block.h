// The stages of one processing block (sub-core) of a SIMT core: decode, register read (its own
// register file of `register_banks` banks) and execute (its own functional units), linked in that
// order. With one block (CoreSpec::processing_blocks = 1) they are the core's own stages
// (core0.decode); with more, each block's are children of a ProcessingBlock module named
// core0.block<b> (core0.block1.execute). The fetch stage feeds each block through its own link
// and the SM's one memory stage takes from each block's execute stage (NVIDIA Tesla V100
// whitepaper, "Volta SM": each of the four processing blocks has its own scheduler, dispatch
// unit, register file and lanes; the L1 and shared memory are the SM's).
#pragma once

#include <systemc>

#include "models/sm/decode/decode_stage.h"
#include "models/sm/execute/execute_stage.h"
#include "models/sm/read/read_stage.h"

namespace gputlm::sm {

// Made in the scope of the module being built (the core's, or a ProcessingBlock's).
struct BlockStages {
  explicit BlockStages(CoreContext& core)
      : decode("decode", core), read("read", core), execute("execute", core) {
    decode.out->socket.bind(read.in->socket);
    read.out->socket.bind(execute.in->socket);
  }
  DecodeStage decode;
  ReadStage read;
  ExecuteStage execute;
};

class ProcessingBlock : public sc_core::sc_module {
 public:
  ProcessingBlock(sc_core::sc_module_name name, CoreContext& core)
      : sc_module(name), stages(core) {}
  BlockStages stages;
};

}  // namespace gputlm::sm
