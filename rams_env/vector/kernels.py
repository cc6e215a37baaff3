"""The batch kernels every game shares: reset, step (actions given or drawn inside), observe, all B deals.

After every move a deal pays its rewards, rewrites its row of observations (for the seat to act)
and of the legal mask; a settled deal starts the session's next deal, or a new episode
(auto-reset: the finished episode's rewards are reported with the new episode's first rows).
``spec`` is ``(k, t)`` for every game: ``k`` a one-element array holding the rule record,
``t`` the trick tables by trump suit (``rams_env.vector.tricks.order_tables``); the kernels read the
tables nested in the record (``k.tables``, records.with_tables), so no array is passed from call to call.

A game supplies the pieces below (the stubs say what each does) as compiled functions and gets
its kernels from :func:`compile_for`, which compiles these loops once more for it, with its
pieces in place of the stubs. Why not pass the pieces as function arguments: numba then
compiles each call from Python anew (measured 160 us per call, and nothing cached on disk), and
a compiled function that refers to a tuple of functions cannot be cached either. Rebinding the
loops' globals keeps every call a direct, inlinable call and every kernel cached on disk:
numba keys a cache entry by the function's code and argument types, and every game's records
differ, so the five games' kernels sit side by side in this module's cache files.
"""

from __future__ import annotations

import types
from typing import Any

from numba import njit

from rams_env.vector.bits import put_cards, sample_legal

DECIDE, DEAL_OVER = range(2)
"""What a move leads to, in every game: a seat must decide (``r.to_act``), or the deal is settled."""


# ------------------------------------------------- the pieces a game supplies
def apply_action(r, k, t, action):
    """The move of a legal ``action`` by the seat to act (``r.to_act``); returns DECIDE or DEAL_OVER."""
    raise NotImplementedError


def new_episode(r, k, t):
    """A new episode: its carried-over state (queued, drawn or fresh), then its first deal up to a decision."""
    raise NotImplementedError


def next_deal(r, k, t):
    """The session's next deal, up to a decision."""
    raise NotImplementedError


def session_over(r, k):
    """Whether the session ends with the deal just settled."""
    raise NotImplementedError


def pay_rewards(r, k):
    """``r.reward`` := this step's rewards, for games that pay them from a ledger after the move (a no-op where
    the moves add to ``r.reward`` themselves: :func:`rewards_as_they_fall`)."""
    raise NotImplementedError


def encode(r, k, seat, row):
    """Zero ``row`` and write ``seat``'s observation of the deal ``r``."""
    raise NotImplementedError


def legal_cards(r, k, t, seat):
    """The cards (a set) ``seat`` may play to the trick, in card play."""
    raise NotImplementedError


def legal_choices(r, k, t, seat, row):
    """Mark in ``row`` the legal actions of ``seat``, the seat to act, that are neither cards to play nor the
    fixed pair of a phase (``k.choices``)."""
    raise NotImplementedError


@njit(cache=True)
def rewards_as_they_fall(r, k):
    """The ``pay_rewards`` of games whose moves write ``r.reward`` as chips or lives change hands."""


# ------------------------------------------------------------------ the loops
def begin_step(r):
    r.reward[:] = 0.0
    r.settled = False


def after_move(r, k, t, step, b, out):
    """After a move: the rewards, the session's next deal or the episode's end, then deal ``b``'s rows.

    A session's next deal is part of the step (chips it costs are in this step's rewards); a new
    episode's start is not (its antes reach the payers with their first reward)."""
    if step == DEAL_OVER:
        r.deals_played += 1
        if not k.session or session_over(r, k):
            pay_rewards(r, k)
            end_episode(r, k, t, b, out)
            return
        next_deal(r, k, t)
    pay_rewards(r, k)
    write_rows(r, k, t, b, out, False)


def end_episode(r, k, t, b, out):
    """Auto-reset: the finished episode's rewards are reported with the new episode's first rows."""
    new_episode(r, k, t)
    write_rows(r, k, t, b, out, True)


def write_rows(r, k, t, b, out, episode_done):
    obs, mask, to_act, rewards, done = out
    done[b] = episode_done
    for s in range(k.n):
        rewards[b, s] = r.reward[s]
    to_act[b] = r.to_act
    encode(r, k, r.to_act, obs[b])
    write_mask(r, k, t, mask[b])


def write_mask(r, k, t, row):
    """Zero ``row`` and mark the legal actions of the seat to act: the two a phase always offers (``k.choices``,
    spec.py), in card play the cards, then the game's other choices."""
    row[:] = 0
    first, second = k.choices[r.phase, 0], k.choices[r.phase, 1]
    if first >= 0:
        row[first] = row[second] = 1
    if r.phase == k.ph_play:
        put_cards(row, k.a_play, legal_cards(r, k, t, r.to_act))
    legal_choices(r, k, t, r.to_act, row)


def reset_all(deals, spec, out):
    k = spec[0][0]
    t = k.tables
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        new_episode(r, k, t)
        write_rows(r, k, t, b, out, False)


def step_all(deals, spec, actions, out, illegal_reward):
    """Apply ``actions[b]`` in every deal; a masked-out one ends its episode with ``illegal_reward``.

    The caller has refused out-of-range actions (and, unless penalties are on, masked-out ones).
    """
    k = spec[0][0]
    t = k.tables
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        begin_step(r)
        action = actions[b]
        if mask[b, action]:
            after_move(r, k, t, apply_action(r, k, t, action), b, out)
        else:
            r.reward[r.to_act] = illegal_reward
            end_episode(r, k, t, b, out)


def step_random_all(deals, spec, out, actions):
    """Every deal plays a uniformly random legal action drawn from its own stream (written to ``actions``)."""
    k = spec[0][0]
    t = k.tables
    mask = out[1]
    for b in range(deals.shape[0]):
        r = deals[b]
        action = sample_legal(r, mask[b])
        actions[b] = action
        begin_step(r)
        after_move(r, k, t, apply_action(r, k, t, action), b, out)


def observe_all(deals, spec, seats, obs):
    """``obs[b]`` := the observation of seat ``seats[b]`` in deal ``b``."""
    k = spec[0][0]
    for b in range(deals.shape[0]):
        encode(deals[b], k, seats[b], obs[b])


LOOPS = (begin_step, after_move, end_episode, write_rows, write_mask, reset_all, step_all, step_random_all, observe_all)
ENTRIES = ("reset_all", "step_all", "step_random_all", "observe_all")
"""What ``BatchEnv`` calls (every loop takes a deal record or the rule record, so entries never collide)."""


def compile_for(*, apply_action: Any, new_episode: Any, next_deal: Any, session_over: Any, encode: Any,
                legal_cards: Any, legal_choices: Any, pay_rewards: Any = rewards_as_they_fall) -> types.SimpleNamespace:
    """A game's kernels (``reset_all``, ``step_all``, ``step_random_all``, ``observe_all``): the loops above
    compiled with the game's pieces (``@njit`` functions with the stubs' signatures)."""
    scope = {**globals(), "apply_action": apply_action, "new_episode": new_episode, "next_deal": next_deal,
             "session_over": session_over, "pay_rewards": pay_rewards, "encode": encode, "legal_cards": legal_cards,
             "legal_choices": legal_choices}
    for loop in LOOPS:
        scope[loop.__name__] = njit(cache=True)(types.FunctionType(loop.__code__, scope, loop.__name__))
    return types.SimpleNamespace(**{name: scope[name] for name in ENTRIES})
