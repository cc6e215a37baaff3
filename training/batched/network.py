"""The actor-critic network of the batched learner, in plain torch.

Its ``state_dict()`` has the names and shapes of sb3-contrib's ``MaskableActorCriticPolicy`` MLP
(``mlp_extractor.policy_net.*``, ``mlp_extractor.value_net.*``, ``action_net.*``, ``value_net.*``,
Tanh between layers), so a checkpoint written from it is read unchanged by
agents/checkpoint/format.py and played by ``CheckpointAgent`` (tests/test_batched_network.py loads
one into the other and compares their outputs). Initialisation is SB3's: orthogonal, gain sqrt(2)
in the hidden layers, 0.01 for the action logits (a near-uniform first policy), 1 for the value.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from agents.checkpoint.net_arch import NetArch, Towers, as_json, towers
from agents.checkpoint_agent import MASKED_LOGIT
from training.batched.elementwise import Tanh, exp
from training.batched.precision import Linear
from training.batched.sparse import SparseObs, sparse_linear
from training.batched.tower import bfloat16_tower, tower_applies

HIDDEN_GAIN = math.sqrt(2)
ACTION_GAIN = 0.01
VALUE_GAIN = 1.0


def mlp(sizes: list[int]) -> nn.Sequential:
    """Linear layers with Tanh after each, as SB3's ``MlpExtractor`` builds them (indices 0, 2, 4 ...)."""
    layers: list[nn.Module] = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:], strict=True):
        layers += [Linear(fan_in, fan_out), Tanh()]
    return nn.Sequential(*layers)


class MlpExtractor(nn.Module):
    """Two separate towers, one for the policy and one for the value (SB3's names), each of its own widths."""

    def __init__(self, obs_size: int, layers: Towers) -> None:
        super().__init__()
        self.policy_net = mlp([obs_size, *layers.pi])
        self.value_net = mlp([obs_size, *layers.vf])


class ActorCritic(nn.Module):
    """``forward(obs) -> (logits, value)``; masked sampling, log-probabilities and entropy beside it."""

    def __init__(self, obs_size: int, num_actions: int, net_arch: NetArch) -> None:
        """``net_arch``: both towers' hidden widths (``[256, 256]``), or each tower's as SB3 writes it
        (``{"pi": [256, 256], "vf": [128, 128]}``: a narrower critic; agents/checkpoint/net_arch.py)."""
        super().__init__()
        self.obs_size, self.num_actions, self.net_arch = int(obs_size), int(num_actions), as_json(net_arch)
        layers = towers(self.net_arch)
        self.has_hidden = bool(layers.pi)  # a mapping has layers in both towers; a list in both or neither
        self.mlp_extractor = MlpExtractor(self.obs_size, layers)
        self.action_net = Linear(layers.pi[-1] if layers.pi else self.obs_size, self.num_actions)
        self.value_net = Linear(layers.vf[-1] if layers.vf else self.obs_size, 1)
        self._init_weights()

    def set_precision(self, gradient: torch.dtype, forward: torch.dtype) -> None:
        """The dtypes of every dense layer's products in training: the backward's and the forward's (precision.py;
        float32 both as built)."""
        for layer in self.modules():
            if isinstance(layer, Linear):
                layer.gradient_dtype, layer.forward_dtype = gradient, forward

    def _init_weights(self) -> None:
        for module, gain in ((self.mlp_extractor, HIDDEN_GAIN), (self.action_net, ACTION_GAIN),
                             (self.value_net, VALUE_GAIN)):
            for layer in module.modules():
                if isinstance(layer, nn.Linear):
                    nn.init.orthogonal_(layer.weight, gain=gain)
                    nn.init.zeros_(layer.bias)

    def forward(self, obs: torch.Tensor | SparseObs,
                policy_rows: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Unmasked action logits ``(N, A)`` and state values ``(N,)``; ``obs`` dense or as its non-zero
        entries (training/batched/sparse.py: the same numbers, the first layers computed from those only).
        ``policy_rows``: the logits of the first so many rows only (``(policy_rows, A)``), the values of all: the
        update's decisions with one legal action come last, and their policy has nothing to learn (ppo.py)."""
        towers = self.mlp_extractor.policy_net, self.mlp_extractor.value_net
        rows = [len(obs) if policy_rows is None else policy_rows, len(obs)]
        logits, values = (self.head_of(tower, head, first) for tower, head, first in
                          zip(towers, (self.action_net, self.value_net), self.first(obs, towers, rows), strict=True))
        return logits, values.squeeze(-1)

    def logits(self, obs: torch.Tensor | SparseObs) -> torch.Tensor:
        """The policy head alone (frozen opponents need no value)."""
        tower = self.mlp_extractor.policy_net
        return self.head_of(tower, self.action_net, self.first(obs, [tower])[0])

    def first(self, obs: torch.Tensor | SparseObs, towers, rows: list[int] | None = None) -> list[torch.Tensor]:
        """Each tower's first Linear applied to ``obs`` (the input itself for a network without hidden layers);
        ``rows[i]``: tower ``i`` reads the first so many rows only (None: all of them)."""
        rows = [len(obs) for _ in towers] if rows is None else rows
        if not self.has_hidden:
            dense = obs.dense(self.obs_size) if isinstance(obs, SparseObs) else obs
            return [dense[:count] for count in rows]
        if isinstance(obs, SparseObs):
            return sparse_linear(obs, [tower[0] for tower in towers], rows)
        return [tower[0](obs[:count]) for tower, count in zip(towers, rows, strict=True)]

    def head_of(self, tower: nn.Sequential, head: nn.Module, first: torch.Tensor) -> torch.Tensor:
        """``head`` on the rest of ``tower`` after its first Linear; in the update with bfloat16 forward products, as
        one autograd function that takes each tanh in one pass (tower.py)."""
        if not self.has_hidden:
            return head(first)
        rest = tower[1:]  # a new Sequential each time it is sliced: once here
        return bfloat16_tower(rest, head, first) if tower_applies(rest, head, first) else head(rest(first))


def masked_log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities with illegal actions at ``MASKED_LOGIT``, as sb3-contrib's MaskableCategorical."""
    return torch.log_softmax(torch.where(mask, logits, torch.tensor(MASKED_LOGIT, dtype=logits.dtype)), -1)


def sample(log_probs: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action per row drawn from ``exp(log_probs)`` (Gumbel-max: one uniform draw per logit)."""
    uniform = torch.rand(log_probs.shape, generator=generator).clamp_(min=1e-20)
    return (log_probs - torch.log(-torch.log(uniform))).argmax(-1)


def entropy(log_probs: torch.Tensor) -> torch.Tensor:
    """Entropy per row; illegal actions have probability 0 and add nothing."""
    return -(exp(log_probs) * log_probs).sum(-1)


def act(policy: ActorCritic, obs: torch.Tensor | SparseObs, mask: torch.Tensor,
        generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Sampled actions, their log-probabilities and the values, without gradients (the rollout)."""
    with torch.no_grad():
        logits, value = policy(obs)
        log_probs = masked_log_probs(logits, mask)
        actions = sample(log_probs, generator)
        return actions, log_probs.gather(1, actions[:, None]).squeeze(1), value


def act_frozen(policy: ActorCritic, obs: torch.Tensor | SparseObs, mask: torch.Tensor,
               generator: torch.Generator) -> torch.Tensor:
    """Sampled actions of a frozen opponent (policy head only)."""
    with torch.no_grad():
        return sample(masked_log_probs(policy.logits(obs), mask), generator)
