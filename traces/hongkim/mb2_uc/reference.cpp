// Mb2, uncoalesced: 1 load and 8 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb2_uc") { gputlm::hongkim::mb_reference(ctx, 1, 8, true); }
