// Mb4, uncoalesced: 2 loads and 12 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb4_uc") { gputlm::hongkim::mb_reference(ctx, 2, 12, true); }
