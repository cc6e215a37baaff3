"""A single-seat Gymnasium view of any rams AEC environment, for single-agent learners.

Each episode the learner takes a seat drawn from the environment's own generator; the
other seats are played by opponents until the learner must act again or the episode
ends. The reward is the learner's OWN reward summed over everything that happened since
its last action (opponents' moves included), so the observation and the reward always
belong to the same seat: the pitfall of PettingZoo issue #1147 cannot occur.

An opponent factory that keeps score (training/pool.py rates its snapshots against the
learner) may offer ``record(table, payoffs, learner_seat)``: it is called when a deal the
learner played is over, with the agents of every seat and every seat's payoff in game units.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import rams_env
from agents.base import Agent

OpponentFactory = Callable[[np.random.Generator], list[Agent]]
"""Draws the agents for the other seats of one episode (one per seat, the learner's ignored); optionally with
a ``record(table, payoffs, learner_seat)`` method that hears every finished deal (see the module docstring)."""


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

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        while True:
            self.aec.reset(seed=int(self._rng.integers(2**31)), options=options)
            n = self.game.num_players
            seat = self.fixed_seat if self.fixed_seat is not None else int(self._rng.integers(n))
            self.learner = self.aec.possible_agents[seat]
            self._table = self.opponents(self._rng)
            for i, agent in enumerate(self._table):
                agent.reset(int(self._rng.integers(2**31)) + i)
            # rewards that reach the learner before its first decision (an ante) come with its first step
            self._carry, done = self._play_others()
            if not done:  # else the deal ended before the learner had to act: deal again
                break
        self.episode_return = 0.0
        return self._observe(), {"seat": seat}

    def step(self, action: int):
        self.aec.step(int(action))
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
        """Opponents act until the learner must act or the episode ends; the learner's reward meanwhile."""
        aec, total = self.aec, 0.0
        while not aec.game_state.terminal and aec.agent_selection != self.learner:
            name = aec.agent_selection
            seat = aec.possible_agents.index(name)
            obs = aec.observe(name)
            aec.step(self._table[seat].act(obs["observation"], obs["action_mask"], aec.view(name)))
            total += aec.rewards[self.learner]
        return total, aec.game_state.terminal
