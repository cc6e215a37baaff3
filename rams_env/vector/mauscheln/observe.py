"""What a Mauscheln seat may know, written straight into the batch's observation and mask rows.

Mirrors ``rams_env/games/mauscheln/observe.py`` field by field (offsets and seat-field scales
from the reference layout, carried in ``k``) so the vectors are bit-identical; values are
computed in float64 and rounded to float32 once, as numpy does when the reference fills its
array. Nothing hidden is read: other hands, the talon and others' bonfire cards never reach a
row, nor the dealer's own hand while she decides to knock blind.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import put_cards
from rams_env.vector.mauscheln.flow import exchange_limit, minimum_discards, talon_size
from rams_env.vector.observation import put_marker, put_scaled, write_core
from rams_env.vector.potgame import write_pot
from rams_env.vector.trickplay import NO_SEAT, current_leader


@njit(cache=True)
def hand_is_hidden(r, k, seat):
    """The knocking dealer decides before looking at the hand ("Knocking")."""
    return r.phase == k.ph_knock and seat == r.dealer


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    write_core(r, k, seat, row, current_leader(r) if r.phase == k.ph_play else NO_SEAT)
    n = k.n
    if not hand_is_hidden(r, k, seat):
        put_cards(row, k.o_hand, r.hands[seat])
    row[k.o_turned + r.turned] = 1.0
    row[k.o_trump + r.trump] = 1.0
    put_cards(row, k.o_own_discards, r.face_down[seat])
    put_marker(row, k.o_sneaker, r.sneaker, seat, n)
    for s in range(n):
        rel = (s - seat + n) % n
        if r.bids[s] == k.bid_pass:
            row[k.o_passed + rel] = 1.0
        elif r.bids[s] == k.bid_join:
            row[k.o_joined + rel] = 1.0
        put_scaled(row, k.o_tricks_won + rel, r.tricks_won[s], k.sc_tricks_won, k.off_tricks_won)
        put_scaled(row, k.o_exchanged + rel, r.exchanged[s], k.sc_exchanged, k.off_exchanged)
        put_scaled(row, k.o_quartets + rel, r.quartets[s], k.sc_quartets, k.off_quartets)
        put_scaled(row, k.o_net + rel, r.scores[s], k.sc_net, k.off_net)
    row[k.o_knocked] = r.knocked
    write_pot(r, row, k.o_pot, k.o_pot_at_play, k.pot_scale)
    row[k.o_talon] = talon_size(r, k) / k.cards
    row[k.o_pending] = r.discarded / k.hand_size if r.phase == k.ph_exchange else 0.0


@njit(cache=True)
def legal_choices(r, k, t, seat, row):
    """The exchange (cards: ``trickplay.trick_cards``; sneaking, joining, the knock: spec.CHOICES)."""
    if r.phase == k.ph_exchange:
        if r.discarded < exchange_limit(r, k, seat):
            put_cards(row, k.a_discard, r.hands[seat])
        if r.discarded >= minimum_discards(r, seat):
            row[k.a_done] = 1

