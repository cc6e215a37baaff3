"""B Lupfen deals as one numpy record per deal, the fields of the reference's LupfenState.

As for Toepen (``rams_env/vector/toepen/state.py``): hands and card places are ``uint64`` sets
of pack indices, seats are ``int8`` (-1 for the reference's None), the reference's ``queue`` is
row 0 of ``queues``, ``order`` is the deal's pack permutation (hands dealt from its front seat
by seat, the stock ``order[stock_at:]`` top first, its top card turned for trump). Per-seat
fields have room for six players, so one compiled kernel serves every table size.

Chips: the reference keeps bankrolls and the bankrolls at the session's start; the batched
record keeps their difference, ``net`` (the reference's ``scores``), and ``paid``, the part of
it already reported as rewards (the AEC env's bookkeeping: an ante paid while dealing reaches
its payer with her first reward).
"""

from __future__ import annotations

import numpy as np

from rams_env.vector.records import deal_records

PER_DEAL = {
    "rng": np.uint64, "phase": np.int8, "force": np.int8, "to_act": np.int8, "dealer": np.int8,
    "leader": np.int8, "lifter": np.int8, "blind": np.int8, "trump": np.int8, "turned": np.int8,
    "shoves": np.int8, "redeals": np.int32, "tricks_played": np.int8, "trick_len": np.int8,
    "stock_at": np.int8, "pot": np.int64, "pot_at_play": np.int64, "shared_out": np.bool_,
    "deals_played": np.int32,
    # what the last step did: a deal was settled (reason, the three Unters' holder or -1, the pot left)
    "settled": np.bool_, "reason": np.int8, "three_unters": np.int8, "result_pot": np.int64,
    # queued by the user: the slot's next deal uses ``pending_order`` (``pending``); its next
    # episode starts with ``pending_dealer`` (-1: drawn) and ``pending_pot`` (-1: drawn or none)
    "pending": np.bool_, "pending_start": np.bool_, "pending_dealer": np.int8, "pending_pot": np.int64,
}
PER_SEAT = {
    "hands": np.uint64, "played": np.uint64, "bids": np.int8, "looked": np.int8, "staender": np.int8,
    "tricks_won": np.int8, "active": np.int8, "trick_seat": np.int8, "trick_card": np.int8, "net": np.int64,
    "paid": np.int64, "paid_in": np.int64, "reward": np.float32,
    "deal_start": np.int64, "result": np.int64,  # net when the deal began; its change over the settled deal
}
PER_CARD = {"order": np.int8, "pending_order": np.int8}
QUEUES = 1
"""The reference's one ``queue`` of seats still to decide (lift, join, scrap): rams_env.vector.bits.MAIN."""

REASONS = ("played", "nobody_lifted", "lifter_alone", "three_unters")
"""``deals["reason"]`` of a settled deal indexes this tuple (the reference's breakdown ``reason``)."""
PLAYED, NOBODY_LIFTED, LIFTER_ALONE, THREE_UNTERS = range(len(REASONS))


def allocate(num_envs: int, max_seats: int, cards: int) -> np.ndarray:
    """Zeroed records for ``num_envs`` deals."""
    return deal_records(num_envs, PER_DEAL, PER_SEAT, PER_CARD, QUEUES, max_seats, cards)
