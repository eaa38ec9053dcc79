// Mb5, coalesced: 2 loads and 20 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb5_c") { gputlm::hongkim::mb_reference(ctx, 2, 20, false); }
