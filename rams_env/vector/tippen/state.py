"""B Tippen deals as one numpy record per deal, the fields of the reference's TippenState.

As in Toepen (``rams_env/vector/toepen/state.py``, which says why records): card places are
``uint64`` sets of pack indices, seats ``int8`` (-1 for the reference's None). ``order`` is
the deal's pack permutation: hands are dealt from its front seat by seat, then the turned
trump card, then the talon ``order[talon_at:]``, top first. The ledger is kept as each
seat's ``net`` chips since the episode began (the reference's ``scores``) and the ``pot``;
bankrolls never reach an observation except through ``net``. Per-seat fields have room
for the largest table the rules allow (10 with the 52-card pack).
"""

from __future__ import annotations

import numpy as np

PER_DEAL = {
    "rng": np.uint64, "phase": np.int8, "to_act": np.int8, "dealer": np.int8, "leader": np.int8,
    "trump": np.int8, "trump_card": np.int8, "upcard_taken_by": np.int8, "privileged": np.int8,
    "first_trick_winner": np.int8, "shoves": np.int8,
    "talon_at": np.int8, "discarded": np.int8, "forced": np.bool_, "tricks_played": np.int8, "trick_len": np.int8,
    "pot": np.int32, "pot_at_play": np.int32, "set_aside": np.int32, "deals_played": np.int32,
    # what the last step did: a deal was settled (the reference's breakdown reason; shares and
    # bêtes per seat below)
    "settled": np.bool_, "reason": np.int8, "settled_pot": np.int32, "settled_set_aside": np.int32,
    # a deal queued by the user for the slot's next start (dealer -1: drawn; pot -1: not given; hops -1: cut)
    "pending": np.bool_, "pending_dealer": np.int8, "pending_pot": np.int32, "pending_hops": np.int8,
}
"""``discarded`` is the reference's ``pending``: cards discarded so far by the player exchanging now."""
PER_SEAT = {
    "hands": np.uint64, "face_down": np.uint64, "played": np.uint64, "bids": np.int8, "exchanged": np.int8,
    "tricks_won": np.int8, "active": np.int8, "net": np.int32, "trick_seat": np.int8, "trick_card": np.int8,
    "reward": np.float32, "share": np.int32, "bete": np.int32, "queue": np.int8,
}
PER_CARD = {"order": np.int8, "pending_order": np.int8}
PER_DEAL.update({"queue_head": np.int8, "queue_len": np.int8})

NOT_GIVEN = -1
"""A queued dealer, pot or number of hops of -1 is drawn (or empty) as for any new episode."""

BID_NONE, BID_PASS, BID_PLAY, BID_FORCED, BID_PRIVILEGED = 0, 1, 2, 3, 4
"""The reference's ``Bid`` values; spec.py checks them against ``rams_env.games.tippen.state.Bid``."""

REASONS = ("played", "lone_player", "all_passed")
"""``deals["reason"]`` of a settled deal indexes this (the reference's breakdown ``reason``)."""
REASON_PLAYED, REASON_LONE, REASON_ALL_PASSED = range(len(REASONS))


def deal_dtype(max_seats: int, cards: int) -> np.dtype:
    return np.dtype([
        *((name, dtype) for name, dtype in PER_DEAL.items()),
        *((name, dtype, (max_seats,)) for name, dtype in PER_SEAT.items()),
        *((name, dtype, (cards,)) for name, dtype in PER_CARD.items()),
    ])


def allocate(num_envs: int, max_seats: int, cards: int) -> np.ndarray:
    """Zeroed records for ``num_envs`` deals (nothing queued)."""
    deals = np.zeros(num_envs, deal_dtype(max_seats, cards))
    deals["pending_hops"] = NOT_GIVEN
    return deals
