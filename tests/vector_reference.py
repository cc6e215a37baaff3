"""The reference engine driven beside the batched one: the same deals, the same actions, compared.

``crosscheck`` plays ``deals`` random deals in ``num_envs`` slots. Each slot has its own
reference State (``Game.new_state`` with its own generator, as the AEC env's reset does);
every deal the reference starts is queued into the batched slot before the step that starts
it there, so both play the same cards. Before every step the batched observation, mask, seat
to act, dealer and lives must equal the reference's bit for bit, after it the rewards, the
episode ends and the settlements (winner, stake, reason).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np

import rams_env
import rams_env.vector as vector
from rams_env.core.cards import PIQUET_32, rank_of
from rams_env.core.seating import seats_from
from rams_env.games.toepen import openings
from rams_env.games.toepen.game import Toepen
from rams_env.games.toepen.state import Phase, Signal
from rams_env.vector.toepen.state import REASON_ALL_FOLDED, REASON_LAST_TRICK

REASONS = {"last_trick": REASON_LAST_TRICK, "all_folded": REASON_ALL_FOLDED}


# ------------------------------------------------- the announcement rule of issue 14
def _asks_everyone() -> bool:
    """Whether the reference already asks every seat in the announcement phase (the fix of issue 14)."""
    game = rams_env.make_game("toepen", 3, dirty_hands=False)
    deal = {"hands": [["7c", "8c", "9c", "Ac"], ["7s", "8s", "9s", "As"], ["7h", "8h", "9h", "Ah"]]}
    state = game.new_state(np.random.default_rng(0), {"deal": deal, "dealer": 0})
    return state.phase is Phase.ANNOUNCE


def _begin_announce(game: Toepen, state) -> None:
    """Issue 14's rule: tens announced at once, then every seat still in asked from forehand."""
    state.queue = []
    if game.rules.announcements:
        for seat in seats_from(game.num_players, state.leader, state.in_play):
            tens = sum(rank_of(c) == "10" for c in state.hands[seat])
            if tens >= 3:
                state.signals[seat] = Signal.STAND if tens == 4 else Signal.WHISTLE
            state.queue.append(seat)
    if state.queue:
        state.phase, state.to_act = Phase.ANNOUNCE, state.queue[0]
    else:
        openings._begin_poverty(game, state)


def _legal_actions(original):
    def legal(game: Toepen, state) -> list[int]:
        if state.terminal or state.phase is not Phase.ANNOUNCE:
            return original(game, state)
        hand = state.hands[state.to_act]
        jacks, tens = (sum(rank_of(c) == r for c in hand) for r in ("J", "10"))
        ids = game.ids
        return sorted([ids["announce"], ids["silent"]]) if jacks >= 3 and tens < 3 else [ids["silent"]]
    return legal


@contextlib.contextmanager
def announce_rule() -> Iterator[None]:
    """The reference with issue 14's announcement phase (patched only while it does not have it yet)."""
    if _asks_everyone():
        yield
        return
    saved = openings._begin_announce, Toepen.legal_actions
    openings._begin_announce, Toepen.legal_actions = _begin_announce, _legal_actions(Toepen.legal_actions)
    try:
        yield
    finally:
        openings._begin_announce, Toepen.legal_actions = saved


# ------------------------------------------------------------------- cross-check
def deal_order(state) -> np.ndarray:
    """The pack permutation the reference dealt: hands seat by seat, then the stock top first."""
    cards = [c for hand in state.hands for c in hand] + list(state.stock)
    return np.array([PIQUET_32.index[c] for c in cards], np.int64)


def crosscheck(preset: str, n: int, deals: int, *, episode: str = "deal", random_carry: bool = False,
               num_envs: int = 64, seed: int = 0) -> dict[str, int]:
    """Play ``deals`` deals in both engines, comparing every step; returns what was compared."""
    with announce_rule():
        return _crosscheck(preset, n, deals, episode, random_carry, num_envs, seed)


def _crosscheck(preset, n, deals, episode, random_carry, num_envs, seed) -> dict[str, int]:
    env = vector.make("toepen", num_envs=num_envs, num_players=n, preset=preset, episode=episode,
                      random_carry=random_carry)
    game = rams_env.make_game("toepen", n, preset=preset, session=episode == "session")
    rngs = [np.random.default_rng([seed, b]) for b in range(num_envs)]
    states = [game.new_state(rngs[b], None, random_carry=random_carry) for b in range(num_envs)]
    for b, state in enumerate(states):
        env.queue_deals([b], deal_order(state), [state.dealer], [state.lives_lost])
    obs, mask, to_act = env.reset(seed=seed)
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
            _compare_settlement(env.deals[b], breakdown, b)
            counts["deals"] += breakdown is not None
        counts["decisions"] += num_envs
        counts["episodes"] += int(ended.sum())
    return counts


def _reference_step(game, state, action, rng, random_carry, env, b):
    """One reference move; a new deal or episode it starts is queued into the batched slot ``b``."""
    before, played = list(state.scores), state.deals_played
    game.apply(state, action)
    reward = np.array(state.scores, np.float32) - np.array(before, np.float32)
    breakdown = state.deal_breakdowns[-1] if state.deals_played > played else None
    if state.terminal:
        state = game.new_state(rng, None, random_carry=random_carry)
        env.queue_deals([b], deal_order(state), [state.dealer], [state.lives_lost])
        return state, reward, True, breakdown
    if breakdown is not None:
        env.queue_deals([b], deal_order(state))
    return state, reward, False, breakdown


def _compare_settlement(record, breakdown, b) -> None:
    """The batched record's last settlement (winner, stake, reason) against the reference's breakdown."""
    assert bool(record["settled"]) == (breakdown is not None), f"deal {b}: settled differs"
    if breakdown is not None:
        got = (int(record["winner"]), int(record["result_stake"]), int(record["reason"]))
        assert got == (breakdown["winner"], breakdown["stake"], REASONS[breakdown["reason"]]), f"deal {b}: {got}"


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
    assert record["lives_lost"][:n].tolist() == state.lives_lost, f"deal {b}: lives differ"
    assert record["dealer"] == state.dealer, f"deal {b}: dealer differs"
