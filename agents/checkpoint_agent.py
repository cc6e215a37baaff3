"""An agent that plays a trained checkpoint (weights only: see agents/checkpoint/format.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy

from agents.checkpoint.fit import check_table, fit_weights
from agents.checkpoint.format import CheckpointError, load_checkpoint
from agents.checkpoint.general import general_table, is_general
from rams_env.core.general import Table


def build_policy(obs_size: int, n_actions: int, net_arch: list[int], *,
                 initialise: bool = True) -> MaskableActorCriticPolicy:
    """The network every rams checkpoint holds (sb3-contrib's maskable actor-critic MLP).

    ``initialise=False`` for a network whose every weight is loaded next: SB3's orthogonal initialisation is a QR
    decomposition per layer, 1.5 s of one core for a general [256, 256] network (0.007 s without), and minutes of
    wall time for a process whose two torch threads share busy cores."""
    return MaskableActorCriticPolicy(
        spaces.Box(0.0, 1.0, (obs_size,), dtype=np.float32), spaces.Discrete(n_actions),
        lr_schedule=lambda _: 0.0, net_arch=list(net_arch), ortho_init=initialise)


MASKED_LOGIT = -1e8
"""What sb3-contrib's MaskableCategorical puts in place of an illegal action's logit."""


class PolicyAgent:
    """Plays a maskable actor-critic policy greedily (or by sampling with its own generator)."""

    reads_view: ClassVar[bool] = False  # the vector and the mask are all a network reads (agents/table.py)

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
            if self.deterministic:
                return self._greedy(obs, torch.as_tensor(np.asarray(mask, dtype=bool)))
            dist = self.policy.get_distribution(obs, action_masks=np.asarray(mask, dtype=bool)[None])
            probs = dist.distribution.probs[0]
            return int(torch.multinomial(probs, 1, generator=self._generator).item())

    def _greedy(self, obs: torch.Tensor, mask: torch.Tensor) -> int:
        """``get_distribution(obs, mask).mode()`` computed the same way (normalise, mask, normalise, softmax,
        argmax) without building distribution objects, which took four times the network's own time."""
        policy = self.policy
        features = BasePolicy.extract_features(policy, obs, policy.pi_features_extractor)  # as get_distribution
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))[0]
        logits = logits - logits.logsumexp(-1, keepdim=True)
        masked = torch.where(mask, logits, torch.tensor(MASKED_LOGIT, dtype=logits.dtype))
        return int(torch.softmax(masked - masked.logsumexp(-1, keepdim=True), -1).argmax().item())


class CheckpointAgent(PolicyAgent):
    """A policy loaded from a checkpoint file: weights and metadata only, the network's size checked first.

    A general checkpoint (``meta["observation"] == "general"``, agents/checkpoint/general.py) reads its game's
    general space: :meth:`check_table` (which the registry calls with the table's game) keeps that table's
    mapping, and :meth:`act` maps the observation and the mask in and the chosen action back."""

    def __init__(self, path: str | Path, deterministic: bool = True, name: str | None = None) -> None:
        meta, state, _ = load_checkpoint(path)  # bounds the network's size before it is built
        policy = build_policy(meta["observation_size"], meta["action_size"], meta["net_arch"], initialise=False)
        fit_weights(policy, state, path)  # every weight, strictly
        policy.set_training_mode(False)
        super().__init__(policy, deterministic, name or f"checkpoint:{Path(path).stem}")
        self.meta, self.path = meta, Path(path)
        self.table: Table | None = None
        """A general checkpoint's mapping of the table it plays (set by :meth:`check_table`)."""

    def check_table(self, game, allow_rules_mismatch: bool = False) -> None:
        """Raise CheckpointError at a table (a rams_env Game) of another game, size, layout or rules (a general
        checkpoint: of another game, or that its general space does not hold); keep a general one's mapping."""
        check_table(self.meta, game, self.path, allow_rules_mismatch)
        if is_general(self.meta):
            self.table = general_table(self.meta, game, self.path)

    def act(self, observation: np.ndarray, mask: np.ndarray, view: dict[str, Any]) -> int:
        if not is_general(self.meta):
            return super().act(observation, mask, view)
        if self.table is None:
            raise CheckpointError(self.path, "a general checkpoint plays a table once check_table(game) named it")
        chosen = super().act(self.table.obs(observation), self.table.mask(np.asarray(mask)), view)
        return int(self.table.native_actions(chosen))
