"""The reference engine driven beside the batched one: the same deals, the same actions, compared.

:func:`crosscheck` is the one driver every batched game's cross-check uses. It plays ``deals``
random deals in ``num_envs`` slots; each slot has its own reference State (``Game.new_state``
with its own generator, as the AEC env's reset does), and every deal the reference starts is
queued into the batched slot before the step that starts it there, so both play the same cards.
Before every step the batched observation, mask and seat to act must equal the reference's bit
for bit (and the record fields the game's :class:`Slot` compares), after it the rewards, the
episode ends and the settlements.

A game's cross-check is a :class:`Slot` subclass (``tests/vector_reference_<game>.py``): how a
reference episode starts and is queued, which deals a move starts, and what else to compare.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from typing import Any

import numpy as np
import pytest

import rams_env
import rams_env.vector as vector
from tests import tiers

DEALS = int(os.environ.get("RAMS_VECTOR_DEALS", "60"))
"""Deals per cross-checked case: CI sets ``RAMS_VECTOR_DEALS`` (500, .ci/run); a local run checks a few (every step of
them bit for bit, so a difference shows within the first deals)."""
SLOW_DEALS = int(os.environ.get("RAMS_VECTOR_SLOW_DEALS", "0"))
"""The slow tier's deals per case (e.g. 100000), run only when set: ``pytest -m slow tests/test_vector_<game>.py``."""


WHOLE_SESSIONS = 48
"""Deals enough for some of 8 slots to finish a session of 3 or 4 deals, whatever ``RAMS_VECTOR_DEALS`` says."""


def slow_tier(test):
    """A cross-check of ``SLOW_DEALS`` deals: marked ``slow`` and skipped unless ``RAMS_VECTOR_SLOW_DEALS`` is set."""
    skip = pytest.mark.skipif(not SLOW_DEALS, reason="set RAMS_VECTOR_SLOW_DEALS (e.g. 100000) for the slow tier")
    return pytest.mark.slow(skip(test))


class Slot:
    """One batched slot ``b`` beside its reference State; a game's subclass fills in the marked methods."""

    game_name: str
    reference_rules = staticmethod(contextlib.nullcontext)
    """A context in which the reference plays the rules the batched engine plays (a patch for a pending fix)."""
    antes_rewarded = False
    """Whether chips paid when an episode starts reach the payers with their first reward (the AEC env's
    ``_pay_rewards`` in the pot games) or belong to the episode's first position."""

    def __init__(self, game, env, b: int, seed: int, random_carry: bool) -> None:
        self.game, self.env, self.b, self.random_carry = game, env, b, random_carry
        self.rng = np.random.default_rng([seed, b])
        self.new_episode()

    # ---------------------------------------------------------- the game's part
    def start_episode(self):
        """A new reference State for an episode, queued into the batched slot; returns it."""
        raise NotImplementedError

    def queue_started(self, before, breakdown) -> None:
        """After a reference move that did not end the episode: queue any deal it started (``before``: what
        :meth:`remember` kept before the move; ``breakdown``: the settled deal's, or None)."""

    def remember(self) -> Any:
        """What :meth:`queue_started` needs to know about the State before a move."""
        return None

    def compare_record(self, record) -> None:
        """The batched deal record against the reference State beyond observation and mask (dealer, chips ...)."""
        raise NotImplementedError

    def compare_settlement(self, record, breakdown) -> None:
        """The batched record's last settlement against the reference's ``breakdown``."""
        raise NotImplementedError

    def settlement(self, state) -> Any:
        """What :meth:`compare_settlement` gets of a State that has just settled a deal (its breakdown)."""
        return state.deal_breakdowns[-1]

    def choose(self, legal: list[int], chooser: np.random.Generator) -> int:
        """The action this slot plays (uniformly random legal)."""
        return legal[chooser.integers(len(legal))]

    def count(self, counts: Counter, action: int, breakdown) -> None:
        """Anything the game's tests want counted beyond decisions, deals and episodes."""

    # --------------------------------------------------------------- the driver's
    def new_episode(self) -> None:
        self.state = self.start_episode()
        self.paid = np.zeros(self.game.num_players) if self.antes_rewarded else np.array(self.state.scores)

    def step(self, action: int) -> tuple[np.ndarray, bool, Any]:
        """One reference move: (rewards as the AEC env pays them, episode over, the settled deal's breakdown)."""
        state, played, before = self.state, self.state.deals_played, self.remember()
        self.game.apply(state, action)
        scores = np.array(state.scores, np.float64)
        reward, self.paid = (scores - self.paid).astype(np.float32), scores
        breakdown = self.settlement(state) if state.deals_played > played else None
        if state.terminal:
            self.new_episode()
            return reward, True, breakdown
        self.queue_started(before, breakdown)
        return reward, False, breakdown

    def compare_position(self) -> None:
        env, game, state, b = self.env, self.game, self.state, self.b
        expected = game.observation.zeros()
        game.encode(state, state.to_act, expected)
        assert env.to_act[b] == state.to_act, f"deal {b}: to act {env.to_act[b]} != {state.to_act}"
        if not np.array_equal(env.obs[b], expected):
            diff = [name for name, part in game.observation.slices.items()
                    if not np.array_equal(env.obs[b][part], expected[part])]
            raise AssertionError(f"deal {b}: observation differs in {diff} (phase {state.phase})")
        legal = np.flatnonzero(env.mask[b]).tolist()
        assert legal == game.legal_actions(state), f"deal {b}: legal {legal} != {game.legal_actions(state)}"
        self.compare_record(env.deals[b])


