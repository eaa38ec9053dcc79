// Mb7, coalesced: 6 loads and 20 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb7_c") { gputlm::hongkim::mb_reference(ctx, 6, 20, false); }
