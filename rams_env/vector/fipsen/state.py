"""B Fipsen deals as one numpy record per deal, the fields of the reference's FipsenState.

As in ``toepen/state.py``: card places are ``uint64`` sets of pack indices (``skat`` and
``aside`` too: the reference's lists are only ever taken whole), seats and ladder levels are
``int8`` with -1 for the reference's None, per-seat fields have room for the largest table.
``order`` is the deal's pack permutation (hands from its front, then the skat, then the
talon). The last settlement of a deal is kept for checks: reason, declarer, points, contract.
"""

from __future__ import annotations

import numpy as np

PER_DEAL = {
    "rng": np.uint64, "phase": np.int8, "to_act": np.int8, "dealer": np.int8, "leader": np.int8,
    "trump": np.int8, "declarer": np.int8, "contract": np.int8, "highest": np.int8, "highest_bidder": np.int8,
    "to_discard": np.int8, "playing_on": np.bool_, "redeals": np.int16, "tricks_played": np.int8,
    "trick_len": np.int8, "skat": np.uint64, "aside": np.uint64, "deals_played": np.int32,
    # Prisdorf's holding auction: the bidding pair, and how many players have entered (the reference's queue)
    "holder": np.int8, "challenger": np.int8, "holder_to_answer": np.bool_, "entered": np.int8,
    # Thedinghausen: the turned trump card, who called fipsen, the race's state and the hedewig pot
    "turned": np.int8, "fipsen": np.int8, "race_won": np.bool_, "pot": np.int32,
    # what the last step did: a deal was settled (reason, declarer, points, contract; -1: none)
    "settled": np.bool_, "reason": np.int8, "result_declarer": np.int8, "result_points": np.int32,
    "result_contract": np.int8,
    # a deal queued by the user for the slot's next deal (dealer -1: drawn); Thedinghausen: the hedewig pot that
    # episode starts with (-1: drawn with random carry, else empty)
    "pending": np.bool_, "pending_dealer": np.int8, "pending_pot": np.int32,
}
PER_SEAT = {
    "hands": np.uint64, "face_down": np.uint64, "played": np.uint64, "passed": np.int8, "tricks_won": np.int8,
    "sheet": np.int32, "sheet_start": np.int32, "trick_seat": np.int8, "trick_card": np.int8,
    "reward": np.float32, "race": np.int16, "bankrolls": np.int32, "session_start": np.int32,
    "pending_lives": np.int16,  # written by BatchEnv.queue_deals (Toepen's lives); Fipsen carries none
    "pending_race": np.int16,  # Thedinghausen: the tricks toward the prize an episode starts with (-1: not queued)
}
PER_CARD = {"order": np.int8, "pending_order": np.int8}

REASONS = ("played", "failed", "stopped", "kieker_conceded", "all_passed", "siebener_fips")
"""``deals["reason"]`` of a settled deal indexes this tuple (the reference's breakdown ``reason``)."""
PLAYED, FAILED, STOPPED, KIEKER_CONCEDED, ALL_PASSED, SIEBENER_FIPS = range(len(REASONS))


def deal_dtype(max_seats: int, cards: int) -> np.dtype:
    return np.dtype([
        *((name, dtype) for name, dtype in PER_DEAL.items()),
        *((name, dtype, (max_seats,)) for name, dtype in PER_SEAT.items()),
        *((name, dtype, (cards,)) for name, dtype in PER_CARD.items()),
    ])


def allocate(num_envs: int, max_seats: int, cards: int) -> np.ndarray:
    """Zeroed records for ``num_envs`` deals."""
    return np.zeros(num_envs, deal_dtype(max_seats, cards))
