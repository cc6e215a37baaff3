"""A frozen network as a league member of the batched learner: the target of ``rams exploit --trainer batched``.

The league's frozen members take the learner's observations (its space: the game's general space, or the
table's own) and return action logits that the league samples from. A checkpoint trained in the same space
plays as it is; one trained at a single table in that table's own space (the SB3 agents) reads the native
part of each general observation (``Table.obs_index``) and its logits are placed at the general ids of its
actions (``Table.action_of_native``). Either way the logits are sharpened (times :data:`GREEDY_SCALE`), so
the sampled action is the greedy one: the target plays as ``CheckpointAgent`` plays it in the evaluation.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from agents.checkpoint.fit import fit_weights
from agents.checkpoint.format import SPECIALISTS, CheckpointError, load_checkpoint
from agents.checkpoint.specialists import check_single_network, network_state
from training.batched.network import ActorCritic

GREEDY_SCALE = 1e4
"""Logits times this: the softmax over the legal actions puts all but nothing on the largest logit."""


class FrozenTarget(nn.Module):
    """``logits(obs)`` of a checkpoint's network in the learner's space, sharpened to its greedy action."""

    def __init__(self, net: ActorCritic, obs_index: torch.Tensor | None, action_index: torch.Tensor | None,
                 num_actions: int) -> None:
        super().__init__()
        self.net, self.num_actions = net, int(num_actions)
        self.obs_index, self.action_index = obs_index, action_index

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        if self.obs_index is None:
            return self.net.logits(obs) * GREEDY_SCALE
        native = self.net.logits(obs[:, self.obs_index]) * GREEDY_SCALE
        out = torch.zeros((len(obs), self.num_actions), dtype=native.dtype)
        out[:, self.action_index] = native
        return out


def frozen_target(path: str | Path, space, table, game=None) -> FrozenTarget:
    """The checkpoint at ``path`` as a frozen league member for ``table`` of the learner's ``space``
    (training/batched/sources.py: ``source.space``, ``source.tables[0]``), the network that plays ``game`` (the
    table's rams_env Game: a specialist of that table, if the checkpoint has one); CheckpointError if it fits
    neither the space nor the table's own sizes."""
    meta, state, arch = _weights_for(path, game)
    net = ActorCritic(meta["observation_size"], meta["action_size"], arch)
    fit_weights(net, state, path)
    net.eval().requires_grad_(False)
    sizes = (meta["observation_size"], meta["action_size"])
    if sizes == (space.obs_size, space.num_actions):
        return FrozenTarget(net, None, None, space.num_actions)
    obs_index, action_of_native = getattr(table, "obs_index", None), getattr(table, "action_of_native", None)
    if obs_index is None or sizes != (len(obs_index), len(action_of_native)):
        raise CheckpointError(path, f"a network of {sizes[0]} inputs and {sizes[1]} actions fits neither this "
                                    f"table nor the learner's space ({space.obs_size}, {space.num_actions})")
    return FrozenTarget(net, torch.as_tensor(obs_index), torch.as_tensor(action_of_native), space.num_actions)


def start_from(policy: ActorCritic, path: str | Path, game=None) -> None:
    """``policy`` set to the weights of the checkpoint at ``path`` (a fine-tune, or a probe that starts as its
    target: the network that plays ``game``'s table); a CheckpointError naming the difference if that network is
    not this one (another space or shape)."""
    _, state, _ = _weights_for(path, game)
    fit_weights(policy, state, path)


def _weights_for(path: str | Path, game) -> tuple[dict, dict[str, torch.Tensor], list[int]]:
    """(meta, weights, net_arch) of the network that plays ``game``'s table; with no table (a fine-tune over many
    tables), of the checkpoint's one network, a checkpoint with specialists refused."""
    if game is None:
        meta, state, _ = load_checkpoint(path)
        check_single_network(meta, path, "a fine-tune over many tables starts from one network: the base's own file "
                                         "or a specialist's (each entry names its source)")
        return meta, state, meta["net_arch"]
    meta, state, index = network_state(path, game)
    return meta, state, meta["net_arch"] if index is None else meta[SPECIALISTS][index]["net_arch"]
