"""The opponent pool: who sits in the other seats of each training deal.

Config ``opponents`` maps a kind to a weight; for every deal, each non-learner seat draws
its kind independently with probability proportional to the weights:

- ``self``: the current policy (the live network, sampling its actions);
- ``snapshots``: a frozen copy of the learner taken every ``snapshot_every`` steps. The
  pool keeps the last ``snapshots_kept`` and draws one by a recent-biased rule: the
  snapshot of age ``a`` (0 = newest) has weight ``1 / (a + 1)``. Recent snapshots are
  the relevant opponents; older ones keep the learner from forgetting how to beat them.
  Until the first snapshot exists the draw falls back to ``self``;
- any agent spec of the registry (``random``, ``heuristic``, ``heuristic:bluffer``,
  ``checkpoint:path.zip``, ``pretrained``): a fresh scripted agent seeded per deal.

Snapshots survive ``--resume``: each is written once as a weights-only checkpoint under
``<out_dir>/snapshots/`` and ``last.zip`` records which ones the pool held.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from agents.checkpoint_agent import PolicyAgent, build_policy
from agents.registry import AgentFactory, AgentSpecError, agent_factory
from training.checkpoint import CheckpointError, load_checkpoint, save_checkpoint

SELF, SNAPSHOTS = "self", "snapshots"
SNAPSHOT_DIR = "snapshots"


class PoolError(ValueError):
    """An opponent spec the registry cannot build."""


def scripted_factories(specs: list[str], game) -> dict[str, AgentFactory]:
    """Registry factories for the scripted specs (``self`` and ``snapshots`` excluded); errors name the spec."""
    factories = {}
    for spec in specs:
        if spec in (SELF, SNAPSHOTS):
            continue
        try:
            factories[spec] = agent_factory(spec, game)
        except (AgentSpecError, CheckpointError, ImportError, AttributeError) as err:
            raise PoolError(f"opponent {spec!r}: {err}") from None
    return factories


def snapshot_weights(count: int) -> np.ndarray:
    """Probabilities of the ``count`` kept snapshots, oldest first: proportional to 1 / (age + 1)."""
    ages = np.arange(count)[::-1]
    weights = 1.0 / (ages + 1.0)
    return weights / weights.sum()


class Snapshot:
    """A frozen copy of the learner's policy at a given step."""

    def __init__(self, steps: int, policy) -> None:
        self.steps = steps
        self.policy = policy


class OpponentPool:
    """Draws the agents of the other seats for each deal (a callable for :class:`SingleSeatEnv`)."""

    def __init__(self, game, opponents: dict[str, float], obs_size: int, n_actions: int, net_arch: list[int],
                 snapshots_kept: int = 5) -> None:
        self.game = game
        self.n = game.num_players
        self.kinds = [k for k, w in opponents.items() if w > 0]
        weights = np.array([opponents[k] for k in self.kinds], dtype=float)
        self.weights = weights / weights.sum()
        self.scripted = scripted_factories(self.kinds, game)
        self.obs_size, self.n_actions, self.net_arch = obs_size, n_actions, list(net_arch)
        self.kept = snapshots_kept
        self.snapshots: list[Snapshot] = []
        self.current = None  # the live policy, set by attach()

    def attach(self, policy) -> None:
        """Use ``policy`` (the learner's network, updated in place by PPO) for ``self``."""
        self.current = policy

    def add_snapshot(self, steps: int, policy) -> Snapshot:
        """Freeze a copy of ``policy``; only the last ``snapshots_kept`` stay in the pool."""
        frozen = build_policy(self.obs_size, self.n_actions, self.net_arch)
        frozen.load_state_dict(policy.state_dict())
        frozen.set_training_mode(False)
        snap = Snapshot(int(steps), frozen)
        self.snapshots = [s for s in self.snapshots if s.steps != snap.steps] + [snap]
        self.snapshots = self.snapshots[-self.kept:]
        return snap

    def _agent(self, kind: str, rng: np.random.Generator) -> Agent:
        if kind == SNAPSHOTS and self.snapshots:
            snap = self.snapshots[int(rng.choice(len(self.snapshots), p=snapshot_weights(len(self.snapshots))))]
            return PolicyAgent(snap.policy, deterministic=False, name=f"snapshot:{snap.steps}")
        if kind in (SELF, SNAPSHOTS):
            if self.current is None:
                raise RuntimeError("the opponent pool has no current policy: call attach() first")
            return PolicyAgent(self.current, deterministic=False, name=SELF)
        return self.scripted[kind](int(rng.integers(2**31)))

    def __call__(self, rng: np.random.Generator) -> list[Agent]:
        """One agent per seat (the learner's seat is drawn too and ignored: the draws stay seat-independent)."""
        return [self._agent(self.kinds[int(rng.choice(len(self.kinds), p=self.weights))], rng)
                for _ in range(self.n)]

    # ------------------------------------------------------------------ persistence
    def save_snapshot(self, out: Path, snap: Snapshot, meta: dict[str, Any]) -> Path:
        """Write ``snap`` atomically, weights only, under ``out/snapshots/``, before any checkpoint refers to it.

        A file of the same step left by a killed run is overwritten: after a resume the step is re-taken.
        """
        path = Path(out) / SNAPSHOT_DIR / f"snapshot_{snap.steps:09d}.zip"
        return save_checkpoint(path, {**meta, "steps": snap.steps, "snapshot": True}, snap.policy.state_dict())

    def state(self) -> dict[str, Any]:
        """What a checkpoint records about the pool: the steps of the kept snapshots."""
        return {"snapshots": [s.steps for s in self.snapshots], "snapshots_kept": self.kept}

    def restore(self, out: Path, state: dict[str, Any] | None) -> None:
        """Reload the snapshots a checkpoint recorded (weights-only loading; missing files are an error)."""
        self.snapshots = []
        for steps in (state or {}).get("snapshots", []):
            path = Path(out) / SNAPSHOT_DIR / f"snapshot_{int(steps):09d}.zip"
            meta, weights, _ = load_checkpoint(path)
            policy = build_policy(self.obs_size, self.n_actions, self.net_arch)
            try:
                policy.load_state_dict(weights, strict=True)
            except RuntimeError as err:
                raise CheckpointError(f"{path}: weights do not fit this run's network ({err})") from None
            policy.set_training_mode(False)
            self.snapshots.append(Snapshot(int(meta["steps"]), policy))
        self.snapshots = self.snapshots[-self.kept:]

    def prune(self, out: Path) -> None:
        """Delete snapshot files the pool no longer holds (call after the checkpoint that forgets them)."""
        keep = {f"snapshot_{s.steps:09d}.zip" for s in self.snapshots}
        for path in (Path(out) / SNAPSHOT_DIR).glob("snapshot_*.zip"):
            if path.name not in keep:
                path.unlink(missing_ok=True)

