"""Checks every game must pass, shared by tests/test_conformance.py and the game test files.

A random legal playout is checked on every step: the mask is exact (the legal actions,
non-empty for the player to act, zeros for everyone else), the game's conserved
quantities never change, observations fit their space, and a deal always ends.
"""

from __future__ import annotations

import numpy as np

import rams_env
from rams_env.registry import GAMES, game_class

MAX_STEPS = 20_000


def cases(extra_players: bool = True) -> list[tuple[str, str, int]]:
    """(game, preset, players) for every registered game and preset, smallest and largest table."""
    out = []
    for game in GAMES:
        cls = game_class(game)
        for preset in cls.rules_type.preset_names():
            g = rams_env.make_game(game, preset=preset)
            lo, hi = g.player_range()
            sizes = sorted({lo, hi, g.num_players}) if extra_players else [g.num_players]
            out.extend((game, preset, n) for n in sizes)
    return out


def random_playout(env, seed: int, rng: np.random.Generator, check_hidden_every: int = 0) -> list[int]:
    """Play one episode with uniform random legal actions, checking invariants; returns actions."""
    env.reset(seed=seed)
    raw = env.unwrapped
    game = raw.game
    conserved = game.conserved(raw.game_state)
    actions: list[int] = []
    totals = [0.0] * game.num_players
    for step in range(MAX_STEPS):
        state = raw.game_state
        if state.terminal:
            break
        seat = state.to_act
        legal = game.legal_actions(state)
        assert legal, f"no legal action for the player to act ({game.name})"
        assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
        for agent in raw.possible_agents:
            obs = raw.observe(agent)
            mask = obs["action_mask"]
            assert raw.observation_space(agent)["observation"].contains(obs["observation"])
            if agent == raw.possible_agents[seat]:
                assert np.flatnonzero(mask).tolist() == legal
            else:
                assert not mask.any(), f"{agent} has a non-zero mask while not to act"
        if check_hidden_every and step % check_hidden_every == 0:
            assert_hidden_information(game, state, rng)
        action = int(legal[rng.integers(len(legal))])
        env.step(action)
        actions.append(action)
        for s, agent in enumerate(raw.possible_agents):
            totals[s] += raw.rewards.get(agent, 0.0)
        assert game.conserved(raw.game_state) == conserved, f"conserved quantities changed after {action}"
    else:
        raise AssertionError(f"{game.name}: episode did not end in {MAX_STEPS} steps")
    final = raw.game_state
    assert totals == [float(x) for x in final.scores], "rewards must add up to the scores"
    assert [sum(d[s] for d in final.deal_results) for s in range(game.num_players)] == final.scores
    for _ in list(env.agents):
        env.step(None)
    return actions


def assert_hidden_information(game, state, rng: np.random.Generator) -> None:
    """Re-dealing the cards a seat cannot see leaves that seat's observation and view unchanged."""
    for seat in range(game.num_players):
        other = game.shuffle_unseen(state, seat, rng)
        a = game.observation.zeros()
        b = game.observation.zeros()
        game.encode(state, seat, a)
        game.encode(other, seat, b)
        diff = [name for name, s in game.observation.slices.items() if not np.array_equal(a[s], b[s])]
        assert not diff, f"{game.name}: seat {seat} observation depends on unseen cards: {diff}"
        assert game.view(state, seat) == game.view(other, seat), f"{game.name}: view of seat {seat} leaks"
