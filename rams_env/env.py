"""ONE PettingZoo AEC environment for every game of the suite.

The environment knows nothing about any game: it asks the :class:`~rams_env.core.game.Game`
for legal actions, applies them, encodes observations and turns score changes into
rewards. Illegal input is rejected here, once, for all games (as PGX's ``core.Env``
does), with an :class:`IllegalActionError` that names the agent, the action and the
legal labels, and leaves the state untouched (no ``assert``: it holds under ``-O``).

Conventions the PettingZoo ecosystem relies on (docs/environment.md): ``state()`` (the global state)
with ``state_space`` for centralised critics, ``infos`` of fixed-shape numbers only, integral
scalars of any kind as actions, and ``metadata["is_parallelizable"]`` False (the seat to act does
not cycle, so ``aec_to_parallel`` cannot apply; ``parallel_env()`` is the turn-based conversion).
"""

from __future__ import annotations

import json
import warnings
from enum import Enum
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from rams_env.core import observation_core
from rams_env.core.game import Game, State
from rams_env.core.global_state import encode_global_state
from rams_env.core.observation import OBS_DTYPE
from rams_env.core.observation_core import Observation, encode_seats


class IllegalActionError(ValueError):
    """An action that is not legal now, out of range, or not an action at all."""


class IllegalActionWarning(UserWarning):
    """A masked-out action ended the episode with a penalty (``illegal_action="penalty"``)."""


class ResetNeededError(AssertionError, RuntimeError):
    """The environment was used before ``reset()``, or stepped after its episode was over.

    An ``AssertionError`` with PettingZoo's own wording, as its order-enforcing wrapper raised
    before rams checked the call order itself (raised explicitly: it holds under ``-O``).
    """


INFO_KEYS = ("deal_result", "score", "deals_played")
"""What ``infos[agent]`` holds, always, as plain numbers (replay buffers stack them): the agent's
result in the last finished deal, its score in the episode when that deal ended (at reset: after
the stakes paid while dealing), and the deals finished so far. They change when a deal ends.
The settlement itself is :meth:`RamsEnv.last_breakdown` (a dict) or :meth:`RamsEnv.breakdown_json`."""


class Episode(Enum):
    """How much one episode covers."""

    DEAL = "deal"  # one deal; carried-over state fresh, random, or given in reset options
    SESSION = "session"  # deals until the game's session rule ends it


class IllegalMode(Enum):
    """What a masked-out (but well-formed) action does."""

    RAISE = "raise"  # raise IllegalActionError, change nothing (raw_env's default)
    PENALTY = "penalty"  # warn, end the episode; the offender gets ``illegal_reward``, others 0 (make's default)


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class StateMethod:
    """``env.state()``: PettingZoo's global state. The engine's position, once ``env.state``, is ``env.game_state``.

    A callable rather than a plain method so that the old spelling (``env.state.hands``, ``env.state = ...``)
    fails with a message naming the new one instead of misbehaving.
    """

    def __init__(self, env: RamsEnv) -> None:
        self._env = env

    def __call__(self) -> np.ndarray:
        return self._env.global_state()

    def __getattr__(self, name: str):
        raise AttributeError(f"env.state is PettingZoo's state() method (the global state vector); the engine's "
                             f"position is env.unwrapped.game_state (env.unwrapped.game_state.{name})")


def integral_scalar(action: Any) -> int | None:
    """``action`` as an int if it is an integral scalar (int, numpy integer, 0-d integer array), else None."""
    if type(action) is int:  # the usual case, first
        return action
    if isinstance(action, (bool, np.bool_)):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None


def encoder(game: Game) -> Any:
    """``game.encode`` as the env calls it at every observation, ``(state, seat, out)``: for a game that keeps
    the default ``encode`` over an :class:`Observation`, its fused writers bound to the game (three Python
    calls fewer: ``Game.encode``, the observe module's ``encode``, ``Observation.encode``)."""
    default = type(game).encode is Game.encode and game.observer.encode is observation_core.encode
    return game.observation.bound(game) if default and isinstance(game.observation, Observation) else game.encode


class AgentTurns(AECIterable):
    """``agent_iter()``: PettingZoo's iterable, its iterator a generator (resumed at every step, cheaper than
    the ``__next__`` method PettingZoo's iterator calls), stopping as PettingZoo's does."""

    def __iter__(self):
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


MASK_CACHE_LIMIT = 4096
"""Distinct legal-action masks kept (cleared when full)."""


