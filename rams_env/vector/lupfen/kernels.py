"""Lupfen's pieces of the batch kernels (the loops are rams_env/vector/kernels.py, written once).

:func:`apply_action` maps an action id to its move by the reference's action layout. Rewards
follow the AEC env: each step reports every seat's score change not yet reported, counted from
0 when an episode starts, so an ante paid while dealing reaches its payer with her first reward.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.kernels import compile_for
from rams_env.vector.lupfen import flow, play
from rams_env.vector.lupfen.observe import encode, legal_choices
from rams_env.vector.trickplay import trick_cards


@njit(cache=True)
def apply_action(r, k, t, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return play.play_card(r, k, t, seat, action - k.a_play)
    if action == k.a_deal or action == k.a_shove:
        return flow.shove_decision(r, k, t, seat, action == k.a_shove)
    if action == k.a_look:
        return flow.look(r, seat)
    if action == k.a_lift or action == k.a_blind:
        return flow.lift(r, k, t, seat, action == k.a_blind)
    if action == k.a_pass and r.phase == k.ph_lift:
        return flow.lift_pass(r, k, seat)
    if action == k.a_mit or action == k.a_pass:
        return flow.join_decision(r, k, seat, action == k.a_mit)
    if action == k.a_declare:
        return flow.three_unters_win(r, k, seat)
    return flow.scrap_decision(r, k, t, action == k.a_scrap)


@njit(cache=True)
def pay_rewards(r, k):
    """``reward`` := each seat's change of ``net`` not yet reported (``paid``)."""
    for s in range(k.n):
        r.reward[s] = r.net[s] - r.paid[s]
        r.paid[s] = r.net[s]


KERNELS = compile_for(apply_action=apply_action, new_episode=flow.new_episode, next_deal=flow.start_deal,
                      session_over=flow.session_over, pay_rewards=pay_rewards, encode=encode, legal_cards=trick_cards,
                      legal_choices=legal_choices)
