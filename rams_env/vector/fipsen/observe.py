"""What a seat may know, written straight into the batch's observation and mask rows.

Mirrors ``rams_env/games/fipsen/observe.py`` field by field (offsets from the reference layout,
in the rule record ``k``), values computed in float64 and rounded to float32 once, as the
reference's array assignment does.
Nothing hidden is read: other hands, their discards, the skat and the talon never reach a row.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rams_env.vector.bits import put_cards
from rams_env.vector.fipsen.flow import NONE, eligible, score
from rams_env.vector.fipsen.play import legal


@njit(cache=True)
def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    row[:] = 0.0
    n, cards = k.n, k.cards
    put_cards(row, k.o_hand, r.hands[seat])
    if r.turned != NONE:
        row[k.o_turned + r.turned] = 1.0
    if r.trump != NONE:
        row[k.o_trump + r.trump] = 1.0
    put_cards(row, k.o_own_discards, r.face_down[seat])
    for i in range(r.trick_len):
        row[k.o_trick + (r.trick_seat[i] - seat + n) % n * cards + r.trick_card[i]] = 1.0
    leader = NONE
    if r.phase == k.ph_play:  # the leader is shown during card play only
        leader = r.trick_seat[0] if r.trick_len else r.leader
    for s in range(n):
        rel = (s - seat + n) % n
        put_cards(row, k.o_played + rel * cards, r.played[s])
        row[k.o_leader + rel] = s == leader
        row[k.o_to_act + rel] = s == r.to_act
        row[k.o_dealer + rel] = s == r.dealer
        row[k.o_declarer + rel] = s == (r.declarer if r.declarer != NONE else r.fipsen)
        row[k.o_passed + rel] = r.passed[s]
        row[k.o_highest_bidder + rel] = s == r.highest_bidder
        row[k.o_tricks_won + rel] = r.tricks_won[s] / k.tricks
        row[k.o_race + rel] = min(r.race[s] / k.race_to, 1.0)
        net = np.float64(score(r, k, s)) / k.net_scale + 0.5
        row[k.o_net + rel] = max(min(net, 1.0), 0.0)
    row[k.o_seat + seat] = 1.0
    row[k.o_phase + r.phase] = 1.0
    row[k.o_highest_bid + r.highest + 1] = 1.0  # slot 0: no bid (-1)
    row[k.o_contract + r.contract + 1] = 1.0
    row[k.o_holder_to_answer] = r.holder_to_answer
    row[k.o_playing_on] = r.playing_on
    row[k.o_pot] = min(r.pot / k.pot_scale, 1.0)
    row[k.o_trick_number + min(r.tricks_played, k.tricks - 1)] = 1.0


@njit(cache=True)
def legal_mask(r, k, tables, row):
    """Zero ``row`` and mark the legal actions of the seat to act in the deal ``r``."""
    row[:] = 0
    seat, phase = r.to_act, r.phase
    if phase == k.ph_play:
        put_cards(row, k.a_play, legal(r, k, tables[r.trump], seat))
    elif phase == k.ph_auction:
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
    elif phase == k.ph_call:
        row[k.a_pass] = row[k.a_fipsen] = 1
    elif phase == k.ph_kieker:
        row[k.a_concede] = row[k.a_play_kieker] = 1
    else:
        row[k.a_play_on] = row[k.a_stop] = 1