def crosscheck(slot: type[Slot], preset: str | None, n: int | None, deals: int, *, episode: str = "deal",
               random_carry: bool = False, num_envs: int = 64, seed: int = 0, **rules: Any) -> Counter:
    """Play ``deals`` deals of ``slot``'s game in both engines (``preset`` with ``rules`` changed), comparing every
    step; returns what was compared (decisions, deals, episodes and what the slots count)."""
    with slot.reference_rules():
        return _crosscheck(slot, preset, n, deals, episode, random_carry, num_envs, seed, rules)


def _crosscheck(slot, preset, n, deals, episode, random_carry, num_envs, seed, rules) -> Counter:
    env = vector.make(slot.game_name, num_envs=num_envs, num_players=n, preset=preset, episode=episode,
                      random_carry=random_carry, **rules)
    game = rams_env.make_game(slot.game_name, n, preset=preset, session=episode == "session", **rules)
    slots = [slot(game, env, b, seed, random_carry) for b in range(num_envs)]
    env.reset(seed=seed)
    chooser = np.random.default_rng([seed, 99])
    counts: Counter = Counter()
    while counts["deals"] < deals:
        actions = np.empty(num_envs, np.int64)
        for s in slots:
            s.compare_position()
            actions[s.b] = s.choose(game.legal_actions(s.state), chooser)
        results = [s.step(int(actions[s.b])) for s in slots]
        env.step(actions)
        expected = np.array([reward for reward, _, _ in results], np.float32)
        ended = np.array([end for _, end, _ in results])
        wrong = np.flatnonzero((env.rewards != expected).any(axis=1))
        assert not wrong.size, f"rewards differ in deals {wrong}"
        assert np.array_equal(env.done, ended), f"episode ends differ in deals {np.flatnonzero(env.done != ended)}"
        for s, (_, _, breakdown) in zip(slots, results, strict=True):
            record = env.deals[s.b]
            assert bool(record["settled"]) == (breakdown is not None), f"deal {s.b}: settled differs"
            if breakdown is not None:
                s.compare_settlement(record, breakdown)
            counts["deals"] += breakdown is not None
            s.count(counts, int(actions[s.b]), breakdown)
        counts["decisions"] += num_envs
        counts["episodes"] += int(ended.sum())
    return counts


def standard_tests(slot: type[Slot], cases: list[tuple[str, int]], session_presets: list[str], *,
                   whole_sessions: bool = False, **session_options: Any) -> tuple:
    """The cross-checks of a game with presets, as test functions for its module to bind to ``test_*`` names:
    every case ``(preset, n)`` deal by deal from random carried-over state, each of ``session_presets`` in
    sessions at 4 players (``session_options``: rules or ``num_envs``; ``whole_sessions``: some must end), and
    the slow tier (:func:`slow_tier`) over the cases. The fast tier (``pytest -m "not slow"``) keeps the
    game's reference rules at 4 players (or the smallest table) and in sessions; CI runs every case."""
    ids = [f"{preset}-{n}" for preset, n in cases]
    reference = tiers.default_preset(slot.game_name)
    sizes = sorted({n for preset, n in cases if preset == reference})
    fast_size = 4 if 4 in sizes else sizes[0]

    @tiers.parametrize(("preset", "n"), cases, lambda preset, n: preset == reference and n == fast_size, ids=ids)
    def deal_by_deal(preset, n):
        counts = crosscheck(slot, preset, n, DEALS, random_carry=True, seed=n)
        assert counts["deals"] >= DEALS and counts["episodes"] == counts["deals"]

    @tiers.parametrize("preset", session_presets, lambda preset: preset == reference)
    def in_sessions(preset):
        deals = max(DEALS // 2, WHOLE_SESSIONS) if whole_sessions else DEALS // 2
        counts = crosscheck(slot, preset, 4, deals, episode="session", seed=7, **session_options)
        assert counts["episodes"] < counts["deals"]  # sessions of several deals were played through
        assert counts["episodes"] > 0 or not whole_sessions

    @slow_tier
    @pytest.mark.parametrize(("preset", "n"), cases, ids=ids)
    def slow(preset, n):
        counts = crosscheck(slot, preset, n, SLOW_DEALS, random_carry=True, num_envs=256, seed=100 + n)
        assert counts["deals"] >= SLOW_DEALS

    return deal_by_deal, in_sessions, slow

