"""What a seat may know, written straight into the batch's observation and mask rows.

Mirrors ``rams_env/games/toepen/observe.py`` field by field (offsets from the reference
layout, carried in the rule data record ``k``) so the vectors are bit-identical; values are computed in
float64 and rounded to float32 once, as numpy does when the reference fills its array.
Nothing hidden is read: other hands, the stock and face-down discards of others never
reach a row (tested by re-dealing unseen cards in the batch).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rams_env.vector.bits import put_cards
from rams_env.vector.observation import write_core
from rams_env.vector.toepen.flow import can_knock, in_play, may_announce, poor
from rams_env.vector.trickplay import current_leader


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    write_core(r, k, seat, row, current_leader(r))
    n = k.n
    put_cards(row, k.o_hand, r.hands[seat])
    put_cards(row, k.o_own_discards, r.face_down[seat])
    put_cards(row, k.o_revealed, r.revealed)
    for s in range(n):
        rel = (s - seat + n) % n
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.tricks
        row[k.o_in_play + rel] = in_play(r, s)
        row[k.o_folded + rel] = r.folded[s]
        row[k.o_out + rel] = r.out[s]
        row[k.o_lives_lost + rel] = min(r.lives_lost[s] / k.lives, 1.0)
        row[k.o_poor + rel] = poor(r, k, s)
        row[k.o_knocks + rel] = min(r.knocked_by[s] / k.max_knocks, 1.0)
        row[k.o_last_knocker + rel] = s == r.last_knocker
        row[k.o_redraws + rel] = min(r.redraws[s] / k.max_redraws, 1.0)
        row[k.o_claimant + rel] = s == r.claimant
        row[k.o_whistled + rel] = r.signals[s] == k.sig_whistle
        row[k.o_stood + rel] = r.signals[s] == k.sig_stand
    row[k.o_stake] = min(r.stake / k.lives, 1.0)
    row[k.o_stock] = np.float64(k.cards - r.stock_at) / k.cards


@njit(cache=True)
def legal_cards(r, k, t, seat):
    """Follow suit if able (``t[0]``: the trick order), else any card."""
    cards = r.hands[seat]
    if r.trick_len:
        following = cards & t[0].suit_masks[t[0].suit[r.trick_card[0]]]
        if following:
            return following
    return cards


@njit(cache=True)
def legal_choices(r, k, t, seat, row):
    """A knock during card play, announcements (cards: :func:`legal_cards`; pairs: spec.CHOICES)."""
    phase = r.phase
    if phase == k.ph_play:
        if not k.any_time and can_knock(r, k, seat):
            row[k.a_knock] = 1
    elif phase == k.ph_announce:
        row[k.a_silent] = 1
        if may_announce(r, k, seat):
            row[k.a_announce] = 1
