"""The Tippen reference engine driven beside the batched one: the same deals, the same actions, compared.

As ``tests/vector_reference.py`` does for Toepen: ``crosscheck`` plays ``deals`` random deals in
``num_envs`` slots, each with its own reference State; every deal the reference starts is queued
into the batched slot (with its dealer and carried-over pot when it starts an episode) before the
step that starts it there. Before every step the batched observation, mask, seat to act, dealer,
pot and net chips must equal the reference's bit for bit, after it the rewards, the episode ends
and the settlements (reason, pot, each player's share and bête).
"""

from __future__ import annotations

import numpy as np

import rams_env
import rams_env.vector as vector
from rams_env.games.tippen.rules import TrumpFrom
from rams_env.games.tippen.state import Phase
from rams_env.vector.tippen.state import REASONS


def deal_order(game, state) -> np.ndarray:
    """The pack permutation the reference dealt: hands seat by seat, the turned trump card (if any), the talon."""
    turned = [state.trump_card] if game.rules.trump_from is TrumpFrom.TURNED else []
    cards = [c for hand in state.hands for c in hand] + turned + list(state.talon)
    return np.array([game.pack().index[c] for c in cards], np.int64)


def crosscheck(preset: str, n: int, deals: int, *, episode: str = "deal", random_carry: bool = False,
               num_envs: int = 64, seed: int = 0, **rules) -> dict[str, int]:
    """Play ``deals`` deals in both engines, comparing every step; returns what was compared."""
    env = vector.make("tippen", num_envs=num_envs, num_players=n, preset=preset, episode=episode,
                      random_carry=random_carry, **rules)
    game = rams_env.make_game("tippen", n, preset=preset, session=episode == "session", **rules)
    rngs = [np.random.default_rng([seed, b]) for b in range(num_envs)]
    states = [_new_episode(game, env, rngs[b], random_carry, b) for b in range(num_envs)]
    env.reset(seed=seed)
    chooser = np.random.default_rng([seed, 99])
    counts = {"decisions": 0, "deals": 0, "episodes": 0}
    while counts["deals"] < deals:
        actions = np.empty(num_envs, np.int64)
        for b, state in enumerate(states):
            _compare_position(env, game, state, b)
            legal = game.legal_actions(state)
            actions[b] = legal[chooser.integers(len(legal))]
        expected = np.zeros((num_envs, n), np.float32)
        ended = np.zeros(num_envs, bool)
        settled = {}
        for b in range(num_envs):
            states[b], expected[b], ended[b], settled[b] = _reference_step(game, states[b], int(actions[b]), rngs[b],
                                                                           random_carry, env, b)
        env.step(actions)
        assert np.array_equal(env.rewards, expected), "rewards differ"
        assert np.array_equal(env.done, ended), f"episode ends differ in deals {np.flatnonzero(env.done != ended)}"
        for b, breakdown in settled.items():
            _compare_settlement(env.deals[b], breakdown, b, n)
            counts["deals"] += breakdown is not None
        counts["decisions"] += num_envs
        counts["episodes"] += int(ended.sum())
    return counts


def _new_episode(game, env, rng, random_carry, b):
    state = game.new_state(rng, None, random_carry=random_carry)
    antes = game.rules.stake * (1 + state.hops)
    carried = state.ledger.pot + state.ledger.set_aside - antes  # before the antes and the cap
    first_dealer = (state.dealer - state.hops) % game.num_players
    env.queue_deals([b], _dealt(game, state), [first_dealer], [carried], [state.hops])
    return state


def _dealt(game, state) -> np.ndarray:
    """The cards of the deal, or (shoving: not dealt yet) any order, replaced once the reference deals."""
    return np.arange(len(game.pack())) if state.phase is Phase.SHOVE else deal_order(game, state)


def _reference_step(game, state, action, rng, random_carry, env, b):
    """One reference move; a new deal or episode it starts is queued into the batched slot ``b``."""
    before, played, shoving = list(state.scores), state.deals_played, state.phase is Phase.SHOVE
    game.apply(state, action)
    if shoving and state.phase is not Phase.SHOVE and state.deals_played == played:  # dealt at last
        env.queue_deals([b], deal_order(game, state))
    reward = np.array(state.scores, np.float32) - np.array(before, np.float32)
    breakdown = state.deal_breakdowns[-1] if state.deals_played > played else None
    if state.terminal:
        return _new_episode(game, env, rng, random_carry, b), reward, True, breakdown
    if breakdown is not None:
        env.queue_deals([b], _dealt(game, state), hops=[state.hops])
    return state, reward, False, breakdown


def _compare_settlement(record, breakdown, b, n) -> None:
    """The batched record's last settlement against the reference's breakdown."""
    assert bool(record["settled"]) == (breakdown is not None), f"deal {b}: settled differs"
    if breakdown is None:
        return
    assert REASONS[record["reason"]] == breakdown["reason"], f"deal {b}: reason differs"
    got = int(record["settled_pot"]), int(record["settled_set_aside"])
    assert got == (breakdown["pot"], breakdown["set_aside"]), f"deal {b}: pot, set aside after the deal {got}"
    if breakdown["reason"] == "played":
        for name, field in (("shares", "share"), ("betes", "bete")):
            got = {s: int(record[field][s]) for s in breakdown[name]}
            assert got == breakdown[name], f"deal {b}: {name} {got} != {breakdown[name]}"


def _compare_position(env, game, state, b) -> None:
    seat = state.to_act
    expected = game.observation.zeros()
    game.encode(state, seat, expected)
    n = game.num_players
    record = env.deals[b]
    assert env.to_act[b] == seat, f"deal {b}: to act {env.to_act[b]} != {seat}"
    if not np.array_equal(env.obs[b], expected):
        diff = [name for name, s in game.observation.slices.items() if not np.array_equal(env.obs[b][s], expected[s])]
        raise AssertionError(f"deal {b}: observation differs in {diff} (phase {state.phase})")
    legal = np.flatnonzero(env.mask[b]).tolist()
    assert legal == game.legal_actions(state), f"deal {b}: legal {legal} != {game.legal_actions(state)}"
    assert record["net"][:n].tolist() == state.scores, f"deal {b}: net chips differ"
    assert (record["dealer"], record["pot"]) == (state.dealer, state.ledger.pot), f"deal {b}: dealer or pot differs"
