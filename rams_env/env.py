"""ONE PettingZoo AEC environment for every game of the suite.

The environment knows nothing about any game: it asks the :class:`~rams_env.game.Game`
for legal actions, applies them, encodes observations and turns score changes into
rewards. Illegal input is rejected here, once, for all games (as PGX's ``core.Env``
does), with an :class:`IllegalActionError` that names the agent, the action and the
legal labels, and leaves the state untouched (no ``assert``: it holds under ``-O``).
"""

from __future__ import annotations

import warnings
from enum import Enum
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rams_env.game import Game, State
from rams_env.observation import OBS_DTYPE


class IllegalActionError(ValueError):
    """An action that is not legal now, out of range, or not an action at all."""


class ResetNeededError(AssertionError):
    """step(), observe(), render() or agent_iter() before the first reset().

    An ``AssertionError`` with PettingZoo's own messages, as its order-enforcing wrapper
    raised them before rams checked the order itself (raised explicitly: holds under ``-O``).
    """


class Episode(Enum):
    """How much one episode covers."""

    DEAL = "deal"  # one deal; carried-over state fresh, random, or given in reset options
    SESSION = "session"  # deals until the game's session rule ends it


class IllegalMode(Enum):
    """What a masked-out (but well-formed) action does."""

    RAISE = "raise"  # raise IllegalActionError, change nothing (default)
    PENALTY = "penalty"  # end the episode; the offender gets ``illegal_reward``, others 0


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class RamsEnv(AECEnv):
    """Turn-based AEC environment over any :class:`Game`.

    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``;
    the mask is all zeros for an agent who is not to act. Rewards are each player's
    change of score (the game's own units); ``infos[agent]["breakdown"]`` explains the
    settlement of the last deal.
    """

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": True, "render_fps": 1}

    def __init__(
        self,
        game: Game,
        *,
        episode: str | Episode = Episode.DEAL,
        random_carry: bool = False,
        illegal_action: str | IllegalMode = IllegalMode.RAISE,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.episode = Episode(episode)
        if (self.episode is Episode.SESSION) != game.session:
            raise ValueError("build the game with session=True for session episodes (use rams_env.make)")
        self.random_carry = bool(random_carry)
        self.illegal_mode = IllegalMode(illegal_action)
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}; choose from {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.metadata = {**self.metadata, "name": f"{game.name}_v0"}
        self.possible_agents = [agent_name(s) for s in range(game.num_players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        n_actions = game.actions.size
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (game.observation.size,), dtype=OBS_DTYPE),
            "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state: State | None = None
        self._legal: list[int] = []
        self._observed: dict[str, dict[str, np.ndarray]] = {}  # this position's observations by agent
        self._obs_size, self._n_actions = game.observation.size, n_actions

    # -------------------------------------------------------------- PettingZoo
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        state = self.game.new_state(self._rng, options, random_carry=self.random_carry)
        self.state = state
        self._paid = [0] * self.game.num_players  # scores already turned into rewards
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Encoded once per position and agent: ``last()`` and ``observe()`` share the arrays."""
        cached = self._observed.get(agent)
        if cached is not None:
            return cached
        if self.state is None:
            raise ResetNeededError("reset() needs to be called before observe.")
        seat = self._seat[agent]
        obs = np.zeros(self._obs_size, dtype=OBS_DTYPE)
        self.game.encode(self.state, seat, obs)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if self.state.to_act == seat and not self.state.terminal:
            mask[self._legal] = 1
        cached = self._observed[agent] = {"observation": obs, "action_mask": mask}
        return cached

    def step(self, action: Any) -> None:
        if self.state is None:
            raise ResetNeededError("reset() needs to be called before step.")
        if not self.agents:
            warnings.warn("step() called after all agents are terminated or truncated", stacklevel=2)
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._check_action(agent, action)
        if chosen is None:  # penalty mode: the deal ends for everyone
            self._end_with_penalty(agent, action)
            return
        self.game.apply(self.state, chosen)
        self._cumulative_rewards[agent] = 0.0
        self._pay_rewards()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if self.state is None:
            raise ResetNeededError("reset() needs to be called before render.")
        text = self.game.render(self.state, self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def agent_iter(self, max_iter: int = 2**63):
        if self.state is None:
            raise ResetNeededError("reset() needs to be called before agent_iter().")
        return super().agent_iter(max_iter)

    def state_copy(self) -> State:
        """A clone of the full game state (all hands: for analysis, never for agents)."""
        return self.state.clone()

    # ------------------------------------------------------------------ labels
    def action_label(self, action: int) -> str:
        """Stable human-readable label of an action id (a card code for card play)."""
        return self.game.actions.label(int(action))

    def action_id(self, label: str) -> int:
        """Inverse of :meth:`action_label`."""
        return self.game.actions.parse(label)

    def legal_actions(self) -> list[int]:
        return list(self._legal)

    def legal_labels(self) -> list[str]:
        return [self.game.actions.label(a) for a in self._legal]

    def view(self, agent: str) -> dict[str, Any]:
        """Structured seat-relative view of what ``agent`` may know (for scripted agents)."""
        return self.game.view(self.state, self._seat[agent])

    def last_breakdown(self) -> dict[str, Any]:
        """The settlement of the last finished deal (in a session the next deal has already begun)."""
        done = self.state.deal_breakdowns
        return done[-1] if done else {}

    # ---------------------------------------------------------------- helpers
    def _pay_rewards(self) -> None:
        """Rewards are score changes since the last reward, counted from 0 at reset, so stakes paid
        while dealing (an ante at reset) reach the payer with her first reward."""
        scores, paid, rewards, total = self.state.scores, self._paid, self.rewards, self._cumulative_rewards
        for seat, agent in enumerate(self.possible_agents):
            change = float(scores[seat] - paid[seat])
            rewards[agent] = change
            total[agent] += change
            paid[seat] = scores[seat]

    def _after_move(self) -> None:
        self._observed = {}
        state = self.state
        if state.terminal:
            self._legal = []
            for a in self.agents:
                self.terminations[a] = True
            self._publish_infos()
            return
        self._legal = self.game.legal_actions(state)
        self.agent_selection = self.possible_agents[state.to_act]
        if state.deals_played:
            self._publish_infos()

    def _publish_infos(self) -> None:
        for s, a in enumerate(self.possible_agents):
            if a in self.infos:
                self.infos[a] = {
                    "breakdown": self.last_breakdown(),
                    "deal_result": self.state.deal_results[-1][s] if self.state.deal_results else 0,
                    "score": self.state.scores[s],
                }

    def _check_action(self, agent: str, action: Any) -> int | None:
        """The action as an int if legal; None if masked out in penalty mode; else raise."""
        n = self.game.actions.size
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"{agent}: action {action!r} is not an integer action id; legal: {self._legal_text()}")
        value = int(action)
        if not 0 <= value < n:
            raise IllegalActionError(
                f"{agent}: action {value} is out of range 0..{n - 1}; legal: {self._legal_text()}")
        if value in self._legal:
            return value
        if self.illegal_mode is IllegalMode.PENALTY:
            return None
        raise IllegalActionError(
            f"{agent}: action {value} ({self.action_label(value)}) is not legal now; legal: {self._legal_text()}")

    def _legal_text(self) -> str:
        return ", ".join(f"{a}={self.game.actions.label(a)}" for a in self._legal)

    def _end_with_penalty(self, agent: str, action: Any) -> None:
        self._observed = {}
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: (self.illegal_reward if a == agent else 0.0) for a in self.agents}
        self.state.terminal = True
        self.state.to_act = None
        self.state.breakdown = {"illegal_action": {"agent": agent, "action": int(action)}}
        self.state.deal_breakdowns.append(self.state.breakdown)
        self._legal = []
        for a in self.agents:
            self.terminations[a] = True
        self._publish_infos()
        self._accumulate_rewards()
