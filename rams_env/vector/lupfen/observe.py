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
from rams_env.vector.lupfen.flow import scrap_hand
from rams_env.vector.observation import put_marker, put_scaled, write_core
from rams_env.vector.trickplay import NO_SEAT, current_leader


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    write_core(r, k, seat, row, current_leader(r) if r.phase == k.ph_play else NO_SEAT)
    n = k.n
    if r.looked[seat]:
        put_cards(row, k.o_hand, r.hands[seat])
    if r.turned >= 0:
        row[k.o_turned + r.turned] = 1.0
        row[k.o_trump + r.trump] = 1.0
    put_marker(row, k.o_lifter, r.lifter, seat, n)
    for s in range(n):
        rel = (s - seat + n) % n
        row[k.o_passed + rel] = r.bids[s] == k.bid_pass
        row[k.o_playing + rel] = r.active[s]
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.tricks_scale
        row[k.o_staender + rel] = r.staender[s]
        row[k.o_looked + rel] = r.looked[s]
        put_scaled(row, k.o_net + rel, r.net[s], k.net_scale, k.net_offset)
    row[k.o_force] = r.force
    row[k.o_blind] = r.blind
    row[k.o_pot] = min(np.float64(r.pot) / k.pot_scale, 1.0)
    row[k.o_pot_at_play] = min(np.float64(r.pot_at_play) / k.pot_scale, 1.0)


@njit(cache=True)
def legal_choices(r, k, t, seat, row):
    """``Lupfen.legal_actions`` but the cards (``trickplay.trick_cards``): lift, join, scrap, declare, shove."""
    phase = r.phase
    if phase == k.ph_lift:
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
    elif phase == k.ph_shove:
        row[k.a_deal] = 1
        row[k.a_shove] = r.shoves < k.n - 1


