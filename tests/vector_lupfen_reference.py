"""The Lupfen reference engine driven beside the batched one: the same deals, the same actions, compared.

As tests/vector_reference.py does for Toepen: ``crosscheck`` plays ``deals`` random deals in
``num_envs`` slots, each with its own reference State (``Game.new_state`` with its own
generator, as the AEC env's reset does). Lupfen deals its cards at the start of a deal, when a
shoving dealer deals, and again after a scrap: whenever the reference has dealt, the cards are
queued into the batched slot before the step that deals them there; a new episode's dealer and
carried-over pot are queued likewise. Before every step the batched observation, mask, seat to
act, dealer, pot and every seat's net result must equal the reference's bit for bit; after it
the rewards (the AEC env's: score changes not yet paid, from 0 at each episode's start), the
episode ends and the settlements (reason, each seat's result of the deal, the pot left, the
holder of three Unters).
"""

from __future__ import annotations

import numpy as np

import rams_env
import rams_env.vector as vector
from rams_env.core.cards import LUPFEN_20
from rams_env.vector.lupfen.state import REASONS

DEALT = len(LUPFEN_20)


class Slot:
    """One reference deal beside batched slot ``b``: its State, generator and the rewards paid so far."""

    def __init__(self, game, env, b: int, seed: int, random_carry: bool) -> None:
        self.game, self.env, self.b, self.random_carry = game, env, b, random_carry
        self.rng = np.random.default_rng([seed, b])
        self.new_episode()

    def new_episode(self) -> None:
        self.state = self.game.new_state(self.rng, None, random_carry=self.random_carry)
        ledger = self.state.ledger
        carried = ledger.pot - sum(ledger.paid_in)  # the pot before this deal's fee and antes
        self.env.queue_deals([self.b], dealers=[self.state.dealer], pots=[carried])
        self.paid = np.zeros(self.game.num_players, np.float32)
        self.stock = None
        self.queue_if_dealt()

    def queue_if_dealt(self) -> None:
        """The reference has dealt (a new stock list of the undealt cards): the batched slot deals the same."""
        state = self.state
        if state.stock is not self.stock and len(state.stock) == DEALT - 3 * self.game.num_players:
            cards = [c for hand in state.hands for c in hand] + list(state.stock)
            self.env.queue_deals([self.b], [[LUPFEN_20.index[c] for c in cards]])
        self.stock = state.stock

    def step(self, action: int):
        """One reference move: (rewards, episode ended, breakdown of a settled deal or None)."""
        state, played = self.state, self.state.deals_played
        self.game.apply(state, action)
        scores = np.array(state.scores, np.float32)
        reward, self.paid = scores - self.paid, scores
        settled = (state.deal_breakdowns[-1], state.deal_results[-1]) if state.deals_played > played else None
        if state.terminal:
            self.new_episode()
            return reward, True, settled
        self.queue_if_dealt()
        return reward, False, settled


def crosscheck(preset: str, n: int, deals: int, *, episode: str = "deal", random_carry: bool = False,
               num_envs: int = 64, seed: int = 0, **rules) -> dict[str, int]:
    """Play ``deals`` deals in both engines (``preset`` with ``rules`` changed), comparing every step;
    returns what was compared."""
    env = vector.make("lupfen", num_envs=num_envs, num_players=n, preset=preset, episode=episode,
                      random_carry=random_carry, **rules)
    game = rams_env.make_game("lupfen", n, preset=preset, session=episode == "session", **rules)
    slots = [Slot(game, env, b, seed, random_carry) for b in range(num_envs)]
    env.reset(seed=seed)
    chooser = np.random.default_rng([seed, 99])
    counts = {"decisions": 0, "deals": 0, "episodes": 0, "scraps": 0, "shoves": 0, **{reason: 0 for reason in REASONS}}
    while counts["deals"] < deals:
        actions = np.empty(num_envs, np.int64)
        for slot in slots:
            _compare_position(env, game, slot.state, slot.b)
            legal = game.legal_actions(slot.state)
            actions[slot.b] = legal[chooser.integers(len(legal))]
        outcomes = [slot.step(int(actions[slot.b])) for slot in slots]
        env.step(actions)
        assert np.array_equal(env.rewards, np.array([o[0] for o in outcomes])), "rewards differ"
        ended = np.array([o[1] for o in outcomes])
        assert np.array_equal(env.done, ended), f"episode ends differ in deals {np.flatnonzero(env.done != ended)}"
        for b, (_, _, settled) in enumerate(outcomes):
            _compare_settlement(env.deals[b], settled, n, b)
            if settled is not None:
                counts["deals"] += 1
                counts[settled[0]["reason"]] += 1
                counts["scraps"] += len(settled[0].get("scrapped_by", ()))
        counts["shoves"] += int(sum(actions == game.ids["shove"]))
        counts["decisions"] += num_envs
        counts["episodes"] += int(ended.sum())
    return counts


def _compare_settlement(record, settled, n: int, b: int) -> None:
    assert bool(record["settled"]) == (settled is not None), f"deal {b}: settled differs"
    if settled is None:
        return
    breakdown, result = settled
    got = (REASONS[record["reason"]], record["result"][:n].tolist(), int(record["result_pot"]),
           int(record["three_unters"]))
    expected = (breakdown["reason"], result, breakdown["pot"], breakdown.get("three_unters", -1))
    assert got == expected, f"deal {b}: settlement {got} != {expected}"


def _compare_position(env, game, state, b: int) -> None:
    seat, n, record = state.to_act, game.num_players, env.deals[b]
    expected = game.observation.zeros()
    game.encode(state, seat, expected)
    assert env.to_act[b] == seat, f"deal {b}: to act {env.to_act[b]} != {seat}"
    if not np.array_equal(env.obs[b], expected):
        diff = [name for name, s in game.observation.slices.items() if not np.array_equal(env.obs[b][s], expected[s])]
        raise AssertionError(f"deal {b}: observation differs in {diff} (phase {state.phase})")
    legal = np.flatnonzero(env.mask[b]).tolist()
    assert legal == game.legal_actions(state), f"deal {b}: legal {legal} != {game.legal_actions(state)}"
    assert (record["dealer"], record["pot"]) == (state.dealer, state.ledger.pot), f"deal {b}: dealer or pot differs"
    assert record["net"][:n].tolist() == state.scores, f"deal {b}: net results differ"
