// Texture and surface objects as both APIs make them (api_texture.cpp: cudaCreateTextureObject,
// ...; driver_api_texture.cpp: cuTexObjectCreate, ... after converting the driver's descriptors,
// driver_array_abi.h): an entry of the runtime's func::TextureTable and the descriptors it was made
// from.
#pragma once

#include <cstdint>

#include "runtime/cuda_abi.h"
#include "runtime/cuda_arrays.h"
#include "runtime/texture_abi.h"

namespace gputlm::runtime {

// The object's handle in `handle`. kErrorInvalidValue for a bad descriptor,
// kErrorInvalidResourceHandle for an array that is not live; a surface takes no texture descriptor.
CudaError create_texture_object(uint64_t* handle, const ResourceDesc* res, const TextureDesc* tex,
                                bool surface);
// kErrorInvalidValue when `handle` (not 0) is no live object of the kind.
CudaError destroy_texture_object(uint64_t handle, bool surface);
// The descriptors of a live object of the kind; nullptr when there is none.
const ObjectDescs* texture_object_descs(uint64_t handle, bool surface);

}  // namespace gputlm::runtime
