"""Mauscheln's pieces of the batch kernels (the loops are rams_env/vector/kernels.py, written once).

:func:`apply_action` maps an action id to its move by the reference's action layout; the scores
are brought up to date after every move and the rewards paid from them (the pot games' ledger,
rams_env/vector/potgame.py). ``t`` is the trick tables by trump suit (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.kernels import compile_for
from rams_env.vector.mauscheln import flow
from rams_env.vector.mauscheln.observe import encode, legal_choices
from rams_env.vector.potgame import pay_rewards, update_scores
from rams_env.vector.trickplay import trick_cards


@njit(cache=True)
def move(r, k, t, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return flow.play(r, k, t, seat, action - k.a_play)
    if action < k.a_discard + k.cards:
        return flow.discard(r, k, seat, action - k.a_discard)
    if action == k.a_done:
        return flow.finish_exchange(r, k, seat)
    if action == k.a_knock or action == k.a_decline:
        return flow.dealer_decision(r, k, action == k.a_knock)
    if r.phase == k.ph_sneak:
        return flow.sneak_decision(r, k, seat, action == k.a_sneak)
    return flow.join_decision(r, k, seat, action == k.a_join)


@njit(cache=True)
def apply_action(r, k, t, action):
    """The move, then the scores as the reference's ``net_results`` after it."""
    step = move(r, k, t, action)
    update_scores(r, k.n)
    return step


KERNELS = compile_for(apply_action=apply_action, new_episode=flow.new_episode, next_deal=flow.start_deal,
                      session_over=flow.session_over, pay_rewards=pay_rewards, encode=encode, legal_cards=trick_cards,
                      legal_choices=legal_choices)
