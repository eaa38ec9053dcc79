// Mb5, uncoalesced: 2 loads and 20 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb5_uc") { gputlm::hongkim::mb_reference(ctx, 2, 20, true); }
