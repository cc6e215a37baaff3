"""Toepen's pieces of the batch kernels (the loops are rams_env/vector/kernels.py, written once).

:func:`move` maps an action id to its move by the reference's action layout; :func:`run` follows
the flow's one continuation (the next trick). Toepen's trick has no trumps: its one order is ``t[0]``.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.kernels import compile_for
from rams_env.vector.toepen import flow, play
from rams_env.vector.toepen.observe import encode, legal_cards, legal_choices


@njit(cache=True)
def run(r, k, t, step):
    """Start the next trick while one is over (the flow's one loop, flow.NEXT_TRICK); returns DECIDE or DEAL_OVER."""
    while step == flow.NEXT_TRICK:
        step = play.begin_trick_play(r, k, t[0])
    return step


@njit(cache=True)
def move(r, k, o, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE, DEAL_OVER or NEXT_TRICK."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return play.play_card(r, k, o, seat, action - k.a_play)
    if action == k.a_knock:
        return play.knock(r, k, seat)
    if action == k.a_pass:
        return play.pass_window(r, k, o)
    if action == k.a_stay or action == k.a_fold:
        return play.respond(r, k, o, seat, action == k.a_fold)
    if action == k.a_dirty or action == k.a_keep:
        return flow.dirty_decision(r, k, seat, action == k.a_dirty)
    if action == k.a_challenge or action == k.a_accept:
        return flow.challenge_decision(r, k, seat, action == k.a_challenge)
    return flow.announce_decision(r, k, seat, action == k.a_announce)


@njit(cache=True)
def apply_action(r, k, t, action):
    return run(r, k, t, move(r, k, t[0], action))


@njit(cache=True)
def new_episode(r, k, t):
    return run(r, k, t, flow.new_episode(r, k))


@njit(cache=True)
def next_deal(r, k, t):
    return run(r, k, t, flow.start_deal(r, k))


KERNELS = compile_for(apply_action=apply_action, new_episode=new_episode, next_deal=next_deal,
                      session_over=flow.session_over, encode=encode, legal_cards=legal_cards,
                      legal_choices=legal_choices)
