// Mb6, uncoalesced: 4 loads and 20 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb6_uc") { gputlm::hongkim::mb_reference(ctx, 4, 20, true); }
