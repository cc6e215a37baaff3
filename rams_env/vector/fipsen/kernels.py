"""The batch kernels: reset, step (actions given or drawn inside), observe, for all B deals at once.

As ``toepen/kernels.py``: :func:`apply_action` maps an action id to its move by the
reference's action layout; after every move the deal's observation row (for the seat to
act) and mask row are rewritten; a settled deal starts the session's next deal, or a new
episode (auto-reset). ``spec`` is ``(rule record, trick tables)`` (spec.py).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import sample_legal
from rams_env.vector.fipsen import flow, play
from rams_env.vector.fipsen.observe import encode, legal_mask


@njit(cache=True)
def apply_action(r, k, tables, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return play.play_card(r, k, tables[r.trump], seat, action - k.a_play)
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


@njit(cache=True)
def begin_step(r):
    r.reward[:] = 0.0
    r.settled = False


@njit(cache=True)
def finish_step(r, k, tables, step, b, out):
    """After a move: the session's next deal or a new episode, then deal ``b``'s rows."""
    if step == flow.DEAL_OVER:
        r.deals_played += 1
        if not k.session or flow.session_over(r, k):
            end_episode(r, k, tables, b, out)
            return
        flow.start_deal(r, k)
    write_rows(r, k, tables, b, out, False)


@njit(cache=True)
def end_episode(r, k, tables, b, out):
    """Auto-reset: the finished episode's rewards are reported with the new episode's first rows."""
    flow.new_episode(r, k)
    write_rows(r, k, tables, b, out, True)


@njit(cache=True)
def write_rows(r, k, tables, b, out, episode_done):
    obs, mask, to_act, rewards, done = out
    done[b] = episode_done
    for s in range(k.n):
        rewards[b, s] = r.reward[s]
    to_act[b] = r.to_act
    encode(r, k, r.to_act, obs[b])
    legal_mask(r, k, tables, mask[b])


@njit(cache=True)
def reset_all(deals, spec, out):
    k, tables = spec[0][0], spec[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        flow.new_episode(r, k)
        write_rows(r, k, tables, b, out, False)


@njit(cache=True)
def step_all(deals, spec, actions, out, illegal_reward):
    """Apply ``actions[b]`` in every deal; a masked-out one ends its episode with ``illegal_reward``.

    The caller has refused out-of-range actions (and, unless penalties are on, masked-out ones).
    """
    k, tables = spec[0][0], spec[1]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        action = actions[b]
        if mask[b, action]:
            finish_step(r, k, tables, apply_action(r, k, tables, action), b, out)
        else:
            r.reward[r.to_act] = illegal_reward
            end_episode(r, k, tables, b, out)


@njit(cache=True)
def step_random_all(deals, spec, out, actions):
    """Every deal plays a uniformly random legal action drawn from its own stream (written to ``actions``)."""
    k, tables = spec[0][0], spec[1]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        action = sample_legal(r, mask[b])
        actions[b] = action
        begin_step(r)
        finish_step(r, k, tables, apply_action(r, k, tables, action), b, out)


@njit(cache=True)
def observe_all(deals, spec, seats, obs):
    """``obs[b]`` := the observation of seat ``seats[b]`` in deal ``b``."""
    k = spec[0][0]
    for b in range(deals.shape[0]):
        encode(deals[b], k, seats[b], obs[b])