class RamsEnv(AECEnv):
    """Turn-based AEC environment over any :class:`Game`.

    Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``;
    the mask is all zeros for an agent who is not to act. Rewards are each player's
    change of score (the game's own units); :meth:`last_breakdown` explains the
    settlement of the last deal.
    """

    metadata = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}

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
        self.state_space = spaces.Box(0.0, 1.0, (game.state_layout.size,), dtype=OBS_DTYPE)
        self._rng = np.random.default_rng()
        self.game_state: State | None = None
        self._legal: list[int] = []
        self._observed: dict[str, dict[str, np.ndarray]] = {}  # this position's observations by agent
        self._obs_size, self._n_actions = game.observation.size, n_actions
        self._encode = encoder(game)
        self._blank_obs = np.zeros(self._obs_size, dtype=OBS_DTYPE)
        self._blank_mask = np.zeros(n_actions, dtype=np.int8)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}  # legal actions -> their mask (copied out)
        self._no_rewards = dict.fromkeys(self.possible_agents, 0.0)

    # -------------------------------------------------------------- PettingZoo
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # refused options (OptionError) change nothing: not the generator, not the episode under way
        rng = self._rng if seed is None else np.random.default_rng(seed)
        state = self.game.new_state(rng, options, random_carry=self.random_carry)
        self._rng = rng
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        self.game_state = state
        self._paid = [0] * self.game.num_players  # scores already turned into rewards
        self._rewarded = False  # some reward of the last step was not 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._publish_infos()
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Encoded once per position and agent: ``last()`` and ``observe()`` share the arrays."""
        cached = self._observed.get(agent)
        if cached is not None:
            return cached
        state = self.game_state
        if state is None:
            self._require_reset("observe")
        if state.terminal:
            return self._observe_finished()[agent]
        seat = self._seat[agent]
        obs = self._blank_obs.copy()  # a copy of zeros: cheaper than np.zeros with a dtype
        self._encode(state, seat, obs)
        mask = self._legal_mask() if state.to_act == seat else self._blank_mask.copy()
        cached = self._observed[agent] = {"observation": obs, "action_mask": mask}
        return cached

    def _legal_mask(self) -> np.ndarray:
        """The mask of the legal actions, a copy of one kept for the same legal actions (a copy costs less
        than setting a handful of elements one by one)."""
        key = tuple(self._legal)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= MASK_CACHE_LIMIT:
                self._masks.clear()
            mask = self._masks[key] = self._blank_mask.copy()
            mask[self._legal] = 1
        return mask.copy()

    def _observe_finished(self) -> dict[str, dict[str, np.ndarray]]:
        """Once the episode is over every agent is observed in turn (``last()`` before ``step(None)``): all of
        them are encoded at once, what every seat sees alike written once; masks are all zeros."""
        seats = range(self.game.num_players)
        vectors = [self._blank_obs.copy() for _ in seats]
        encode_seats(self.game, self.game_state, seats, vectors)
        self._observed = {agent: {"observation": vector, "action_mask": self._blank_mask.copy()}
                          for agent, vector in zip(self.possible_agents, vectors, strict=True)}
        return self._observed

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's ``_was_dead_step`` where every agent's episode ends at once (rams ends a deal, or an
        episode, for all): the agent steps out, the first agent left is selected next, and once none is left
        the agent selected before the first stepped out, as PettingZoo's does, without a list of the
        finished agents rebuilt at every step."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del table[agent]
        self.agents.remove(agent)
        skipped = getattr(self, "_skip_agent_selection", None)
        if self.agents:
            if skipped is None:
                self._skip_agent_selection = agent
            self.agent_selection = self.agents[0]
        else:
            if skipped is not None:
                self.agent_selection = skipped
            self._skip_agent_selection = None
        self._clear_rewards()

    def last(self, observe: bool = True):
        """PettingZoo's ``last()``, written out (one call fewer per decision)."""
        if self.game_state is None:
            self._require_reset()
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        if self.game_state is None or not self.agents:  # the checks inline: every decision passes here
            self._require_live()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._check_action(agent, action)
        if chosen is None:  # penalty mode: the deal ends for everyone
            self._end_with_penalty(agent, action)
            return
        self.game.apply(self.game_state, chosen)
        self._cumulative_rewards[agent] = 0.0
        self._pay_rewards()
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        self._require_reset("render")
        text = self.game.render(self.game_state, self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def agent_iter(self, max_iter: int = 2**63) -> AgentTurns:
        self._require_reset("agent_iter()")
        return AgentTurns(self, max_iter)

    def state_copy(self) -> State:
        """A clone of the full game state (all hands: for analysis, never for agents)."""
        self._require_reset()
        return self.game_state.clone()

    @property
    def state(self) -> StateMethod:
        """``env.state()``: PettingZoo's global state (see :meth:`global_state`)."""
        return StateMethod(self)

    @state.setter
    def state(self, value: Any) -> None:
        raise AttributeError("the engine's position is env.game_state now; env.state() is PettingZoo's global state")

    def global_state(self) -> np.ndarray:
        """PettingZoo's global state: every card's place and every seat's observation, absolute seats.

        For centralised critics (MAPPO-style training), never for a seat's policy: it shows
        every hand. Named slices: ``env.unwrapped.game.state_layout`` (docs/rules/<game>.md).
        """
        self._require_reset()
        out = np.zeros(self.game.state_layout.size, dtype=OBS_DTYPE)
        encode_global_state(self.game, self.game_state, out)
        return out

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
        self._require_reset()
        return self.game.view(self.game_state, self._seat[agent])

    def last_breakdown(self) -> dict[str, Any]:
        """The settlement of the last finished deal (in a session the next deal has already begun)."""
        self._require_reset()
        done = self.game_state.deal_breakdowns
        return done[-1] if done else {}

    def breakdown_json(self) -> str:
        """:meth:`last_breakdown` as a JSON string (for logs and buffers that keep strings)."""
        return json.dumps(self.last_breakdown(), sort_keys=True)

    # ---------------------------------------------------------------- helpers
    def _pay_rewards(self) -> None:
        """Rewards are score changes since the last reward, counted from 0 at reset, so stakes paid
        while dealing (an ante at reset) reach the payer with her first reward."""
        scores, paid = self.game_state.scores, self._paid
        if scores == paid:  # most moves score nothing
            if self._rewarded:  # the last move's rewards back to 0
                self.rewards.update(self._no_rewards)
                self._rewarded = False
            return
        self._rewarded = True
        rewards, total = self.rewards, self._cumulative_rewards
        for agent, score, before in zip(self.possible_agents, scores, paid, strict=True):
            change = float(score - before)
            rewards[agent] = change
            total[agent] += change
        self._paid = list(scores)

    def _after_move(self) -> None:
        self._observed = {}
        state = self.game_state
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
        """``infos``: the same keys (INFO_KEYS) and plain numbers at every step, from reset on."""
        state = self.game_state
        last = state.deal_results[-1] if state.deal_results else [0] * self.game.num_players
        for s, a in enumerate(self.possible_agents):
            if a in self.infos:
                self.infos[a] = {"deal_result": float(last[s]), "score": float(state.scores[s]),
                                 "deals_played": int(state.deals_played)}

    def _require_reset(self, what: str = "using the environment") -> None:
        if self.game_state is None:
            raise ResetNeededError(f"{self.metadata['name']}: reset() needs to be called before {what}.")

    def _require_live(self) -> None:
        """Stepping needs an episode with agents left (after the last ``step(None)`` none are)."""
        self._require_reset("step")
        if not self.agents:
            raise ResetNeededError(f"{self.metadata['name']}: the episode is over (every agent has "
                                   f"stepped out); call reset() to play again")

    def _check_action(self, agent: str, action: Any) -> int | None:
        """The action as an int if legal; None if masked out in penalty mode; else raise.

        Malformed actions (not an integral scalar, out of range) raise in every mode: they are
        bugs, not moves. Integral scalars are what ``gymnasium.spaces.Discrete.contains`` takes
        (ints, numpy integers, 0-d integer arrays such as SB3's ``predict``), bools excepted.
        """
        n = self._n_actions
        value = action if type(action) is int else integral_scalar(action)  # the usual case without a call
        if value is None:
            raise IllegalActionError(
                f"{agent}: action {action!r} is not an integer action id; legal: {self._legal_text()}")
        if not 0 <= value < n:
            raise IllegalActionError(
                f"{agent}: action {value} is out of range 0..{n - 1}; legal: {self._legal_text()}")
        if value in self._legal:
            return value
        if self.illegal_mode is IllegalMode.PENALTY:
            warnings.warn(f"{agent}: action {value} ({self.action_label(value)}) is not legal now; the episode "
                          f"ends with reward {self.illegal_reward} for {agent}; legal: {self._legal_text()}",
                          IllegalActionWarning, stacklevel=3)
            return None
        raise IllegalActionError(
            f"{agent}: action {value} ({self.action_label(value)}) is not legal now; legal: {self._legal_text()}")

    def _legal_text(self) -> str:
        return ", ".join(f"{a}={self.game.actions.label(a)}" for a in self._legal)

    def _end_with_penalty(self, agent: str, action: Any) -> None:
        self._observed = {}
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: (self.illegal_reward if a == agent else 0.0) for a in self.agents}
        self.game_state.terminal = True
        self.game_state.to_act = None
        self.game_state.breakdown = {"illegal_action": {"agent": agent, "action": integral_scalar(action)}}
        self.game_state.deal_breakdowns.append(self.game_state.breakdown)
        self._legal = []
        for a in self.agents:
            self.terminations[a] = True
        self._publish_infos()
        self._accumulate_rewards()
