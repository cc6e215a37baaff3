"""RLlib weights <-> rams' weights-only checkpoints (agents/checkpoint/format.py).

The masking module keeps rams' ``ActorCritic`` as ``net`` (training/rllib/module.py), so a module's weights
are a rams ``policy.pt`` under the prefix ``net.``: export strips it, import adds it. Nothing is unpickled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.checkpoint.format import save_checkpoint
from agents.checkpoint.general import general_meta

PREFIX = "net."


def rams_state(module_weights: dict[str, Any]) -> dict[str, torch.Tensor]:
    """A module's weights (tensors or numpy arrays, RLlib hands out either) as a rams ``state_dict``."""
    return {key[len(PREFIX):]: torch.as_tensor(np.asarray(value), dtype=torch.float32).clone()
            for key, value in module_weights.items() if key.startswith(PREFIX)}


def module_weights(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A rams ``state_dict`` as the module's weights."""
    return {PREFIX + key: value for key, value in state.items()}


def table_meta(game: str, table_game, general: bool) -> dict[str, Any]:
    """The table part of a checkpoint's meta: the game's general space, or the one table's own layout."""
    meta = {"game": game, "num_players": table_game.num_players, "rules": table_game.rules.as_dict()}
    if general:
        return {**meta, **general_meta(game)}
    return {**meta, "observation_size": table_game.observation.size, "action_size": table_game.actions.size,
            "observation_version": table_game.observation.version}


def save_rams_checkpoint(path: str | Path, meta: dict[str, Any], weights: dict[str, Any]) -> Path:
    """Weights only: what ``CheckpointAgent``, ``rams evaluate``, ``play``, ``bluff`` and ``exploit`` read."""
    return save_checkpoint(path, meta, rams_state(weights))
