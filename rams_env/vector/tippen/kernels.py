"""The batch kernels: reset, step (actions given or drawn inside), observe, for all B deals at once.

The same shape as Toepen's (``rams_env/vector/toepen/kernels.py``): :func:`apply_action` maps
an action id to its move by the reference's action layout; after every move the deal's row of
observations (for the seat to act) and of the legal mask is rewritten; a settled deal starts
the session's next deal, or a new episode (auto-reset). ``spec`` is (rule record, trick tables
per trump suit), spec.py.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import sample_legal
from rams_env.vector.tippen import flow
from rams_env.vector.tippen.observe import encode, legal_mask


@njit(cache=True)
def apply_action(r, k, o, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER (``o``: every trump's tables)."""
    seat = r.to_act
    trump = o[r.trump]
    if action < k.a_play + k.cards:
        return flow.play_card(r, k, trump, seat, action - k.a_play)
    if action < k.a_discard + k.cards:
        if r.phase == k.ph_exchange:
            return flow.exchange_discard(r, k, trump, seat, action - k.a_discard)
        return flow.discard(r, k, trump, seat, action - k.a_discard)
    if action == k.a_done:
        return flow.finish_exchange(r, k, trump, seat)
    if r.phase == k.ph_shove:
        return flow.shove_decision(r, k, o, seat, action == k.a_shove)
    if r.phase == k.ph_dealer:
        return flow.dealer_decision(r, k, trump, seat, action != k.a_decline)
    if r.phase == k.ph_drop:
        return flow.drop_decision(r, k, trump, seat, action == k.a_drop)
    if action == k.a_tap or action == k.a_pass:
        return flow.bid(r, k, trump, seat, action == k.a_tap)
    return flow.rob_decision(r, k, trump, seat, action == k.a_rob)


@njit(cache=True)
def begin_step(r):
    r.reward[:] = 0.0
    r.settled = False


@njit(cache=True)
def finish_step(r, k, o, step, b, out):
    """After a move: the deal's loop (the session's next deal, or a new episode), then deal ``b``'s rows."""
    if step == flow.DEAL_OVER:
        r.deals_played += 1
        if not k.session or flow.session_over(r, k):
            end_episode(r, k, o, b, out)
            return
        flow.start_deal(r, k, o, True)
    write_rows(r, k, o, b, out, False)


@njit(cache=True)
def end_episode(r, k, o, b, out):
    """Auto-reset: the finished episode's rewards are reported with the new episode's first rows."""
    flow.new_episode(r, k, o)
    write_rows(r, k, o, b, out, True)


@njit(cache=True)
def write_rows(r, k, o, b, out, episode_done):
    obs, mask, to_act, rewards, done = out
    done[b] = episode_done
    for s in range(k.n):
        rewards[b, s] = r.reward[s]
    to_act[b] = r.to_act
    encode(r, k, r.to_act, obs[b])
    legal_mask(r, k, o[r.trump], mask[b])


@njit(cache=True)
def reset_all(deals, spec, out):
    k, o = spec[0][0], spec[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        flow.new_episode(r, k, o)
        write_rows(r, k, o, b, out, False)


@njit(cache=True)
def step_all(deals, spec, actions, out, illegal_reward):
    """Apply ``actions[b]`` in every deal; a masked-out one ends its episode with ``illegal_reward``.

    The caller has refused out-of-range actions (and, unless penalties are on, masked-out ones).
    """
    k, o = spec[0][0], spec[1]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        action = actions[b]
        if mask[b, action]:
            finish_step(r, k, o, apply_action(r, k, o, action), b, out)
        else:
            r.reward[r.to_act] = illegal_reward
            end_episode(r, k, o, b, out)


@njit(cache=True)
def step_random_all(deals, spec, out, actions):
    """Every deal plays a uniformly random legal action drawn from its own stream (written to ``actions``)."""
    k, o = spec[0][0], spec[1]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        action = sample_legal(r, mask[b])
        actions[b] = action
        begin_step(r)
        finish_step(r, k, o, apply_action(r, k, o, action), b, out)


@njit(cache=True)
def observe_all(deals, spec, seats, obs):
    """``obs[b]`` := the observation of seat ``seats[b]`` in deal ``b``."""
    k = spec[0][0]
    for b in range(deals.shape[0]):
        encode(deals[b], k, seats[b], obs[b])
