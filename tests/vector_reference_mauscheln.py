"""The Mauscheln reference engine driven beside the batched one: the same deals, the same actions.

``crosscheck`` plays ``deals`` random deals in ``num_envs`` slots. Each slot has its own
reference State. A new episode's dealer, carried-over pot (the reference's ``random_carry``)
and cards are drawn by the test and given to both engines (the reference as reset options,
the batched one through ``queue_deals``); a session's next deal, which the reference shuffles
inside ``apply``, is recovered from a copy of its generator and queued into the batched slot
before the step that starts it. Before every step the batched observation, mask, seat to
act, dealer, bankrolls and pot must equal the reference's bit for bit; after it the rewards
(score changes since the last reward, counted from 0 at reset, as the AEC env pays them),
the episode ends and the settlements (reason, pot, paid in, shares and bêtes).
"""

from __future__ import annotations

import copy

import numpy as np

import rams_env
import rams_env.vector as vector
from rams_env.vector.mauscheln.state import REASONS


def crosscheck(preset: str, n: int, deals: int, *, episode: str = "deal", random_carry: bool = False,
               num_envs: int = 64, seed: int = 0, **rules) -> dict[str, int]:
    """Play ``deals`` deals in both engines, comparing every step; returns what was compared."""
    session = episode == "session"
    env = vector.make("mauscheln", num_envs=num_envs, num_players=n, preset=preset, episode=episode,
                      random_carry=random_carry, **rules)
    game = rams_env.make_game("mauscheln", n, preset=preset, session=session, **rules)
    slots = [_Slot(game, env, b, np.random.default_rng([seed, b]), random_carry) for b in range(num_envs)]
    obs, mask, to_act = env.reset(seed=seed)
    chooser = np.random.default_rng([seed, 99])
    counts = {"decisions": 0, "deals": 0, "episodes": 0}
    while counts["deals"] < deals:
        actions = np.empty(num_envs, np.int64)
        for slot in slots:
            slot.compare_position()
            legal = game.legal_actions(slot.state)
            actions[slot.b] = legal[chooser.integers(len(legal))]
        results = [slot.step(int(actions[slot.b])) for slot in slots]
        env.step(actions)
        expected = np.array([reward for reward, _, _ in results], np.float32)
        ended = np.array([end for _, end, _ in results])
        wrong = np.flatnonzero((env.rewards != expected).any(axis=1))
        assert not wrong.size, f"rewards differ in deals {wrong}"
        assert np.array_equal(env.done, ended), f"episode ends differ in deals {np.flatnonzero(env.done != ended)}"
        for slot, (_, _, breakdown) in zip(slots, results, strict=True):
            _compare_settlement(env.deals[slot.b], breakdown, slot.b, n)
            counts["deals"] += breakdown is not None
        counts["decisions"] += num_envs
        counts["episodes"] += int(ended.sum())
    return counts


class _Slot:
    """One batched slot and its reference State."""

    def __init__(self, game, env, b: int, rng: np.random.Generator, random_carry: bool) -> None:
        self.game, self.env, self.b, self.rng, self.random_carry = game, env, b, rng, random_carry
        self.cards = len(game.pack())
        self.new_episode()

    def new_episode(self) -> None:
        """The reference's new episode with a dealer, pot and cards drawn here, queued in the slot too."""
        game, rng = self.game, self.rng
        carry = game.random_carry(rng) if self.random_carry else {}
        dealer = int(rng.integers(game.num_players))
        order = rng.permutation(self.cards)
        self.state = game.new_state(rng, {"deal": _as_deal(game, order), "dealer": dealer, **carry})
        self.env.queue_deals([self.b], order, [dealer], pots=[carry.get("pot", 0)],
                             bankrolls=[self.state.session_start])
        self.paid = [0] * game.num_players

    def step(self, action: int):
        """One reference move: (rewards as the AEC env pays them, episode over, settled deal's breakdown)."""
        state, game = self.state, self.game
        played, probe = state.deals_played, copy.deepcopy(state.rng)
        game.apply(state, action)
        reward = [s - p for s, p in zip(state.scores, self.paid, strict=True)]
        self.paid = list(state.scores)
        breakdown = state.deal_breakdowns[-1] if state.deals_played > played else None
        if state.terminal:
            self.new_episode()
            return reward, True, breakdown
        if breakdown is not None:  # the session's next deal, shuffled inside apply: the same draw
            order = probe.permutation(self.cards)
            assert game.pack().cards[order[4 * game.num_players]] == state.turned, "the reference's draw moved"
            self.env.queue_deals([self.b], order)
        return reward, False, breakdown

    def compare_position(self) -> None:
        env, game, state, b = self.env, self.game, self.state, self.b
        seat = state.to_act
        expected = game.observation.zeros()
        game.encode(state, seat, expected)
        record = env.deals[b]
        assert env.to_act[b] == seat, f"deal {b}: to act {env.to_act[b]} != {seat}"
        if not np.array_equal(env.obs[b], expected):
            diff = [name for name, s in game.observation.slices.items()
                    if not np.array_equal(env.obs[b][s], expected[s])]
            raise AssertionError(f"deal {b}: observation differs in {diff} (phase {state.phase})")
        legal = np.flatnonzero(env.mask[b]).tolist()
        assert legal == game.legal_actions(state), f"deal {b}: legal {legal} != {game.legal_actions(state)}"
        n = game.num_players
        assert record["bankrolls"][:n].tolist() == state.ledger.bankrolls, f"deal {b}: bankrolls differ"
        assert (record["pot"], record["dealer"]) == (state.ledger.pot, state.dealer), f"deal {b}: pot or dealer"


def _as_deal(game, order) -> dict:
    """The reset option ``deal`` for a pack permutation: hands seat by seat, then the stock (turned first)."""
    codes = [game.pack().codes[i] for i in order]
    hands = [codes[4 * s:4 * s + 4] for s in range(game.num_players)]
    return {"hands": hands, "stock": codes[4 * game.num_players:]}


def _compare_settlement(record, breakdown, b: int, n: int) -> None:
    assert bool(record["settled"]) == (breakdown is not None), f"deal {b}: settled differs"
    if breakdown is None:
        return
    got = (REASONS[record["reason"]], int(record["result_pot"]), record["result_paid_in"][:n].tolist())
    assert got == (breakdown["reason"], breakdown["pot"], breakdown["paid_in"]), f"deal {b}: {got} {breakdown}"
    if breakdown["reason"] == "played":
        for name in ("shares", "betes"):
            want = [breakdown[name].get(s, 0) for s in range(n)]
            assert record[name][:n].tolist() == want, f"deal {b}: {name} {record[name][:n]} != {want}"
