"""The run's random streams and rollout position, saved in ``last.zip`` so ``--resume`` continues them.

A resumed run used to build its model from ``seed`` again: every generator started over, so the opening deal
seeds of each resume repeated those of the run's first minutes. Now each checkpoint is taken where PPO stands
between two rollouts (training/train.py) and records, as JSON in its metadata under ``streams``:

- the global generators SB3 and torch draw from: Python's ``random``, numpy's legacy global generator (PPO's
  minibatch order) and torch's CPU generator (PPO's action sampling);
- each training env's generator (deal seeds, seats, opponent draws) and the record of its deal in progress
  (training/single_seat.py): the resumed env replays that deal to the same point, agents included;
- SB3's rollout position: which envs start a new episode at the next step (it enters the advantage
  estimate), the update counter and the recent episode statistics it logs.

Restoring all this makes a run interrupted at any checkpoint and resumed compute the same weights as one
never interrupted (tests/test_survive.py). The policy's own RNG needs nothing: opponents sample with their own
generators, reseeded every deal. What is not continued is logging only: SB3's timers, and the current deals'
rewards before the checkpoint in TensorBoard's ``rollout/ep_rew_mean``.
"""

from __future__ import annotations

import base64
import random
from collections import deque
from typing import Any

import numpy as np
import torch

from agents.checkpoint.format import CheckpointError


def capture(model) -> dict[str, Any]:
    """The streams and rollout position of ``model`` (a MaskablePPO between rollouts) as JSON-able data."""
    version, mt_state, gauss = random.getstate()
    name, keys, pos, has_gauss, cached = np.random.get_state()
    started = model._last_obs is not None  # False before the first rollout: the envs have not dealt yet
    return {"python": [version, list(mt_state), gauss],
            "numpy": [name, keys.tolist(), int(pos), int(has_gauss), float(cached)],
            "torch": base64.b64encode(torch.get_rng_state().numpy().tobytes()).decode(),
            "envs": [monitor.env.state() for monitor in model.env.envs] if started else None,
            "episode_starts": model._last_episode_starts.tolist() if started else None,
            "n_updates": int(model._n_updates),
            "episodes": list(model.ep_info_buffer or [])}


def restore(model, streams: dict[str, Any]) -> None:
    """Continue ``capture``'s streams in a freshly built ``model``; CheckpointError if they are malformed."""
    try:
        _restore(model, streams)
    except (TypeError, ValueError, KeyError, IndexError, RuntimeError) as err:
        raise CheckpointError(f"the saved random streams cannot be restored ({type(err).__name__}: {err})") from None


def _restore(model, streams: dict[str, Any]) -> None:
    envs = streams["envs"]
    if envs is not None:  # replay each env's deal in progress (this draws nothing from the global generators)
        if len(envs) != len(model.env.envs):
            raise ValueError(f"{len(envs)} saved envs, the run has {len(model.env.envs)} (n_envs changed?)")
        for monitor, state in zip(model.env.envs, envs, strict=True):
            monitor.env.continue_from(state)
        model._last_obs = model.env.reset()
        model._last_episode_starts = np.array(streams["episode_starts"], dtype=bool)
        if model._last_episode_starts.shape != (len(envs),):
            raise ValueError("episode starts do not match the envs")
    version, mt_state, gauss = streams["python"]
    random.setstate((int(version), tuple(int(x) for x in mt_state), gauss))
    name, keys, pos, has_gauss, cached = streams["numpy"]
    np.random.set_state((str(name), np.array(keys, dtype=np.uint32), int(pos), int(has_gauss), float(cached)))
    raw = np.frombuffer(base64.b64decode(streams["torch"], validate=True), dtype=np.uint8)
    torch.set_rng_state(torch.from_numpy(raw.copy()))
    model._n_updates = int(streams["n_updates"])
    model.ep_info_buffer = deque(streams["episodes"], maxlen=model._stats_window_size)
    model.ep_success_buffer = deque(maxlen=model._stats_window_size)


def snapshots_in_play(streams: dict[str, Any], prefix: str) -> set[int]:
    """Steps of the snapshots seated in the deals in progress (their files must outlive the pool's pruning)."""
    keys = [key for env in streams["envs"] or () if env["deal"] for key in env["deal"]["agents"]]
    return {int(key[len(prefix):]) for key in keys if key.startswith(prefix)}
