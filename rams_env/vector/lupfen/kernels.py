"""The batch kernels: reset, step (actions given or drawn inside), observe, for all B deals at once.

As Toepen's (``rams_env/vector/toepen/kernels.py``): :func:`apply_action` maps an action id to
its move by the reference's action layout; after every move the deal's rewards, its row of
observations (for the seat to act) and its legal mask are rewritten; a settled deal starts the
session's next deal, or a new episode (auto-reset). Rewards follow the AEC env: each step
reports every seat's score change not yet reported, counted from 0 when an episode starts, so
an ante paid while dealing reaches its payer with her first reward.
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import sample_legal
from rams_env.vector.lupfen import flow, play
from rams_env.vector.lupfen.observe import encode, legal_mask


@njit(cache=True)
def apply_action(r, k, action):
    """The move of a legal ``action`` by the seat to act; returns DECIDE or DEAL_OVER."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return play.play_card(r, k, seat, action - k.a_play)
    if action == k.a_deal or action == k.a_shove:
        return flow.shove_decision(r, k, seat, action == k.a_shove)
    if action == k.a_look:
        return flow.look(r, seat)
    if action == k.a_lift or action == k.a_blind:
        return flow.lift(r, k, seat, action == k.a_blind)
    if action == k.a_pass and r.phase == k.ph_lift:
        return flow.lift_pass(r, k, seat)
    if action == k.a_mit or action == k.a_pass:
        return flow.join_decision(r, k, seat, action == k.a_mit)
    if action == k.a_declare:
        return flow.three_unters_win(r, k, seat)
    return flow.scrap_decision(r, k, action == k.a_scrap)


@njit(cache=True)
def finish_step(r, k, step, b, out):
    """After a move: the deal's loop (the session's next deal, or a new episode), the rewards, deal ``b``'s rows.

    Chips paid when the session's next deal starts (a dealer's fee) belong to this step, as in the
    AEC env; a new episode's belong to its first step.
    """
    if step == flow.DEAL_OVER:
        r.deals_played += 1
        if not k.session or flow.session_over(r, k):
            pay_rewards(r, k, b, out)
            flow.new_episode(r, k)
            write_rows(r, k, b, out, True)
            return
        flow.start_deal(r, k)
    pay_rewards(r, k, b, out)
    write_rows(r, k, b, out, False)


@njit(cache=True)
def pay_rewards(r, k, b, out):
    rewards = out[3]
    for s in range(k.n):
        rewards[b, s] = r.net[s] - r.paid[s]
        r.paid[s] = r.net[s]


@njit(cache=True)
def write_rows(r, k, b, out, episode_done):
    obs, mask, to_act, rewards, done = out
    done[b] = episode_done
    to_act[b] = r.to_act
    encode(r, k, r.to_act, obs[b])
    legal_mask(r, k, mask[b])


@njit(cache=True)
def reset_all(deals, spec, out):
    k = spec[0]
    for b in range(deals.shape[0]):
        r = deals[b]
        r.settled = False
        flow.new_episode(r, k)
        write_rows(r, k, b, out, False)


@njit(cache=True)
def step_all(deals, spec, actions, out, illegal_reward):
    """Apply ``actions[b]`` in every deal; a masked-out one ends its episode with ``illegal_reward``.

    The caller has refused out-of-range actions (and, unless penalties are on, masked-out ones).
    """
    k = spec[0]
    mask, rewards = out[1], out[3]
    for b in range(deals.shape[0]):
        r = deals[b]
        r.settled = False
        action = actions[b]
        if mask[b, action]:
            finish_step(r, k, apply_action(r, k, action), b, out)
        else:
            for s in range(k.n):
                rewards[b, s] = 0.0
            rewards[b, r.to_act] = illegal_reward
            flow.new_episode(r, k)
            write_rows(r, k, b, out, True)


@njit(cache=True)
def step_random_all(deals, spec, out, actions):
    """Every deal plays a uniformly random legal action drawn from its own stream (written to ``actions``)."""
    k = spec[0]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        action = sample_legal(r, mask[b])
        actions[b] = action
        r.settled = False
        finish_step(r, k, apply_action(r, k, action), b, out)


@njit(cache=True)
def observe_all(deals, spec, seats, obs):
    """``obs[b]`` := the observation of seat ``seats[b]`` in deal ``b``."""
    k = spec[0]
    for b in range(deals.shape[0]):
        encode(deals[b], k, seats[b], obs[b])
