"""General checkpoints: one network that plays every table size and preset of a game (rams_env/core/general.py).

A general checkpoint is an ordinary rams checkpoint (agents/checkpoint/format.py: ``meta.json`` and weights,
nothing else) whose ``meta.json`` says ``"observation": "general"``: its network reads the game's
:class:`~rams_env.core.general.GeneralSpace` (``observation_size``, ``action_size`` are the space's) and
``general_layout`` fingerprints that space, so a checkpoint trained before a preset changed the layout is
refused instead of read with shifted inputs. One change of layout is read on purpose: a checkpoint written
before the card-play features were appended gets zero weights for them when it is loaded (:func:`upgraded`,
called by ``load_checkpoint``), so it plays as it always did. Writers call :func:`save_general_checkpoint` (or put
:func:`general_meta` in the metadata); the agent maps each table into the space (agents/checkpoint_agent.py).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import torch

from agents.checkpoint.format import GENERAL, CheckpointError, save_checkpoint
from agents.checkpoint.net_arch import NetArch, as_json
from rams_env.core.general import GeneralSpace, Table
from rams_env.registry import GAMES


@cache
def general_space(game: str) -> GeneralSpace:
    """The general space of ``game``, built once per process."""
    return GeneralSpace(game)


FIRST_LAYERS = ("mlp_extractor.policy_net.0.weight", "mlp_extractor.value_net.0.weight")
"""The weights that read the observation (every rams network has both towers, training/batched/network.py)."""


def layout_fingerprint(space: GeneralSpace, card_features: bool = True) -> str:
    """A short hash of everything that places an input or an action: fields, features, action labels
    (``card_features`` False: the layout before the card-play features were appended)."""
    features = space.feature_names if card_features else space.table_feature_names
    layout = [[(p.name, p.start, p.seats, p.units, p.cards) for p in space.fields.values()],
              space.cards, features, space.labels]
    return hashlib.sha256(json.dumps(layout).encode()).hexdigest()[:16]


def general_meta(game: str) -> dict[str, Any]:
    """The metadata that makes a checkpoint of ``game`` general (sizes and layout computed, never declared)."""
    space = general_space(game)
    return {"game": game, "observation": GENERAL, "observation_size": space.obs_size,
            "action_size": space.num_actions, "general_layout": layout_fingerprint(space)}


def save_general_checkpoint(path: str | Path, game: str, net_arch: NetArch, steps: int,
                            policy_state: dict[str, torch.Tensor], optimizer_state: dict[str, Any] | None = None,
                            **extra: Any) -> Path:
    """Write a general checkpoint of ``game`` (weights only; ``extra``: more JSON metadata, e.g. the config)."""
    meta = {**extra, **general_meta(game), "net_arch": as_json(net_arch), "steps": int(steps)}
    return save_checkpoint(path, meta, policy_state, optimizer_state)


def is_general(meta: dict[str, Any]) -> bool:
    return meta.get("observation") == GENERAL


def upgraded(meta: dict[str, Any], state: dict[str, torch.Tensor], optimizer: Any,
             path: str | Path) -> tuple[dict[str, Any], dict[str, torch.Tensor], Any]:
    """A general checkpoint written before the card-play features (rams_env/core/card_features.py) in
    today's layout: its first layers get zero weights for the appended inputs, so it plays exactly as it
    did, and a fine-tune from it (``batched.init_from``) learns to read them. Any other checkpoint is
    returned as it is. Its optimizer and league were built for the old inputs: such a run is not resumed."""
    if not is_general(meta) or meta["game"] not in GAMES:
        return meta, state, optimizer
    space = general_space(meta["game"])
    old_size = space.obs_size - space.card_features.size
    if meta.get("general_layout") != layout_fingerprint(space, card_features=False) \
            or meta["observation_size"] != old_size:
        return meta, state, optimizer
    if optimizer is not None:
        raise CheckpointError(path, "written before the card-play features were added to the general "
                                    "observation: a run is not resumed across layouts; start a new run from "
                                    "its weights with batched.init_from")
    state = dict(state)
    for name in FIRST_LAYERS:
        weight = state.get(name)
        if weight is None or weight.ndim != 2 or weight.shape[1] != old_size:
            raise CheckpointError(path, f"{name} does not read the {old_size} inputs its metadata declares")
        state[name] = torch.cat([weight, weight.new_zeros(weight.shape[0], space.card_features.size)], dim=1)
    return {**meta, **general_meta(meta["game"]), "upgraded_from_layout": meta["general_layout"]}, state, None


def general_table(meta: dict[str, Any], game, path: str | Path) -> Table:
    """The mapping of ``game``'s table into the space of a general checkpoint, once the checkpoint is known to
    read that space; a CheckpointError otherwise."""
    space = general_space(meta["game"])
    expected = general_meta(meta["game"])
    found = {key: meta.get(key) for key in expected}
    if found != expected:
        wrong = [f"{key} {found[key]!r} (this space: {expected[key]!r})"
                 for key in expected if found[key] != expected[key]]
        raise CheckpointError(path, f"a general {meta['game']} checkpoint with " + ", ".join(wrong)
                              + "; it was written for another general layout")
    try:
        return space.table(game)
    except ValueError as err:
        raise CheckpointError(path, f"this table does not fit the general space: {err}") from None
