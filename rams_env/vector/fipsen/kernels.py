"""Fipsen's pieces of the batch kernels (the loops are rams_env/vector/kernels.py, written once).

:func:`apply_action` maps an action id to its move by the reference's action layout; the moves
write each seat's reward as points are scored. ``t`` is the trick tables by trump suit (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.fipsen import flow, play
from rams_env.vector.fipsen.observe import encode, legal_choices
from rams_env.vector.kernels import compile_for
from rams_env.vector.trickplay import trick_cards


@njit(cache=True)
def apply_action(r, k, t, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return play.play_card(r, k, t[r.trump], seat, action - k.a_play)
    if action < k.a_discard + k.cards:
        return flow.discard(r, k, seat, action - k.a_discard)
    if action < k.a_bid + k.rungs:
        return flow.auction_step(r, k, seat, action - k.a_bid, False)
    if action == k.a_fipsen or (action == k.a_pass and r.phase == k.ph_call):
        return flow.call(r, k, seat, action == k.a_fipsen)
    if action == k.a_pass or action == k.a_hold:
        return flow.auction_step(r, k, seat, flow.NONE, action == k.a_hold)
    if k.a_trump <= action < k.a_trump + k.suits:
        r.trump = action - k.a_trump
        return flow.begin_play(r, k)
    if action == k.a_concede or action == k.a_play_kieker:
        return flow.kieker(r, k, seat, action == k.a_concede)
    return play.play_on(r, k, seat, action == k.a_play_on)


KERNELS = compile_for(apply_action=apply_action, new_episode=flow.new_episode, next_deal=flow.start_deal,
                      session_over=flow.session_over, encode=encode, legal_cards=trick_cards,
                      legal_choices=legal_choices)
