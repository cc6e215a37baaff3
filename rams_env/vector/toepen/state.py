"""B Toepen deals as one numpy record per deal, the fields of the reference's ToepenState.

Hands and other card places are ``uint64`` sets of pack indices, seats are ``int8`` (-1 for
the reference's None), the reference's three seat lists are rows of ``queues``. ``order`` is
the deal's pack permutation: hands are dealt from its front and the stock is
``order[stock_at:]``, top first. Per-seat fields have room for the largest table the rules
allow, so one compiled kernel serves every table size (seats >= n stay zero).

Why records and not one array per field: numba passes a tuple of ~50 arrays to every small
function with reference counting per array, which measured 20 us per decision; a record is
a pointer. numpy still gives a field for all deals at once: ``env.deals["lives_lost"]``.
"""

from __future__ import annotations

import numpy as np

from rams_env.vector.bits import deal_records

PER_DEAL = {
    "rng": np.uint64, "phase": np.int8, "to_act": np.int8, "dealer": np.int8, "leader": np.int8,
    "claimant": np.int8, "last_knocker": np.int8, "resume": np.int8, "stake": np.int16,
    "tricks_played": np.int8, "trick_len": np.int8, "stock_at": np.int8, "revealed": np.uint64,
    "claim": np.uint64, "deals_played": np.int32,
    # what the last step did: a deal was settled (winner, stake, reason)
    "settled": np.bool_, "winner": np.int8, "result_stake": np.int16, "reason": np.int8,
    # a deal queued by the user for the slot's next start (dealer -1: drawn)
    "pending": np.bool_, "pending_dealer": np.int8,
}
PER_SEAT = {
    "hands": np.uint64, "face_down": np.uint64, "played": np.uint64, "folded": np.int8, "out": np.int8,
    "lives_lost": np.int16, "knocked_by": np.int8, "redraws": np.int8, "tricks_won": np.int8,
    "signals": np.int8, "trick_seat": np.int8, "trick_card": np.int8, "reward": np.float32,
    "pending_lives": np.int16,  # -1 in seat 0: not given
}
PER_CARD = {"order": np.int8, "pending_order": np.int8}
QUEUES = 3
"""The reference's ``queue``, ``challengers`` and ``responders`` (rams_env.vector.bits.MAIN...)."""

REASON_LAST_TRICK, REASON_ALL_FOLDED = 0, 1
"""``deals["reason"]`` of a settled deal (the reference's breakdown ``reason``)."""


def allocate(num_envs: int, max_seats: int, cards: int) -> np.ndarray:
    """Zeroed records for ``num_envs`` deals."""
    return deal_records(num_envs, (PER_DEAL, PER_SEAT, PER_CARD), QUEUES, max_seats, cards)
