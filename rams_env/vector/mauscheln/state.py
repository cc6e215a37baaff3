"""B Mauscheln deals as one numpy record per deal, the fields of the reference's MauschelnState.

Card places are ``uint64`` sets of pack indices, seats ``int8`` (-1 for the reference's None).
``order`` is the deal's pack permutation: hands are dealt from its front seat by seat, the
turned trump is ``order[4 n]`` and the talon ``order[talon_at:]``, top first. The pot-game
ledger and the trick fields come from :mod:`rams_env.vector.potgame`; per-seat fields have room
for the largest table the rules allow, so one compiled kernel serves every table size.
"""

from __future__ import annotations

import numpy as np

from rams_env.vector import potgame
from rams_env.vector.records import deal_records

PER_DEAL = {
    "rng": np.uint64, "phase": np.int8, "dealer": np.int8, "sneaker": np.int8, "knocked": np.int8,
    "turn_up_taken": np.int8, "discarded": np.int8, "trump": np.int8, "turned": np.int8, "talon_at": np.int8,
    "belli_lost_by": np.int8, "deals_played": np.int32,
    # what the last step did: a deal was settled (reason, the pot after it)
    "settled": np.bool_, "reason": np.int8, "result_pot": np.int64,
    # a deal queued by the user for the slot's next start (dealer -1: drawn)
    "pending": np.bool_, "pending_dealer": np.int8,
    **potgame.PER_DEAL, **potgame.TRICK_PER_DEAL,
}
"""``discarded`` is the reference's ``pending``: cards discarded so far by the player exchanging now."""
PER_SEAT = {"face_down": np.uint64, "bids": np.int8, "quartets": np.int8, "exchanged": np.int8,
            **potgame.PER_SEAT, **potgame.TRICK_PER_SEAT}
PER_CARD = {"order": np.int8, "pending_order": np.int8}
QUEUES = 1
"""The reference's one ``queue`` of seats still to decide (rams_env.vector.bits.MAIN)."""

REASONS = ("played", "thrown_in", "all_passed")
"""``deals["reason"]`` of a settled deal indexes these (the reference's breakdown ``reason``)."""
PLAYED, THROWN_IN, ALL_PASSED = range(len(REASONS))


def allocate(num_envs: int, max_seats: int, cards: int) -> np.ndarray:
    """Zeroed records for ``num_envs`` deals."""
    return deal_records(num_envs, PER_DEAL, PER_SEAT, PER_CARD, QUEUES, max_seats, cards)
