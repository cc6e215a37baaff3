"""The batch kernels: reset, step (actions given or drawn inside), observe, for all B deals at once.

:func:`run` is the one dispatch table of the deal flow (continuations of flow.py and play.py);
:func:`apply_action` maps an action id to its move by the reference's action layout.
After every move the deal's row of observations (for the seat to act) and of the legal mask
is rewritten; a settled deal starts the session's next deal, or a new episode (auto-reset).
"""

from __future__ import annotations

from numba import njit

from rams_env.vector.bits import sample_legal
from rams_env.vector.toepen import flow, play
from rams_env.vector.toepen.observe import encode, legal_mask


@njit(cache=True)
def run(r, k, step):
    """Follow the deal's flow from ``step`` until a seat must decide (DECIDE) or the deal is settled."""
    while True:
        if step == flow.DECIDE or step == flow.DEAL_OVER:
            return step
        if step == flow.BEGIN_DIRTY:
            step = flow.begin_dirty(r, k)
        elif step == flow.CONTINUE_DIRTY:
            step = flow.continue_dirty(r, k)
        elif step == flow.BEGIN_ANNOUNCE:
            step = flow.begin_announce(r, k)
        elif step == flow.BEGIN_POVERTY:
            step = flow.begin_poverty(r, k)
        elif step == flow.BEGIN_TRICK_PLAY:
            step = play.begin_trick_play(k)
        elif step == flow.OPEN_WINDOW:
            step = play.open_window(r, k)
        elif step == flow.CONTINUE_WINDOW:
            step = play.continue_window(r, k)
        elif step == flow.RESUME_PLAY:
            step = play.resume_play(r, k)
        elif step == flow.FINISH_TRICK:
            step = play.finish_trick(r, k)
        else:
            step = play.settle(r, k)


@njit(cache=True)
def apply_action(r, k, action):
    """The move of a legal ``action`` by the seat to act; returns the continuation."""
    seat = r.to_act
    if action < k.a_play + k.cards:
        return play.play_card(r, k, seat, action - k.a_play)
    if action == k.a_knock:
        return play.knock(r, k, seat)
    if action == k.a_pass:
        return play.pass_window(r)
    if action == k.a_stay or action == k.a_fold:
        return play.respond(r, k, seat, action == k.a_fold)
    if action == k.a_dirty or action == k.a_keep:
        return flow.dirty_decision(r, k, seat, action == k.a_dirty)
    if action == k.a_challenge or action == k.a_accept:
        return flow.challenge_decision(r, k, seat, action == k.a_challenge)
    return flow.announce_decision(r, k, seat, action == k.a_announce)


@njit(cache=True)
def begin_step(r):
    r.reward[:] = 0.0
    r.settled = False


@njit(cache=True)
def finish_step(r, k, step, b, out):
    """After a move: the deal's loop (the session's next deal, or a new episode), then deal ``b``'s rows."""
    if step == flow.DEAL_OVER:
        r.deals_played += 1
        if not k.session or flow.session_over(r, k):
            end_episode(r, k, b, out)
            return
        run(r, k, flow.start_deal(r, k))
    write_rows(r, k, b, out, False)


@njit(cache=True)
def end_episode(r, k, b, out):
    """Auto-reset: the finished episode's rewards are reported with the new episode's first rows."""
    run(r, k, flow.new_episode(r, k))
    write_rows(r, k, b, out, True)


@njit(cache=True)
def write_rows(r, k, b, out, episode_done):
    obs, mask, to_act, rewards, done = out
    done[b] = episode_done
    for s in range(k.n):
        rewards[b, s] = r.reward[s]
    to_act[b] = r.to_act
    encode(r, k, r.to_act, obs[b])
    legal_mask(r, k, mask[b])


@njit(cache=True)
def reset_all(deals, spec, out):
    k = spec[0]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        finish_step(r, k, run(r, k, flow.new_episode(r, k)), b, out)


@njit(cache=True)
def step_all(deals, spec, actions, out, illegal_reward):
    """Apply ``actions[b]`` in every deal; a masked-out one ends its episode with ``illegal_reward``.

    The caller has refused out-of-range actions (and, unless penalties are on, masked-out ones).
    """
    k = spec[0]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        action = actions[b]
        if mask[b, action]:
            finish_step(r, k, run(r, k, apply_action(r, k, action)), b, out)
        else:
            r.reward[r.to_act] = illegal_reward
            end_episode(r, k, b, out)


@njit(cache=True)
def step_random_all(deals, spec, out, actions):
    """Every deal plays a uniformly random legal action drawn from its own stream (written to ``actions``)."""
    k = spec[0]
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        action = sample_legal(r, mask[b])
        actions[b] = action
        begin_step(r)
        finish_step(r, k, run(r, k, apply_action(r, k, action)), b, out)


@njit(cache=True)
def observe_all(deals, spec, seats, obs):
    """``obs[b]`` := the observation of seat ``seats[b]`` in deal ``b``."""
    k = spec[0]
    for b in range(deals.shape[0]):
        encode(deals[b], k, seats[b], obs[b])
