"""What a Lupfen seat may know, written straight into the batch's observation and mask rows.

Mirrors ``rams_env/games/lupfen/observe.py`` and the observation core field by field (offsets
and scales from the reference layout, in the rule data record ``k``), so the vectors are
bit-identical: values are computed in float64 and rounded to float32 once, as the reference's
seat block does. Nothing hidden is read: other hands, the stock below the turned card and a
hand not yet looked at never reach a row (tested by re-dealing unseen cards in the batch).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rams_env.vector.bits import count, put_cards
from rams_env.vector.lupfen.flow import active, scrap_hand
from rams_env.vector.lupfen.play import legal_cards


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    row[:] = 0.0
    n, cards = k.n, k.cards
    if r.looked[seat]:
        put_cards(row, k.o_hand, r.hands[seat])
    if r.turned >= 0:
        row[k.o_turned + r.turned] = 1.0
        row[k.o_trump + r.trump] = 1.0
    for i in range(r.trick_len):
        rel = (r.trick_seat[i] - seat + n) % n
        row[k.o_trick + rel * cards + r.trick_card[i]] = 1.0
    playing = r.phase == k.ph_play
    leader = r.trick_seat[0] if r.trick_len else r.leader
    for s in range(n):
        rel = (s - seat + n) % n
        put_cards(row, k.o_played + rel * cards, r.played[s])
        row[k.o_leader + rel] = playing and s == leader
        row[k.o_to_act + rel] = s == r.to_act
        row[k.o_dealer + rel] = s == r.dealer
        row[k.o_lifter + rel] = s == r.lifter
        row[k.o_passed + rel] = r.bids[s] == k.bid_pass
        row[k.o_playing + rel] = active(r, k, s)
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.tricks_scale
        row[k.o_staender + rel] = r.staender[s]
        row[k.o_looked + rel] = r.looked[s]
        row[k.o_net + rel] = min(max(r.net[s] / k.net_scale + k.net_offset, 0.0), 1.0)
    row[k.o_seat + seat] = 1.0
    row[k.o_phase + r.phase] = 1.0
    row[k.o_force] = r.force
    row[k.o_blind] = r.blind
    row[k.o_pot] = min(np.float64(r.pot) / k.pot_scale, 1.0)
    row[k.o_pot_at_play] = min(np.float64(r.pot_at_play) / k.pot_scale, 1.0)
    row[k.o_trick_number + min(r.tricks_played, k.tricks - 1)] = 1.0


@njit(cache=True)
def legal_mask(r, k, row):
    """Zero ``row`` and mark the legal actions of the seat to act in the deal ``r`` (``Lupfen.legal_actions``)."""
    row[:] = 0
    seat, phase = r.to_act, r.phase
    if phase == k.ph_play:
        put_cards(row, k.a_play, legal_cards(r, k, seat))
    elif phase == k.ph_lift:
        if not r.looked[seat]:
            row[k.a_blind] = row[k.a_look] = 1
        else:
            row[k.a_lift] = 1
            row[k.a_pass] = not (k.compulsory_lift and count(r.hands[seat] & k.ace_mask) >= 2)
    elif phase == k.ph_join:
        row[k.a_mit] = 1
        row[k.a_pass] = not (k.compulsory_hearts and r.trump == k.hearts)
    elif phase == k.ph_scrap:
        row[k.a_keep] = 1
        row[k.a_scrap] = scrap_hand(r, k, seat)
    elif phase == k.ph_declare:
        row[k.a_declare] = 1
    else:
        row[k.a_deal] = 1
        row[k.a_shove] = r.shoves < k.n - 1


