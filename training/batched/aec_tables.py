"""Python-engine tables whose scripted seats are played by registry agents (``heuristic``, ``heuristic:bluffer`` ...).

:class:`AecTables` looks like one ``rams_env.vector`` BatchEnv to :class:`~training.batched.sources.VectorTables`
(``reset``, ``step``, the same arrays), so the learner meets scripted styles in the same rollout as its
self-play deals: the seats it leaves free are the league's, batched with every other slot's forward; the
scripted seats act inside ``step`` (one Python call per scripted decision, through the deal loop's own
``chosen`` in agents/table.py, so each agent gets only what it reads) until a free seat must act.

When a deal ends in a step, its last rewards are reported with ``done``; the next deal begins at once and
its scripted seats play up to the first free decision: rewards they cause then (antes) are reported with
the next step, so they never mix with the finished deal's. A deal that ends before any free seat acts is
dealt again. The scripted seats of each slot are ``fixed[b, s]``; the league leaves them alone.

Two ways to seat them, the strength gate's two ways round (evaluation/strength.py): by default every seat is
drawn from the ``scripted`` shares, so with large shares the learner mostly sits alone among scripted players;
``lone=True`` seats exactly one scripted player per deal (its seat uniform, its style drawn from the shares
as weights) among the league's seats, the gate's ``scripted_alone``: the learner meets a lone scripted player
at a table of itself, which self-play alone never shows it.
"""

from __future__ import annotations

import numpy as np

from agents.registry import agent_factories
from agents.table import chosen
from rams_env.core.observation import OBS_DTYPE
from training.batched.tables import TableSpec


def seat_shares(scripted: dict[str, float], lone: bool) -> np.ndarray:
    """The draw of a seat's kind: each spec's share, then a free seat's (``lone``: the lone seat's style, the
    shares as weights, no free kind)."""
    weights = list(scripted.values())
    if not scripted or any(w < 0 for w in weights) or sum(weights) > 1 or (lone and sum(weights) == 0):
        raise ValueError(f"scripted seat shares {scripted}: per spec, not negative, adding up to at most 1"
                         f"{' and above 0' if lone else ''}")
    if lone:
        return np.array([*weights, 0.0]) / sum(weights)
    return np.array([*weights, 1 - sum(weights)])


class AecTables:
    """``num_envs`` deals of one table on the Python engine, each seat scripted with the ``scripted`` weights
    (``lone``: one seat per deal, its style drawn by those weights)."""

    def __init__(self, game_name: str, spec: TableSpec, num_envs: int, scripted: dict[str, float],
                 lone: bool = False) -> None:
        self.lone = lone
        self.seat_p = seat_shares(scripted, lone)
        self.game = spec.make_game(game_name)
        self.num_envs, self.num_players = num_envs, self.game.num_players
        self.specs = list(scripted)
        self.factories = agent_factories(self.specs, self.game)
        self.agents: dict[tuple[int, int, int], object] = {}  # (slot, seat, spec) -> agent, built once
        n, native_obs, native_actions = self.num_players, self.game.observation.size, self.game.actions.size
        self.obs = np.zeros((num_envs, native_obs), OBS_DTYPE)
        self.mask = np.zeros((num_envs, native_actions), np.int8)
        self.to_act = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, n), np.float32)
        self.done = np.zeros(num_envs, bool)
        self.fixed = np.zeros((num_envs, n), bool)  # seats played here by a scripted agent
        self.spec_of = np.full((num_envs, n), -1, np.int64)
        self.states: list = [None] * num_envs
        self.paid = np.zeros((num_envs, n), np.float64)  # scores already reported as rewards
        self.carry = np.zeros((num_envs, n), np.float32)  # a new deal's rewards before its first free decision
        self.rng = np.random.default_rng()

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.rng = np.random.default_rng(seed)
        self.carry[:] = 0
        for slot in range(self.num_envs):
            self._deal(slot)
        return self.obs, self.mask, self.to_act

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The free seat's action in every slot, then the scripted seats up to the next free decision."""
        self.rewards[:], self.carry[:] = self.carry, 0
        for slot in range(self.num_envs):
            state = self.states[slot]
            self.game.apply(state, int(actions[slot]))
            self._play_scripted(slot)
            self.rewards[slot] += self._new_rewards(slot)
            self.done[slot] = state.terminal
            if state.terminal:
                self._deal(slot)
            else:
                self._present(slot)
        return self.obs, self.mask, self.to_act, self.rewards, self.done

    def _deal(self, slot: int) -> None:
        """A new deal in ``slot`` (random carried-over state), its seats drawn, played up to a free decision."""
        while True:
            self.states[slot] = self.game.new_state(self.rng, None, random_carry=True)
            self.paid[slot] = 0
            self._seat(slot)
            self._play_scripted(slot)
            if not self.states[slot].terminal:
                break
        self.carry[slot] += self._new_rewards(slot)
        self._present(slot)

    def _seat(self, slot: int) -> None:
        free = len(self.specs)  # the kind of a league seat
        if self.lone:
            kinds = np.full(self.num_players, free)
            kinds[self.rng.integers(self.num_players)] = self.rng.choice(free, p=self.seat_p[:free])
        else:
            kinds = self.rng.choice(len(self.seat_p), size=self.num_players, p=self.seat_p)
            if (kinds < free).all():
                kinds[self.rng.integers(self.num_players)] = free  # at least one seat for the league
        self.fixed[slot] = kinds < len(self.specs)
        self.spec_of[slot] = np.where(self.fixed[slot], kinds, -1)
        for seat in np.flatnonzero(self.fixed[slot]).tolist():
            self._agent(slot, seat).reset(int(self.rng.integers(2**31)))

    def _agent(self, slot: int, seat: int):
        key = (slot, seat, int(self.spec_of[slot, seat]))
        if key not in self.agents:
            self.agents[key] = self.factories[self.specs[key[2]]](0)
        return self.agents[key]

    def _play_scripted(self, slot: int) -> None:
        """Scripted seats act until a free seat must act or the deal ends."""
        game, state = self.game, self.states[slot]
        while not state.terminal and self.fixed[slot, state.to_act]:
            game.apply(state, chosen(game, state, self._agent(slot, state.to_act)))

    def _new_rewards(self, slot: int) -> np.ndarray:
        scores = np.asarray(self.states[slot].scores, np.float64)
        change, self.paid[slot] = scores - self.paid[slot], scores
        return change.astype(np.float32)

    def _present(self, slot: int) -> None:
        state = self.states[slot]
        self.to_act[slot] = state.to_act
        self.obs[slot] = 0  # encode writes into a zeroed vector: the previous decision's entries must go
        self.game.encode(state, state.to_act, self.obs[slot])
        self.mask[slot] = 0
        self.mask[slot, self.game.legal_actions(state)] = 1
