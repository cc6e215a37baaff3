"""Card-play features of the general space (rams_env/core/card_features.py), against an independent oracle.

The features are computed from the general observation (the scattered fields); the oracle here reads the
player's *view* (the observation core's other output: card codes, the trick in play order) and the game's
own :class:`TrickOrder` methods (``is_trump``, ``winning_index``, ``beats``), so the two share nothing but
the rules. Checked at every decision of random deals at every game, preset and table size.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import cache

import numpy as np
import pytest

import rams_env
from rams_env.core.card_features import FEW_ROWS, KINDS
from rams_env.core.cards import SUITS, card
from rams_env.core.general import GeneralSpace
from tests import tiers
from tests.conformance import every_table_size


@cache
def space(game: str) -> GeneralSpace:
    return GeneralSpace(game)


def expected(game, view: dict, slots: tuple[str, ...]) -> np.ndarray:
    """(kinds, cards) the features as the oracle computes them from ``view``."""
    out = np.zeros((len(KINDS), len(slots)), np.float32)
    trump = view.get("trump", "none")
    if trump is None:  # a game with a trump suit, not known yet
        return out
    order = game.trick_orders[SUITS.index(trump)] if trump != "none" else game.trick_orders[0]
    hand = [card(c) for c in view["hand"]]
    trick = [card(c) for _, c in view["trick"]]
    gone = {card(c) for seat in view["played"] for c in seat} | set(trick)
    gone |= {card(c) for c in view.get("own_discards", [])}
    live = [c for c in game.pack().cards if c not in gone and c not in hand]
    winner = trick[order.winning_index(trick)] if trick else None
    for c in hand:
        slot = slots.index(game.pack().codes[game.pack().index[c]])
        out[0, slot] = order.is_trump(c)
        out[1, slot] = winner is not None and order.beats(c, winner, order.suit[trick[0]])
        out[2, slot] = not any(order.suit[d] == order.suit[c] and order.power[d] > order.power[c] for d in live)
    return out


def positions(game: str, preset: str, n: int, deals: int = 3,
              most: int = 40) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(native observations, the oracle's features, whether cards were on the table) at every decision of
    ``deals`` random deals, and of more (up to ``most``) until some hand held a card that would win a trick
    (random play at a large Toepen table can fold before one)."""
    env = rams_env.make(game, num_players=n, preset=preset)
    g, rng = env.unwrapped.game, np.random.default_rng(n)
    native, want, trick = [], [], []
    for seed in range(most):
        if seed >= deals and any(w[1].any() for w in want):
            break
        for seat, obs in random_play(env, seed, rng, max_iter=600):
            view = g.view(env.unwrapped.game_state, seat)
            native.append(obs["observation"])
            want.append(expected(g, view, space(game).cards))
            trick.append(bool(view["trick"]))
    return np.array(native), np.array(want), np.array(trick)


def random_play(env, seed: int, rng: np.random.Generator, max_iter: int):
    """One deal of random legal play: yields (seat to act, its observation) at every decision, before the move."""
    env.reset(seed=seed)
    for agent in env.agent_iter(max_iter=max_iter):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield env.unwrapped.possible_agents.index(agent), obs
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def features(table, native: np.ndarray) -> np.ndarray:
    layout = table.card_features
    general = table.obs(native)
    return general[..., layout.start:layout.start + layout.size].reshape(*native.shape[:-1], len(KINDS), -1)


@contextmanager
def numpy_path(table):
    """``table`` building its observations with numpy (card_features.write), not the compiled pass."""
    compiled, table.compiled = table.compiled, None
    try:
        yield
    finally:
        table.compiled = compiled


@tiers.parametrize(("game", "preset", "n"), every_table_size(), tiers.usual_table)
def test_features_match_the_oracle_at_every_decision(game, preset, n):
    """One row at a time (an agent at a table) and all rows at once (the trainer's batch) alike, by the compiled
    pass (rams_env/core/general_kernel.py) and by numpy's two paths (one by one, vectorised)."""
    native, want, trick = positions(game, preset, n)
    assert trick.any() and want[:, 1].any() and want[:, 2].any(), "no decision with cards on the table"
    table = space(game).table(rams_env.make_game(game, n, preset=preset))
    assert len(native) >= FEW_ROWS
    for row, expect in zip(native, want, strict=True):
        np.testing.assert_array_equal(features(table, row), expect)
    np.testing.assert_array_equal(features(table, native), want)
    with numpy_path(table):
        for row, expect in zip(native, want, strict=True):
            np.testing.assert_array_equal(features(table, row), expect)
        np.testing.assert_array_equal(features(table, native), want)


def test_features_come_after_the_table_features_and_are_named_by_card():
    s = space("tippen")
    layout = s.card_features
    assert layout.start == s.padded_size + len(s.table_feature_names)
    assert s.obs_size == layout.start + layout.size == layout.start + len(KINDS) * len(s.cards)
    assert s.feature_names[-layout.size] == f"{KINDS[0]}:{s.cards[0]}"
    assert s.feature_names[-1] == f"{KINDS[-1]}:{s.cards[-1]}"


@pytest.mark.parametrize("game", list(rams_env.GAMES))
def test_features_do_not_change_when_the_other_seats_hidden_cards_are_swapped(game):
    """The player to act sees the same general observation, features included, whatever the others hold."""
    env = rams_env.make(game)
    g, table = env.unwrapped.game, space(game).table(env.unwrapped.game)
    rng = np.random.default_rng(0)
    native = np.zeros(g.observation.size, np.float32)

    def seen(state, seat: int) -> np.ndarray:
        native[:] = 0
        g.encode(state, seat, native)
        return table.obs(native)

    checked = 0
    for seed in range(3):
        for seat, _ in random_play(env, seed, rng, max_iter=300):
            state = env.unwrapped.game_state
            np.testing.assert_array_equal(seen(g.shuffle_unseen(state, seat, rng), seat), seen(state, seat))
            checked += 1
    assert checked
