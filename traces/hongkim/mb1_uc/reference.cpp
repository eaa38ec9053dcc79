// Mb1, uncoalesced: 0 loads and 20 fused multiply-adds per trip (mb_reference.h).
#include "../mb_reference.h"

GPUTLM_REFERENCE("hongkim/mb1_uc") { gputlm::hongkim::mb_reference(ctx, 0, 20, true); }
