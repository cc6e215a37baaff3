"""The batch kernels: reset, step (actions given or drawn inside), observe, for all B deals at once.

:func:`apply_action` maps an action id to its move by the reference's action layout. After
every move the deal pays its rewards (score changes since the last reward) and rewrites its
row of observations (for the seat to act) and of the legal mask; a settled deal starts the
session's next deal, or a new episode (auto-reset). ``spec`` is ``(k, orders)`` (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import sample_legal
from rams_env.vector.mauscheln import flow
from rams_env.vector.mauscheln.observe import encode, legal_mask
from rams_env.vector.potgame import pay_rewards, update_scores


@njit(cache=True)
def apply_action(r, k, orders, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return flow.play(r, k, orders, seat, action - k.a_play)
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
def finish_step(r, k, orders, step, b, out):
    """After a move: the scores, the session's next deal or the episode's end, the rewards, then deal ``b``'s rows."""
    update_scores(r, k.n)
    if step == flow.DEAL_OVER:
        r.deals_played += 1
        if not k.session or flow.session_over(r, k):
            pay_rewards(r, k.n)
            end_episode(r, k, orders, b, out)
            return
        flow.start_deal(r, k)
    pay_rewards(r, k.n)
    write_rows(r, k, orders, b, out, False)


@njit(cache=True)
def end_episode(r, k, orders, b, out):
    """Auto-reset: the finished episode's rewards are reported with the new episode's first rows."""
    flow.new_episode(r, k)
    write_rows(r, k, orders, b, out, True)


@njit(cache=True)
def write_rows(r, k, orders, b, out, episode_done):
    obs, mask, to_act, rewards, done = out
    done[b] = episode_done
    for s in range(k.n):
        rewards[b, s] = r.reward[s]
    to_act[b] = r.to_act
    encode(r, k, r.to_act, obs[b])
    legal_mask(r, k, orders, mask[b])


@njit(cache=True)
def reset_all(deals, spec, out):
    k, orders = spec[0][0], spec[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        r.settled = False
        flow.new_episode(r, k)
        r.reward[:] = 0.0
        write_rows(r, k, orders, b, out, False)


@njit(cache=True)
def step_all(deals, spec, actions, out, illegal_reward):
    """Apply ``actions[b]`` in every deal; a masked-out one ends its episode with ``illegal_reward``.

    The caller has refused out-of-range actions (and, unless penalties are on, masked-out ones).
    """
    k, orders = spec[0][0], spec[1]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        r.settled = False
        action = actions[b]
        if mask[b, action]:
            finish_step(r, k, orders, apply_action(r, k, orders, action), b, out)
        else:
            r.reward[:] = 0.0
            r.reward[r.to_act] = illegal_reward
            end_episode(r, k, orders, b, out)


@njit(cache=True)
def step_random_all(deals, spec, out, actions):
    """Every deal plays a uniformly random legal action drawn from its own stream (written to ``actions``)."""
    k, orders = spec[0][0], spec[1]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        action = sample_legal(r, mask[b])
        actions[b] = action
        r.settled = False
        finish_step(r, k, orders, apply_action(r, k, orders, action), b, out)


@njit(cache=True)
def observe_all(deals, spec, seats, obs):
    """``obs[b]`` := the observation of seat ``seats[b]`` in deal ``b``."""
    k = spec[0][0]
    for b in range(deals.shape[0]):
        encode(deals[b], k, seats[b], obs[b])
