"""The masking RLModule: rams' ``ActorCritic`` (training/batched/network.py) inside RLlib's new API stack.

:class:`MaskedActorCritic` holds one :class:`~training.batched.network.ActorCritic` as ``self.net`` and nothing
else with weights, so ``module.net.state_dict()`` IS a rams checkpoint's ``policy.pt`` (sb3-contrib's names):
export is a copy (training/rllib/export.py) and every rams command plays the result. Observations are the
env's ``{"observations", "action_mask"}`` dicts (training/rllib/env.py); illegal actions get the logit
``MASKED_LOGIT`` before RLlib builds its categorical distribution (as sb3-contrib's ``MaskableCategorical``
and rams' ``CheckpointAgent`` do), so they have probability 0 whatever the algorithm samples.

It implements the ``ValueFunctionAPI`` (PPO, APPO, IMPALA read ``compute_values``) and the
``TargetNetworkAPI`` APPO needs (a frozen copy of the net whose masked logits are its target policy).
``model_config``: ``{"net_arch": [128, 128]}``.
"""

from __future__ import annotations

from typing import Any

import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.learner.utils import make_target_network
from ray.rllib.core.rl_module.apis import TARGET_NETWORK_ACTION_DIST_INPUTS, TargetNetworkAPI, ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from agents.checkpoint_agent import MASKED_LOGIT
from training.batched.network import ActorCritic

OBSERVATIONS, ACTION_MASK = "observations", "action_mask"
DEFAULT_NET_ARCH = [128, 128]


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action the 0/1 ``mask`` forbids at ``MASKED_LOGIT``."""
    return torch.where(mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))


class MaskedActorCritic(TorchRLModule, ValueFunctionAPI, TargetNetworkAPI):
    """rams' actor-critic with action masking, for PPO, APPO and IMPALA (see the module docstring)."""

    def setup(self) -> None:
        inner = self.observation_space[OBSERVATIONS]
        net_arch = (self.model_config or {}).get("net_arch", DEFAULT_NET_ARCH)
        self.net = ActorCritic(int(inner.shape[0]), int(self.action_space.n), net_arch)

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: masked(self.net.logits(obs[OBSERVATIONS]), obs[ACTION_MASK])}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        obs = batch[Columns.OBS][OBSERVATIONS]
        return self.net.value_net(self.net.mlp_extractor.value_net(obs)).squeeze(-1)

    def make_target_networks(self) -> None:
        self._target_net = make_target_network(self.net)

    def get_target_network_pairs(self) -> list[tuple[torch.nn.Module, torch.nn.Module]]:
        return [(self.net, self._target_net)]

    def forward_target(self, batch: dict[str, Any]) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        return {TARGET_NETWORK_ACTION_DIST_INPUTS: masked(self._target_net.logits(obs[OBSERVATIONS]),
                                                          obs[ACTION_MASK])}
