"""Checks every game must pass, shared by tests/test_conformance.py and the game test files.

A random legal playout is checked on every step: the mask is exact (the legal actions,
non-empty for the player to act, zeros for everyone else), the game's conserved
quantities never change, observations fit their space, and a deal always ends. The
leak check (below) compares what a seat sees in worlds that differ only in cards she
cannot see. ``python -m tests.conformance [deals]`` prints how much it compares over every
game, preset and table size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

import rams_env
from rams_env.core.cards import code
from rams_env.core.observation import OBS_DTYPE
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


def every_table_size() -> list[tuple[str, str, int]]:
    """(game, preset, players) for every registered game and preset at every table size its rules allow."""
    out = []
    for game, preset, _ in cases(extra_players=False):
        lo, hi = rams_env.make_game(game, preset=preset).player_range()
        out.extend((game, preset, n) for n in range(lo, hi + 1))
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
        assert_redeal_ignores_where_unseen_cards_lie(game, state, other, seat, int(rng.integers(2**32)))


def assert_redeal_ignores_where_unseen_cards_lie(game, state, other, seat: int, seed: int) -> None:
    """``other`` holds the cards ``seat`` cannot see in other places than ``state``: re-dealt with generators in the
    same state, both give the same world. A searcher that samples worlds with ``shuffle_unseen`` then chooses alike
    whatever the true deal behind what it saw, draw for draw and not only on average."""
    worlds = [game.shuffle_unseen(s, seat, np.random.default_rng(seed)) for s in (state, other)]
    places = [[getattr(world, name) for name in game.card_places] for world in worlds]
    assert places[0] == places[1], f"{game.name}: seat {seat}'s re-deal depends on where its unseen cards lie"


# ------------------------------------------------------------------ hidden-information leaks
# A seat's observation, view, and the agent to act must be functions of what that seat has seen and of the
# public history. So take a random deal (world A), pick two cards the observer cannot see at the start that lie
# in different places (two other hands, a hand and the stock...), and build world B: the same deal with the two
# cards exchanged, same seed, same actions. Until one of the two cards comes into the observer's sight in A, an
# action of the history becomes illegal in B, or the rules themselves tell the worlds apart
# (Game.compulsory_reveals: Toepen's tens, a Ständer...), the observer must see exactly the same thing at every
# step, whether she is to act or not. Unlike shuffle_unseen, this catches a turn given only to the holder of a
# hidden combination (the phase and the seat to act give the holding away).


@dataclass
class LeakCount:
    """How much the leak check compared: world pairs, and observer steps over all of them."""

    deals: int = 0
    worlds: int = 0
    steps: int = 0
    told_apart: int = 0
    """World pairs that an illegal action or a compulsory reveal told apart before a swapped card came in sight."""

    def add(self, other: LeakCount) -> None:
        for name in ("deals", "worlds", "steps", "told_apart"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Trajectory:
    """World A: the actions, and per step what every seat saw and what the rules made public."""

    reset: dict
    actions: list[int] = field(default_factory=list)
    seen: list[list[tuple]] = field(default_factory=list)  # [step][seat] -> observer_record
    reveals: list[Any] = field(default_factory=list)
    first_seen: list[dict[str, int]] = field(default_factory=list)  # per seat: card code -> first step in sight
    places: dict[int, int] = field(default_factory=dict)  # card -> where the first deal put it (seat, or -1)


def observer_record(raw, seat: int) -> tuple:
    """Everything ``seat`` is shown: observation, mask, view, the agent to act, her reward and whether it ended."""
    agent = raw.possible_agents[seat]
    obs = raw.observe(agent)
    to_act = None if raw.game_state.terminal else raw.agent_selection
    return (obs["observation"].tobytes(), obs["action_mask"].tobytes(), raw.view(agent), to_act,
            raw.rewards.get(agent), raw.game_state.terminal)


def card_codes(value: Any, codes: frozenset[str]) -> set[str]:
    """Every card code that appears anywhere in a view (nested lists, tuples, dicts, spaced strings)."""
    if isinstance(value, str):
        return {t for t in value.split() if t in codes}
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set)):
        return set().union(*(card_codes(v, codes) for v in value)) if value else set()
    return set()


def deal_relabelled(game, swap: dict[int, int] | None, record: dict[int, int] | None = None):
    """Make ``game`` deal as before, with the cards of ``swap`` exchanged (world B); ``record`` keeps where
    the first deal put each card. Every game deals through Game.complete_deal, so this reaches all of them."""
    original = type(game).complete_deal.__get__(game)

    def complete_deal(state, deal, hand_size):
        hands, stock = original(state, deal, hand_size)
        if swap:
            hands = [[swap.get(c, c) for c in h] for h in hands]
            stock = [swap.get(c, c) for c in stock]
        if record is not None and not record:
            record.update({c: s for s, h in enumerate(hands) for c in h})
            record.update({c: -1 for c in stock})
        return hands, stock

    game.complete_deal = complete_deal


def record_world(env, reset: dict, choose: Callable[[list[int]], int]) -> Trajectory:
    """Play world A with ``choose`` picking among the legal actions; record what every seat saw."""
    raw = env.unwrapped
    game, n = raw.game, raw.game.num_players
    codes = frozenset(game.pack().codes)
    traj = Trajectory(reset, first_seen=[{} for _ in range(n)])
    deal_relabelled(game, None, traj.places)
    env.reset(**reset)
    for _ in range(MAX_STEPS):
        traj.seen.append([observer_record(raw, s) for s in range(n)])
        traj.reveals.append(game.compulsory_reveals(raw.game_state))
        for s in range(n):
            for card in card_codes(traj.seen[-1][s][2], codes):
                traj.first_seen[s].setdefault(card, len(traj.seen) - 1)
        if raw.game_state.terminal:
            return traj
        action = choose(raw.legal_actions())
        traj.actions.append(action)
        env.step(action)
    raise AssertionError(f"{game.name}: episode did not end in {MAX_STEPS} steps")


def replay_against(env, reset: dict, traj: Trajectory, observer: int, what: str,
                   until: int | None = None) -> LeakCount:
    """Replay world A's actions in ``env`` (world B); the observer must see the same at every step before
    ``until`` (the step at which a card that differs comes into her sight)."""
    raw = env.unwrapped
    game = raw.game
    env.reset(**reset)
    count = LeakCount(worlds=1)
    for step, expected in enumerate(traj.seen[:until]):
        if game.compulsory_reveals(raw.game_state) != traj.reveals[step]:
            count.told_apart = 1
            break
        got = observer_record(raw, observer)
        if got != expected[observer]:
            raise AssertionError(f"{game.name} {what}: seat {observer} sees a difference at step {step} "
                                 f"(after {[raw.action_label(a) for a in traj.actions[:step]]}): "
                                 f"{describe_difference(game, expected[observer], got)}")
        count.steps += 1
        if step == len(traj.actions):
            break
        if traj.actions[step] not in raw.legal_actions():
            count.told_apart = 1
            break
        env.step(traj.actions[step])
    count.worlds = int(count.steps > 0)  # a pair told apart before the first comparison compared nothing
    return count


RECORD_PARTS = ("observation", "action_mask", "view", "agent to act", "reward", "terminal")


def describe_difference(game, a: tuple, b: tuple) -> str:
    parts = [name for name, x, y in zip(RECORD_PARTS, a, b, strict=True) if x != y]
    if "observation" in parts:
        va, vb = (np.frombuffer(x, dtype=OBS_DTYPE) for x in (a[0], b[0]))
        parts += [f"field {f}" for f, s in game.observation.slices.items() if not np.array_equal(va[s], vb[s])]
    if "view" in parts:
        parts += [f"view[{k!r}] {a[2][k]!r} vs {b[2].get(k)!r}" for k in a[2] if a[2][k] != b[2].get(k)]
    if "agent to act" in parts:
        parts.append(f"{a[3]} vs {b[3]}")
    return ", ".join(parts)


def hidden_pairs(traj: Trajectory, observer: int, rng: np.random.Generator, count: int) -> list[tuple[int, int]]:
    """Up to ``count`` pairs of cards the observer cannot see at the start of world A, dealt to different places."""
    unseen = [c for c in traj.places if traj.first_seen[observer].get(code(c), 1) > 0]
    pairs: set[tuple[int, int]] = set()
    for _ in range(8 * count):
        if len(pairs) == count or len(unseen) < 2:
            break
        x, y = (unseen[i] for i in rng.choice(len(unseen), 2, replace=False))
        if traj.places[x] != traj.places[y]:
            pairs.add((min(x, y), max(x, y)))
    return sorted(pairs)


def leak_check(make_env: Callable[[], Any], seed: int, rng: np.random.Generator, pairs: int = 2) -> LeakCount:
    """One random deal: for every observer, ``pairs`` worlds that differ from it only in cards she never sees."""
    env_a, env_b = make_env(), make_env()
    traj = record_world(env_a, {"seed": seed}, lambda legal: int(legal[rng.integers(len(legal))]))
    count = LeakCount(deals=1)
    for observer in range(env_a.unwrapped.game.num_players):
        for x, y in hidden_pairs(traj, observer, rng, pairs):
            deal_relabelled(env_b.unwrapped.game, {x: y, y: x})
            in_sight = min(traj.first_seen[observer].get(code(c), len(traj.seen)) for c in (x, y))
            count.add(replay_against(env_b, traj.reset, traj, observer, f"seed {seed}, {code(x)}<->{code(y)}",
                                     until=in_sight))
    return count


def compare_deals(make_env: Callable[[], Any], reset_a: dict, reset_b: dict, observer: int,
                  choose: Callable[[list[int]], int]) -> LeakCount:
    """Two fixed deals (reset options) that look the same to ``observer``: she must see the same throughout."""
    env_a, env_b = make_env(), make_env()
    traj = record_world(env_a, reset_a, choose)
    return replay_against(env_b, reset_b, traj, observer, f"{reset_a} vs {reset_b}")


def leak_census(game: str, preset: str, n: int, deals: int) -> LeakCount:
    """The leak check over ``deals`` random deals of one table, fresh and mid-session (random carry) in turn."""
    count, rng = LeakCount(), np.random.default_rng(n)
    for seed in range(deals):
        make = partial(rams_env.make, game, n, preset=preset, random_carry=seed % 2 == 1)
        count.add(leak_check(make, seed, rng))
    return count


def main(argv: list[str]) -> None:
    """Print the leak check's counts per game and in total (the figures quoted in issue 14's closing note)."""
    deals = int(argv[0]) if argv else 3
    totals: dict[str, LeakCount] = {}
    for game, preset, n in every_table_size():
        totals.setdefault(game, LeakCount()).add(leak_census(game, preset, n, deals))
        totals.setdefault("configurations", LeakCount()).deals += 1
    configurations = totals.pop("configurations").deals
    grand = LeakCount()
    for game, count in totals.items():
        grand.add(count)
        print(f"{game:10} deals {count.deals:6}  world pairs {count.worlds:7}  steps compared {count.steps:9}"
              f"  told apart by the rules {count.told_apart:6}")
    print(f"{configurations} configurations (game x preset x table size), {deals} deals each: {grand.worlds} world "
          f"pairs, {grand.steps} observer steps compared, no leak")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
