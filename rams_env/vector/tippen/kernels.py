"""Tippen's pieces of the batch kernels (the loops are rams_env/vector/kernels.py, written once).

:func:`apply_action` maps an action id to its move by the reference's action layout; the moves
write each seat's reward as chips change hands. ``t`` is the trick tables by trump suit (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.kernels import compile_for
from rams_env.vector.tippen import flow
from rams_env.vector.tippen.observe import encode, legal_cards, legal_choices


@njit(cache=True)
def apply_action(r, k, t, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    trump = t[r.trump]
    if action < k.a_play + k.cards:
        return flow.play_card(r, k, trump, seat, action - k.a_play)
    if action < k.a_discard + k.cards:
        if r.phase == k.ph_exchange:
            return flow.exchange_discard(r, k, trump, seat, action - k.a_discard)
        return flow.discard(r, k, trump, seat, action - k.a_discard)
    if action == k.a_done:
        return flow.finish_exchange(r, k, trump, seat)
    if r.phase == k.ph_shove:
        return flow.shove_decision(r, k, t, seat, action == k.a_shove)
    if r.phase == k.ph_dealer:
        return flow.dealer_decision(r, k, trump, seat, action != k.a_decline)
    if r.phase == k.ph_drop:
        return flow.drop_decision(r, k, trump, seat, action == k.a_drop)
    if action == k.a_tap or action == k.a_pass:
        return flow.bid(r, k, trump, seat, action == k.a_tap)
    return flow.rob_decision(r, k, trump, seat, action == k.a_rob)


@njit(cache=True)
def next_deal(r, k, t):
    """The session's next deal: its antes are part of this step's rewards."""
    return flow.start_deal(r, k, t, True)


KERNELS = compile_for(apply_action=apply_action, new_episode=flow.new_episode, next_deal=next_deal,
                      session_over=flow.session_over, encode=encode, legal_cards=legal_cards,
                      legal_choices=legal_choices)
