"""What a seat may know, written straight into the batch's observation and mask rows.

Mirrors ``rams_env/games/fipsen/observe.py`` field by field (offsets from the reference layout,
in the rule record ``k``), values computed in float64 and rounded to float32 once, as the
reference's array assignment does.
Nothing hidden is read: other hands, their discards, the skat and the talon never reach a row.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import put_cards
from rams_env.vector.fipsen.flow import NONE, eligible, score
from rams_env.vector.observation import put_marker, put_scaled, write_core
from rams_env.vector.trickplay import current_leader

NET_OFFSET = 0.5
"""Sheet points are written as 0.5 + points / net_scale (the reference layout's offset)."""


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    write_core(r, k, seat, row, current_leader(r) if r.phase == k.ph_play else NONE)  # shown during card play
    n = k.n
    put_cards(row, k.o_hand, r.hands[seat])
    if r.turned != NONE:
        row[k.o_turned + r.turned] = 1.0
    if r.trump != NONE:
        row[k.o_trump + r.trump] = 1.0
    put_cards(row, k.o_own_discards, r.face_down[seat])
    put_marker(row, k.o_declarer, r.declarer if r.declarer != NONE else r.fipsen, seat, n)
    put_marker(row, k.o_highest_bidder, r.highest_bidder, seat, n)
    for s in range(n):
        rel = (s - seat + n) % n
        row[k.o_passed + rel] = r.passed[s]
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.tricks
        row[k.o_race + rel] = min(r.race[s] / k.race_to, 1.0)
        put_scaled(row, k.o_net + rel, score(r, k, s), k.net_scale, NET_OFFSET)
    row[k.o_highest_bid + r.highest + 1] = 1.0  # slot 0: no bid (-1)
    row[k.o_contract + r.contract + 1] = 1.0
    row[k.o_holder_to_answer] = r.holder_to_answer
    row[k.o_playing_on] = r.playing_on
    row[k.o_pot] = min(r.pot / k.pot_scale, 1.0)


@njit(cache=True)
def legal_choices(r, k, t, seat, row):
    """Bids, discards, trumps (cards: ``trickplay.trick_cards``; the call, Kieker, playing on: spec.CHOICES)."""
    phase = r.phase
    if phase == k.ph_auction:
        for level in range(r.highest + 1, k.rungs):
            if eligible(r, k, seat, level):
                row[k.a_bid + level] = 1
        if not (k.single_round and r.highest == NONE):  # Duttfips: forehand may not pass
            row[k.a_pass] = 1
        if k.hold_auction and r.holder_to_answer:
            row[k.a_hold] = 1
    elif phase == k.ph_discard:
        put_cards(row, k.a_discard, r.hands[seat])
    elif phase == k.ph_trump:
        for s in k.trump_suits:
            row[k.a_trump + s] = 1

