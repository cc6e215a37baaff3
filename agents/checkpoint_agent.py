"""An agent that plays a trained checkpoint (weights only: see training/checkpoint.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

import rams_env
from training.checkpoint import CheckpointError, load_checkpoint


def build_policy(obs_size: int, n_actions: int, net_arch: list[int]) -> MaskableActorCriticPolicy:
    """The network every rams checkpoint holds (sb3-contrib's maskable actor-critic MLP)."""
    return MaskableActorCriticPolicy(
        spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32), spaces.Discrete(n_actions),
        lr_schedule=lambda _: 0.0, net_arch=list(net_arch))


class PolicyAgent:
    """Plays a maskable actor-critic policy greedily (or by sampling with its own generator)."""

    def __init__(self, policy: MaskableActorCriticPolicy, deterministic: bool = True, name: str = "policy") -> None:
        self.policy = policy
        self.name = name
        self.deterministic = deterministic
        self._generator = torch.Generator().manual_seed(0)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._generator.manual_seed(int(seed))

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            dist = self.policy.get_distribution(obs, action_masks=np.asarray(mask, dtype=bool)[None])
            if self.deterministic:
                return int(dist.mode().item())
            probs = dist.distribution.probs[0]
            return int(torch.multinomial(probs, 1, generator=self._generator).item())


class CheckpointAgent(PolicyAgent):
    """A policy loaded from a checkpoint file: weights and metadata only."""

    def __init__(self, path: str | Path, deterministic: bool = True, name: str | None = None) -> None:
        meta, state, _ = load_checkpoint(path)
        try:
            policy = build_policy(meta["observation_size"], meta["action_size"], meta["net_arch"])
            policy.load_state_dict(state, strict=True)
        except (KeyError, TypeError, ValueError, RuntimeError) as err:
            raise CheckpointError(f"{path}: weights do not fit the network its metadata describes ({err})") from None
        policy.set_training_mode(False)
        super().__init__(policy, deterministic, name or f"checkpoint:{Path(path).stem}")
        self.meta = meta

    def check_game(self, game: str, num_players: int) -> None:
        """Raise if the checkpoint was trained for another game, table or observation layout."""
        size = rams_env.make_game(game, num_players).observation.size
        if (self.meta.get("game"), self.meta.get("observation_size")) != (game, size):
            raise CheckpointError(f"{self.name} was trained for {self.meta.get('game')} with "
                                  f"{self.meta.get('observation_size')} inputs, not {game} with {size}")
