"""What the batched pot games (Mauscheln, Lupfen, Tippen) share: the chip ledger, sessions, rewards.

The compiled mirror of :class:`rams_env.core.stakes.Ledger` and :mod:`rams_env.core.potgame` on a deal
record ``r``: the pot, each seat's bankroll, what it paid in this deal, trick shares and bêtes
(settled shares first, bêtes after, as the reference), a session's start from carried-over chips
(queued, random or the rules' bankroll), and rewards as the AEC env pays them: score changes
since the last reward, counted from 0 when an episode starts, so the Pinke or ante paid while
dealing reaches the payer with her first reward. :class:`PotBatch` queues deals with
carried-over chips (``pots``, ``bankrolls``), checked by the reference's own rules.

A game adds :data:`PER_DEAL` and :data:`PER_SEAT` (and :data:`TRICK_PER_DEAL` /
:data:`TRICK_PER_SEAT` for :mod:`rams_env.vector.trickplay`) to its deal record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from rams_env.vector.batch import BatchEnv

PER_DEAL = {"pot": np.int64, "pot_at_play": np.int64, "pending_pot": np.int64, "pending_bankroll": np.bool_}
"""The pot now and when play began; a queued episode's pot (-1: not given) and whether bankrolls were given."""
PER_SEAT = {
    "bankrolls": np.int64, "session_start": np.int64, "scores": np.int64, "paid_in": np.int64, "rewarded": np.int64,
    "reward": np.float32, "shares": np.int64, "betes": np.int64, "result_paid_in": np.int64,
    "pending_bankrolls": np.int64,
}
"""Chips per seat: bankroll, at the session's start, chips won as the game last updated them, paid in this
deal, already turned into rewards; this step's reward; the last settled deal's shares, bêtes and chips paid
in; a queued episode's bankrolls."""
TRICK_PER_DEAL = {"to_act": np.int8, "leader": np.int8, "trick_len": np.int8, "tricks_played": np.int8}
TRICK_PER_SEAT = {"hands": np.uint64, "played": np.uint64, "tricks_won": np.int8, "active": np.int8,
                  "trick_seat": np.int8, "trick_card": np.int8}
"""The fields :mod:`rams_env.vector.trickplay` works on."""


# ------------------------------------------------------------------ the ledger
@njit(cache=True)
def transfer(r, chips, seat, amount):
    """``seat`` pays ``amount`` into the pot out of ``chips[seat]`` (negative: takes it out); ``chips`` is
    the record's bankrolls, or (Lupfen) its chips won since the session began."""
    chips[seat] -= amount
    r.pot += amount
    r.paid_in[seat] += amount


@njit(cache=True)
def pay_in(r, seat, amount):
    """``seat`` pays ``amount`` into the pot (ante, Pinke, bête)."""
    transfer(r, r.bankrolls, seat, amount)


@njit(cache=True)
def take_out(r, seat, amount):
    """``seat`` takes ``amount`` out of the pot (a share for tricks, the whole pot)."""
    transfer(r, r.bankrolls, seat, -amount)


@njit(cache=True)
def shove_on(r, n, seat):
    """Shoving: ``seat`` passes the deal on; the next player deals (and pays, as the game says)."""
    r.shoves += 1
    r.dealer = (seat + 1) % n
    r.to_act = r.dealer


@njit(cache=True)
def settle_tricks(r, n):
    """Every active seat's ``shares`` taken out first, then its ``betes`` paid into what they left
    (the game has written both for its active seats, after :func:`clear_results`)."""
    for s in range(n):
        if r.active[s]:
            take_out(r, s, r.shares[s])
    for s in range(n):
        if r.active[s]:
            pay_in(r, s, r.betes[s])


@njit(cache=True)
def clear_results(r, n):
    """Before a settlement: no shares or bêtes yet."""
    for s in range(n):
        r.shares[s] = 0
        r.betes[s] = 0


@njit(cache=True)
def keep_results(r, n):
    """A deal is settled: what each seat paid in is kept apart (the next deal starts from 0)."""
    for s in range(n):
        r.result_paid_in[s] = r.paid_in[s]


# ------------------------------------------------------------- sessions, rewards
@njit(cache=True)
def start_session(r, n, bankroll, random_pot):
    """Carried-over chips: queued ones, else the pot ``random_pot`` (0 without random carry) and the
    rules' ``bankroll``; the session's scores count from here and rewards from 0."""
    given = r.pending and r.pending_pot >= 0
    r.pot = r.pending_pot if given else random_pot
    r.pot_at_play = 0  # kept through a session's deals until play begins again, as the reference's
    for s in range(n):
        r.bankrolls[s] = r.pending_bankrolls[s] if r.pending and r.pending_bankroll else bankroll
        r.session_start[s] = r.bankrolls[s]
        r.scores[s] = 0
        r.rewarded[s] = 0
    r.deals_played = 0


@njit(cache=True)
def update_scores(r, n):
    """``scores`` := chips won (negative: lost) since the session started (the reference's ``net_results``),
    at the moments the game updates them (observations and rewards read ``scores``, as the reference's)."""
    for s in range(n):
        r.scores[s] = r.bankrolls[s] - r.session_start[s]


@njit(cache=True)
def pay_rewards(r, k):
    """``reward`` := each seat's score change since its last reward (the kernels' ``pay_rewards``)."""
    for s in range(k.n):
        r.reward[s] = r.scores[s] - r.rewarded[s]
        r.rewarded[s] = r.scores[s]


@njit(cache=True)
def write_pot(r, row, o_pot, o_pot_at_play, scale):
    """The pot now and when play began, / ``scale``, capped at 1 (the reference's ``write_pot``)."""
    row[o_pot] = min(r.pot / scale, 1.0)
    row[o_pot_at_play] = min(r.pot_at_play / scale, 1.0)


# --------------------------------------------------------------- the environment
class PotBatch(BatchEnv):
    """A batched pot game: deals are queued with carried-over chips instead of lives."""

    def queue_deals(self, indices: Sequence[int], orders: Any, dealers: Any = None, pots: Any = None,
                    bankrolls: Any = None) -> None:
        """The next deal started in each of ``indices`` uses these cards (see :meth:`BatchEnv.queue_deals`).

        ``pots[i]`` and ``bankrolls[i]`` (n chips) apply when that deal starts a new episode
        (None: drawn with random carry, or the rules' defaults), checked as the reference checks
        its ``pot`` and ``bankrolls`` reset options.
        """
        idx, order, dealer = self._checked_orders(indices, orders, dealers)
        pot, rolls = self._checked_carry(len(idx), pots, bankrolls, "bankrolls")
        given = {} if rolls is None else {"pending_bankrolls": rolls}
        self._queue(idx, order, dealer, pending_pot=pot, pending_bankroll=rolls is not None, **given)
