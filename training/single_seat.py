"""A single-seat Gymnasium view of any rams AEC environment, for single-agent learners.

Each episode the learner takes a seat drawn from the environment's own generator; the
other seats are played by opponents until the learner must act again or the episode
ends. The reward is the learner's OWN reward summed over everything that happened since
its last action (opponents' moves included), so the observation and the reward always
belong to the same seat: the pitfall of PettingZoo issue #1147 cannot occur.

An opponent factory that keeps score (training/pool.py rates its snapshots against the
learner) may offer ``record(table, payoffs, learner_seat)``: it is called when a deal the
learner played is over, with the agents of every seat and every seat's payoff in game units.

A factory that can seat a table again (training/pool.py) offers ``draw(rng) -> keys`` and ``build(keys) ->
agents`` instead of the plain call. Then the env keeps a :class:`DealRecord` of the deal in progress (the deal
seed, the learner's seat, the agents' keys and seeds, every action so far): ``state()`` returns it with the
generator's state, and ``continue_from(state)`` makes the next ``reset`` replay that deal to the same point and
continue the same generator, so a resumed training run plays on exactly where the interrupted one stood
(training/streams.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import gymnasium as gym
import numpy as np

import rams_env
from agents.base import Agent
from agents.table import chosen

OpponentFactory = Callable[[np.random.Generator], list[Agent]]
"""Draws the agents for the other seats of one episode (one per seat, the learner's ignored); optionally with
a ``record(table, payoffs, learner_seat)`` method that hears every finished deal (see the module docstring)."""


@dataclass
class DealRecord:
    """Everything that decided the deal in progress: replaying it rebuilds the same position (JSON-able)."""

    seed: int  # the AEC env's reset seed
    seat: int  # the learner's seat
    agents: list[str] | None  # the factory's key of each seat's agent (learner's seat too); None: not replayable
    agent_seeds: list[int]  # each agent's reset seed
    options: dict | None = None  # the reset options
    moves: list[int] = field(default_factory=list)  # every action applied so far, any seat, in order

    @classmethod
    def from_json(cls, data: Any) -> DealRecord:
        """A record read back from a checkpoint; ValueError when it is not one."""
        try:
            record = cls(**data)
        except TypeError as err:
            raise ValueError(f"not a deal record ({err})") from None
        ints = [record.seed, record.seat, *record.agent_seeds, *record.moves]
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in ints) or not isinstance(
                record.agents, list) or not all(isinstance(k, str) for k in record.agents) or len(
                record.agents) != len(record.agent_seeds):
            raise ValueError("not a deal record (wrong types)")
        return record


class SingleSeatEnv(gym.Env):
    """Gymnasium env: ``observation`` vector in, ``Discrete`` action out, ``action_masks()`` for MaskablePPO."""

    metadata = {"render_modes": []}

    def __init__(self, game: str, opponents: OpponentFactory, num_players: int | None = None,
                 seat: int | None = None, reward_scale: float = 1.0, **options: Any) -> None:
        # a masked-out action ends the deal with a penalty, as checkers that sample unmasked actions expect
        # (Gymnasium's and SB3's check_env); MaskablePPO never plays one
        self.aec = rams_env.raw_env(game, num_players, **{"illegal_action": "penalty", **options})
        self.reward_scale = reward_scale  # the learner sees reward * scale (chips -> O(1) for the value net)
        self.game = self.aec.game
        self.opponents = opponents
        self.fixed_seat = seat
        space = self.aec.observation_space(self.aec.possible_agents[0])
        self.observation_space = space["observation"]
        self.action_space = self.aec.action_space(self.aec.possible_agents[0])
        self._rng = np.random.default_rng()
        self.learner = self.aec.possible_agents[0]
        self._table: list[Agent] = []
        self.episode_return = 0.0
        self._carry = 0.0
        self._record: DealRecord | None = None  # the deal in progress, when the factory can seat it again
        self._script: deque[int] = deque()  # moves still to replay (continue_from)
        self._pending: dict[str, Any] | None = None  # a state to continue at the next reset

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if self._pending is not None:  # continue a recorded deal; its generator state replaces any seed
            return self._replay()
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        while True:
            deal_seed = int(self._rng.integers(2**31))
            n = self.game.num_players
            seat = self.fixed_seat if self.fixed_seat is not None else int(self._rng.integers(n))
            keys, table = self._draw_table()
            seeds = [int(self._rng.integers(2**31)) + i for i in range(len(table))]
            if not self._begin(DealRecord(deal_seed, seat, keys, seeds, options), table):
                break  # else the deal ended before the learner had to act: deal again
        return self._observe(), {"seat": seat}

    def _draw_table(self) -> tuple[list[str] | None, list[Agent]]:
        """(keys, agents) from a factory that can seat a table again, else (None, agents)."""
        if hasattr(self.opponents, "draw"):
            keys = self.opponents.draw(self._rng)
            return keys, self.opponents.build(keys)
        return None, self.opponents(self._rng)

    def _begin(self, record: DealRecord, table: list[Agent]) -> bool:
        """Deal, seat the agents, play until the learner acts; True if the deal ended before that."""
        self._record = record
        self.aec.reset(seed=record.seed, options=record.options)
        self.learner = self.aec.possible_agents[record.seat]
        self._table = table
        for agent, agent_seed in zip(table, record.agent_seeds, strict=True):
            agent.reset(agent_seed)
        # rewards that reach the learner before its first decision (an ante) come with its first step
        self._carry, done = self._play_others()
        self.episode_return = 0.0
        return done

    # ------------------------------------------------------------------ resuming a deal in progress
    def state(self) -> dict[str, Any]:
        """The generator's state and the record of the deal in progress (JSON-able; see the module docstring)."""
        replayable = self._record is not None and self._record.agents is not None
        return {"rng": self._rng.bit_generator.state, "deal": asdict(self._record) if replayable else None}

    def continue_from(self, state: dict[str, Any]) -> None:
        """Make the next ``reset`` replay ``state``'s deal to where it stood and continue its generator."""
        if not isinstance(state, dict) or "rng" not in state or "deal" not in state:
            raise ValueError("not a single-seat env state")
        self._pending = {"rng": state["rng"],
                         "deal": DealRecord.from_json(state["deal"]) if state["deal"] is not None else None}

    def _replay(self):
        pending, self._pending = self._pending, None
        record: DealRecord | None = pending["deal"]
        try:
            self._rng.bit_generator.state = pending["rng"]
        except (TypeError, ValueError, KeyError) as err:
            raise ValueError(f"not a generator state ({err})") from None
        if record is None:  # no deal had begun: deal a new one from the continued generator
            return self.reset()
        self._script = deque(record.moves)
        self._begin(replace(record, moves=[]), self.opponents.build(record.agents))
        while self._script:  # the learner's recorded moves; the others' are taken from the script in between
            self.step(self._script.popleft())
        return self._observe(), {"seat": record.seat}

    def step(self, action: int):
        self._apply(action)
        reward = self.aec.rewards[self.learner] + self._carry
        self._carry = 0.0
        more, done = self._play_others()
        reward = (reward + more) * self.reward_scale
        self.episode_return += reward
        obs = self._observe() if not done else np.zeros(self.observation_space.shape, np.float32)
        if done:
            self._deal_over()
        info = {"breakdown": self.aec.game_state.breakdown, "episode_return": self.episode_return} if done else {}
        return obs, float(reward), done, False, info

    def _deal_over(self) -> None:
        """Tell the opponent factory how the deal went, if it keeps score (see the module docstring)."""
        record = getattr(self.opponents, "record", None)
        if record is not None:
            record(self._table, list(self.aec.game_state.scores), self.aec.possible_agents.index(self.learner))

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (sb3-contrib's MaskablePPO reads this)."""
        return self.aec.observe(self.learner)["action_mask"].astype(bool)

    def _observe(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"]

    def _play_others(self) -> tuple[float, bool]:
        """Opponents act until the learner must act or the episode ends; the learner's reward meanwhile.

        Not the deal loop of agents/table.py: Stable-Baselines3 steps this env one learner decision at a
        time, so the loop stops at the learner's turn and returns; it goes through the AEC env, whose rewards
        the learner is paid in, and replays recorded moves when a resumed run continues a deal."""
        aec, total = self.aec, 0.0
        while not aec.game_state.terminal and aec.agent_selection != self.learner:
            seat = aec.possible_agents.index(aec.agent_selection)
            action = chosen(aec.game, aec.game_state, self._table[seat])  # what it reads, as every table builds it
            self._apply(self._script.popleft() if self._script else action)  # a replay's moves as recorded
            total += aec.rewards[self.learner]
        return total, aec.game_state.terminal

    def _apply(self, action: int) -> None:
        """One action of any seat, kept in the deal's record."""
        self.aec.step(int(action))
        self._record.moves.append(int(action))
