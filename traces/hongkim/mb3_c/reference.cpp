// Mb3, coalesced: 1 load and 20 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb3_c") { gputlm::hongkim::mb_reference(ctx, 1, 20, false); }
