"""Any rams game as an RLlib ``MultiAgentEnv`` (new API stack) with action masks.

:class:`RamsMultiAgentEnv` wraps rams' own AEC env (``rams_env.make``: every game, rule option, table size
and episode mode) turn by turn: each step's observation dict holds the one agent to act, as
``{"observations": float32 vector, "action_mask": float32 0/1 vector}`` (the key names RLlib's action-masking
modules read); the masking module (training/rllib/module.py) gives illegal actions probability 0, so they are
never sampled. An illegal action sent anyway (RLlib's env checker steps a random one) ends the deal with the
AEC env's penalty, as ``rams_env.make`` does for every client.

Rewards are each seat's change of score (times ``reward_scale``), collected while others act; every step
pays each agent that has acted what it collected since the last step (0 included: RLlib wants a reward with
every observation of an agent that acted), and RLlib adds a reward that arrives between two of an agent's
actions to the earlier one. Rewards before a seat's first action (an ante) are paid after it, so they are
never a reward without an action. Agents are named after the module that plays
them (training/rllib/seats.py); scripted seats act inside :meth:`step`.

With ``general`` (or several tables, drawn per deal) observations and actions are the game's
``GeneralSpace``'s (rams_env/core/general.py): one network plays every table; an exported checkpoint is
a general one (agents/checkpoint/general.py).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import rams_env
from agents.registry import agent_factories
from agents.table import chosen
from rams_env.core.general import GeneralSpace
from training.batched.tables import TableSpec
from training.rllib.seats import SeatDraw, agent_id, module_ids
from training.tables import table_options


def env_config(game: str, tables: list[TableSpec], env: dict[str, Any], general: bool,
               opponents: dict[str, float], snapshots: int, reward_scale: float = 1.0) -> dict[str, Any]:
    """The plain-data config an env is built from in every env runner (what RLlib ships to them)."""
    return {"game": game, "tables": [[t.num_players, t.preset, dict(t.rules)] for t in tables], "env": dict(env),
            "general": bool(general or len(tables) > 1), "opponents": dict(opponents),
            "snapshots": int(snapshots), "reward_scale": float(reward_scale)}


class RamsMultiAgentEnv(MultiAgentEnv):
    """One rams table (or a deal-by-deal choice of tables) for RLlib; see the module docstring."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.tables = [TableSpec(n, preset, rules) for n, preset, rules in config["tables"]]
        self.envs = [rams_env.make(config["game"], t.num_players, illegal_action="penalty", **table_options(t),
                                   **config.get("env", {})) for t in self.tables]
        space = GeneralSpace(config["game"]) if config.get("general") else None
        self.maps = [space.table(e.game) if space else None for e in self.envs]
        obs_size, num_actions = ((space.obs_size, space.num_actions) if space else
                                 (self.envs[0].game.observation.size, self.envs[0].game.actions.size))
        self.seats = SeatDraw(config.get("opponents", {"self": 1.0}), config.get("snapshots", 0))
        self.scripted = [agent_factories(self.seats.scripted, e.game) for e in self.envs]
        self.reward_scale = float(config.get("reward_scale", 1.0))
        most = max(t.num_players for t in self.tables)
        self.possible_agents = [agent_id(m, s) for m in module_ids(self.seats.snapshots) for s in range(most)]
        obs_space = gym.spaces.Dict({
            "observations": gym.spaces.Box(0.0, 1.0, (obs_size,), np.float32),
            "action_mask": gym.spaces.Box(0.0, 1.0, (num_actions,), np.float32)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(num_actions) for a in self.possible_agents}
        self.agents: list[str] = []
        self.rng = np.random.default_rng()
        self.table = 0

    @property
    def env(self):
        """The AEC env of the deal under way."""
        return self.envs[self.table]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        while True:  # a deal its scripted seats finish alone is dealt again (nothing to learn from)
            self.table = int(self.rng.integers(len(self.envs)))
            self.env.reset(seed=int(self.rng.integers(2**31)), options=options)
            self._seat_players()
            self.pending = dict.fromkeys(self.agents, 0.0)
            self._play_scripted()
            if not self.env.game_state.terminal:
                break
        self.acted: set[str] = set()
        return {self.to_act: self._observe()}, {}

    def _seat_players(self) -> None:
        """This deal's module per seat (``self.agent_of``) or scripted agent (``self.bots``)."""
        n = self.env.game.num_players
        drawn = self.seats.draw(n, self.rng)
        factories = self.scripted[self.table]
        self.bots = {s: factories[kind](int(self.rng.integers(2**31))) for s, kind in enumerate(drawn)
                     if kind in factories}
        self.agent_of = {s: agent_id(kind, s) for s, kind in enumerate(drawn) if s not in self.bots}
        self.agents = list(self.agent_of.values())

    @property
    def to_act(self) -> str:
        return self.agent_of[self.env.game_state.to_act]

    def step(self, action_dict: dict[str, Any]):
        agent = self.to_act
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action of {agent} (to act) only, got actions of {sorted(action_dict)}")
        action = int(action_dict[agent])
        table = self.maps[self.table]
        self._env_step(int(table.native_actions(action)) if table is not None else action)
        self.acted.add(agent)
        self._play_scripted()
        done = bool(self.env.game_state.terminal)
        rewards = {a: self.pending[a] * self.reward_scale for a in self.agents if a in self.acted}
        self.pending.update(dict.fromkeys(rewards, 0.0))
        observations = {} if done else {self.to_act: self._observe()}
        terminated = {**({a: True for a in self.acted} if done else {}), "__all__": done}
        return observations, rewards, terminated, {"__all__": False}, {}

    def _play_scripted(self) -> None:
        """The scripted seats act (through the env, each given what it reads) until a module's seat must act."""
        env = self.env
        while not env.game_state.terminal and env.game_state.to_act in self.bots:
            self._env_step(chosen(env.game, env.game_state, self.bots[env.game_state.to_act]))

    def _env_step(self, action: int) -> None:
        """One action in the AEC env; its rewards (each seat's score change) added to the modules' ``pending``."""
        env = self.env
        env.step(action)
        for seat, agent in self.agent_of.items():
            self.pending[agent] += float(env.rewards[env.possible_agents[seat]])

    def _observe(self) -> dict[str, np.ndarray]:
        seat = self.env.game_state.to_act
        native = self.env.observe(self.env.possible_agents[seat])
        table = self.maps[self.table]
        if table is None:
            return {"observations": native["observation"], "action_mask": native["action_mask"].astype(np.float32)}
        return {"observations": table.obs(native["observation"]),
                "action_mask": table.mask(native["action_mask"]).astype(np.float32)}
