"""General checkpoints: one network that plays every table size and preset of a game (rams_env/core/general.py).

A general checkpoint is an ordinary rams checkpoint (agents/checkpoint/format.py: ``meta.json`` and weights,
nothing else) whose ``meta.json`` says ``"observation": "general"``: its network reads the game's
:class:`~rams_env.core.general.GeneralSpace` (``observation_size``, ``action_size`` are the space's) and
``general_layout`` fingerprints that space, so a checkpoint trained before a preset changed the layout is
refused instead of read with shifted inputs. Writers call :func:`save_general_checkpoint` (or put
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
from rams_env.core.general import GeneralSpace, Table


@cache
def general_space(game: str) -> GeneralSpace:
    """The general space of ``game``, built once per process."""
    return GeneralSpace(game)


def layout_fingerprint(space: GeneralSpace) -> str:
    """A short hash of everything that places an input or an action: fields, features, action labels."""
    layout = [[(p.name, p.start, p.seats, p.units, p.cards) for p in space.fields.values()],
              space.cards, space.feature_names, space.labels]
    return hashlib.sha256(json.dumps(layout).encode()).hexdigest()[:16]


def general_meta(game: str) -> dict[str, Any]:
    """The metadata that makes a checkpoint of ``game`` general (sizes and layout computed, never declared)."""
    space = general_space(game)
    return {"game": game, "observation": GENERAL, "observation_size": space.obs_size,
            "action_size": space.num_actions, "general_layout": layout_fingerprint(space)}


def save_general_checkpoint(path: str | Path, game: str, net_arch: list[int], steps: int,
                            policy_state: dict[str, torch.Tensor], optimizer_state: dict[str, Any] | None = None,
                            **extra: Any) -> Path:
    """Write a general checkpoint of ``game`` (weights only; ``extra``: more JSON metadata, e.g. the config)."""
    meta = {**extra, **general_meta(game), "net_arch": list(net_arch), "steps": int(steps)}
    return save_checkpoint(path, meta, policy_state, optimizer_state)


def is_general(meta: dict[str, Any]) -> bool:
    return meta.get("observation") == GENERAL


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
