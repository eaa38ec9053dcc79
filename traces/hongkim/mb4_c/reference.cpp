// Mb4, coalesced: 2 loads and 12 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb4_c") { gputlm::hongkim::mb_reference(ctx, 2, 12, false); }
