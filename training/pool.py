"""The opponent pool: who sits in the other seats of each training deal.

Config ``opponents`` maps a kind to a weight; for every deal, each non-learner seat draws
its kind independently with probability proportional to the weights:

- ``self``: the current policy (the live network, sampling its actions);
- ``snapshots``: a frozen copy of the learner taken every ``snapshot_every`` steps. The
  pool keeps the last ``snapshots_kept`` and draws one by the ``snapshot_sampling`` rule.
  Until the first snapshot exists the draw falls back to ``self``;
- any agent spec of the registry (``random``, ``heuristic``, ``heuristic:bluffer``,
  ``checkpoint:path.zip``, ``pretrained``): a fresh scripted agent seeded per deal.

Snapshot sampling rules:

- ``recent`` (default): the snapshot of age ``a`` (0 = newest) has weight ``1 / (a + 1)``.
  Recent snapshots are the relevant opponents; older ones keep the learner from forgetting
  how to beat them.
- ``prioritized`` (prioritised fictitious self-play, as in AlphaStar): a snapshot's weight
  grows with how often it still beats the learner, so training time goes to the opponents
  the learner has not mastered. Weight = ``rate + PRIORITY_FLOOR``, normalised, where
  ``rate`` is the snapshot's smoothed win rate against the learner: the mean of its deal
  outcomes with one virtual draw added (a fresh snapshot starts at 1/2), which turns into an
  exponential average over the last ``RATE_MEMORY`` deals once it has played that many (the
  learner keeps changing, so old results go stale). The floor keeps every snapshot drawn now
  and then, even one the learner always beats.

Deal outcomes (kept under both rules; TensorBoard ``pool/snapshot_<steps>_winrate``): at the
end of each training deal the single-seat env calls :meth:`OpponentPool.record`. For every
snapshot that held at least one seat, the deal is a win (1) for it when its seats earned more
on average than the learner, a loss (0) when less, half a win on a tie. Deals that end before
the learner acts are dealt again and never recorded.

Snapshots survive ``--resume``: each is written once as a weights-only checkpoint under
``<out_dir>/snapshots/`` and ``last.zip`` records which ones the pool held, with their results.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents.base import Agent
from agents.checkpoint.fit import RUN_HINT, check_table, fit_weights
from agents.checkpoint.format import CheckpointError, load_checkpoint, save_checkpoint
from agents.checkpoint.net_arch import NetArch, as_json
from agents.checkpoint_agent import PolicyAgent, build_policy
from agents.registry import AgentFactory, AgentSpecError, agent_factories


class PoolKind(str, Enum):
    """The opponent kinds of the pool itself; any other kind in ``opponents`` is an agent spec."""

    SELF = "self"
    SNAPSHOTS = "snapshots"

    @classmethod
    def of(cls, kind: str) -> PoolKind | None:
        """The pool's own kind ``kind`` names, or None for an agent spec."""
        return cls._value2member_map_.get(kind)


class SnapshotSampling(str, Enum):
    """The values of ``snapshot_sampling`` (see the module docstring)."""

    RECENT = "recent"
    PRIORITIZED = "prioritized"


SAMPLING_RULES = tuple(rule.value for rule in SnapshotSampling)
SNAPSHOT_DIR = "snapshots"
SNAPSHOT_PREFIX = "snapshot:"

DRAW = 0.5
"""The outcome of a tied deal, and so the win rate of a fresh snapshot (its virtual draws only)."""

PRIOR_DRAWS = 1
"""Virtual drawn deals in a snapshot's win rate: a fresh snapshot starts at 1/2, not at 0 or 1."""

RATE_MEMORY = 200
"""Deals after which the win rate becomes an exponential average of about this many recent deals."""

PRIORITY_FLOOR = 0.05
"""Added to every win rate under ``prioritized``: a snapshot the learner always beats is still drawn sometimes."""


class PoolError(ValueError):
    """An opponent spec the registry cannot build."""


def scripted_factories(specs: list[str], game) -> dict[str, AgentFactory]:
    """The registry's factories (agents/registry.py) of the specs that are not the pool's own kinds; an error
    names the spec."""
    factories = {}
    for spec in specs:
        if PoolKind.of(spec) is not None:
            continue
        try:
            factories.update(agent_factories([spec], game))
        except (AgentSpecError, CheckpointError, ImportError, AttributeError) as err:
            raise PoolError(f"opponent {spec!r}: {err}") from None
    return factories


def snapshot_weights(count: int) -> np.ndarray:
    """Probabilities of the ``count`` kept snapshots, oldest first: proportional to 1 / (age + 1)."""
    ages = np.arange(count)[::-1]
    weights = 1.0 / (ages + 1.0)
    return weights / weights.sum()


def prioritized_weights(rates: list[float]) -> np.ndarray:
    """Probabilities of snapshots with these win rates against the learner: proportional to rate + floor."""
    weights = np.asarray(rates, dtype=float) + PRIORITY_FLOOR
    return weights / weights.sum()


def snapshot_name(steps: int) -> str:
    """The agent name of the snapshot taken at ``steps`` (how :meth:`OpponentPool.record` recognises it)."""
    return f"{SNAPSHOT_PREFIX}{steps}"


def deal_outcome(snapshot_payoffs: list[float], learner_payoff: float) -> float:
    """1 if the snapshot's seats earned more on average than the learner, 0 if less, 1/2 on a tie."""
    lead = sum(snapshot_payoffs) - len(snapshot_payoffs) * learner_payoff  # exact for whole-number payoffs
    return 1.0 if lead > 0 else 0.0 if lead < 0 else DRAW


class Snapshot:
    """A frozen copy of the learner's policy at a given step, with its results against the learner."""

    def __init__(self, steps: int, policy, deals: int = 0, rate: float = DRAW) -> None:
        self.steps = steps
        self.policy = policy
        self.deals = deals  # training deals in which it held a seat
        self.rate = rate  # smoothed share of them it won against the learner

    def observe(self, outcome: float) -> None:
        """One more deal: running mean with PRIOR_DRAWS virtual draws, then an average over RATE_MEMORY deals."""
        self.deals += 1
        self.rate += (outcome - self.rate) / min(self.deals + PRIOR_DRAWS, RATE_MEMORY)


class OpponentPool:
    """Draws the agents of the other seats for each deal (a callable for :class:`SingleSeatEnv`)."""

    def __init__(self, game, opponents: dict[str, float], obs_size: int, n_actions: int, net_arch: NetArch,
                 snapshots_kept: int = 5, sampling: str = SnapshotSampling.RECENT) -> None:
        if sampling not in SAMPLING_RULES:
            raise PoolError(f"snapshot_sampling={sampling!r}: one of {', '.join(SAMPLING_RULES)}")
        self.game = game
        self.sampling = SnapshotSampling(sampling)
        self.n = game.num_players
        self.kinds = [k for k, w in opponents.items() if w > 0]
        weights = np.array([opponents[k] for k in self.kinds], dtype=float)
        self.weights = weights / weights.sum()
        self.scripted = scripted_factories(self.kinds, game)
        self.obs_size, self.n_actions, self.net_arch = obs_size, n_actions, as_json(net_arch)
        self.kept = snapshots_kept
        self.snapshots: list[Snapshot] = []
        self.current = None  # the live policy, set by attach()
        self.folder: Path | None = None  # the run folder the snapshots were restored from

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

    def snapshot_probabilities(self) -> np.ndarray:
        """The chance of each kept snapshot (oldest first) when a seat draws ``snapshots``."""
        if self.sampling is SnapshotSampling.PRIORITIZED:
            return prioritized_weights([s.rate for s in self.snapshots])
        return snapshot_weights(len(self.snapshots))

    def _key(self, kind: str, rng: np.random.Generator) -> str:
        """The key of one seat's agent: ``self``, ``snapshot:<steps>`` or a registry spec."""
        own = PoolKind.of(kind)
        if own is PoolKind.SNAPSHOTS and self.snapshots:
            snap = self.snapshots[int(rng.choice(len(self.snapshots), p=self.snapshot_probabilities()))]
            return snapshot_name(snap.steps)
        if own is None:
            rng.integers(2**31)  # the seed scripted agents were built with (the env reseeds them): the stream of
            # draws stays that of earlier versions, so their runs are reproduced draw for draw
            return kind
        return PoolKind.SELF.value  # no snapshot yet: the live policy

    def draw(self, rng: np.random.Generator) -> list[str]:
        """The key of every seat's agent (the learner's seat is drawn too and ignored: the draws stay
        seat-independent). :meth:`build` turns keys into agents, now or when a resumed run replays the deal."""
        return [self._key(self.kinds[int(rng.choice(len(self.kinds), p=self.weights))], rng) for _ in range(self.n)]

    def build(self, keys: list[str]) -> list[Agent]:
        """The agents of :meth:`draw`'s keys; each is reset with its seed by the env before the deal."""
        return [self._agent(key) for key in keys]

    def __call__(self, rng: np.random.Generator) -> list[Agent]:
        """One agent per seat (see :meth:`draw`)."""
        return self.build(self.draw(rng))

    def _agent(self, key: str) -> Agent:
        if key.startswith(SNAPSHOT_PREFIX):
            return PolicyAgent(self._snapshot_policy(int(key[len(SNAPSHOT_PREFIX):])), deterministic=False, name=key)
        if key == PoolKind.SELF.value:
            if self.current is None:
                raise RuntimeError("the opponent pool has no current policy: call attach() first")
            return PolicyAgent(self.current, deterministic=False, name=PoolKind.SELF.value)
        return self.scripted[key](0)

    def _snapshot_policy(self, steps: int):
        """A kept snapshot's network, or (replaying a deal after a resume) one the pool has forgotten since the
        deal began, read from its file (kept by :meth:`prune` while a deal in progress names it)."""
        for snap in self.snapshots:
            if snap.steps == steps:
                return snap.policy
        if self.folder is None:
            raise CheckpointError(f"snapshot {steps} is not in the pool")
        return self._load_snapshot(self.folder, steps).policy

    # ------------------------------------------------------------------ results against the learner
    def record(self, table: list[Agent], payoffs: list[float], learner_seat: int) -> None:
        """A training deal is over: one outcome for every kept snapshot that held a seat (SingleSeatEnv's hook)."""
        held = {snapshot_name(s.steps): s for s in self.snapshots}
        seats: dict[str, list[float]] = {}
        for seat, agent in enumerate(table):
            if seat != learner_seat and getattr(agent, "name", None) in held:
                seats.setdefault(agent.name, []).append(payoffs[seat])
        for name, earned in seats.items():
            held[name].observe(deal_outcome(earned, payoffs[learner_seat]))

    def win_rates(self) -> dict[int, float]:
        """Smoothed win rate against the learner of each kept snapshot that has played (by its steps)."""
        return {s.steps: s.rate for s in self.snapshots if s.deals}

    def entrants(self, learner: str = "learner") -> dict[str, AgentFactory]:
        """The live policy and the kept snapshots as greedy tournament entrants (evaluation/tournament.py).

        A snapshot with the live policy's very weights (the one taken at the step of an evaluation) is left
        out: it would only replay the learner's games, and its pairs are a quarter of a five-snapshot round robin.
        """
        if self.current is None:
            raise RuntimeError("the opponent pool has no current policy: call attach() first")
        live = self.current.state_dict()
        policies = {learner: self.current, **{snapshot_name(s.steps): s.policy for s in self.snapshots
                                              if not _same_weights(s.policy.state_dict(), live)}}
        return {name: _greedy(policy, name) for name, policy in policies.items()}

    # ------------------------------------------------------------------ persistence
    def save_snapshot(self, out: Path, snap: Snapshot, meta: dict[str, Any]) -> Path:
        """Write ``snap`` atomically, weights only, under ``out/snapshots/``, before any checkpoint refers to it.

        A file of the same step left by a killed run is overwritten: after a resume the step is re-taken.
        """
        return save_checkpoint(snapshot_path(out, snap.steps), {**meta, "steps": snap.steps, "snapshot": True},
                               snap.policy.state_dict())

    def state(self) -> dict[str, Any]:
        """What a checkpoint records about the pool (JSON): the kept snapshots' steps and their results."""
        return {"snapshots": [s.steps for s in self.snapshots], "snapshots_kept": self.kept,
                "results": {str(s.steps): {"deals": s.deals, "rate": s.rate} for s in self.snapshots}}

    def restore(self, out: Path, state: dict[str, Any] | None) -> None:
        """Reload the snapshots a checkpoint recorded (``state`` as checked by training/run_state.py): each file
        weights-only, of this game, table and rules, taken at the step its name says; a missing file is an error."""
        self.folder = Path(out)
        results = (state or {}).get("results", {})  # absent in checkpoints written before results were kept
        self.snapshots = []
        for steps in (state or {}).get("snapshots", []):
            kept = results.get(str(int(steps)), {})
            self.snapshots.append(self._load_snapshot(out, int(steps), int(kept.get("deals", 0)),
                                                      float(kept.get("rate", DRAW))))
        self.snapshots = self.snapshots[-self.kept:]

    def _load_snapshot(self, out: Path, steps: int, deals: int = 0, rate: float = DRAW) -> Snapshot:
        path = snapshot_path(out, steps)
        meta, weights, _ = load_checkpoint(path)
        check_table(meta, self.game, path, hint=RUN_HINT)
        if meta["steps"] != steps:
            raise CheckpointError(path, f"taken at step {meta['steps']}, the run's checkpoint says {steps}")
        policy = build_policy(self.obs_size, self.n_actions, self.net_arch)
        fit_weights(policy, weights, path)
        policy.set_training_mode(False)
        return Snapshot(steps, policy, deals, rate)

    def prune(self, out: Path, in_play: set[int] = frozenset()) -> None:
        """Delete snapshot files the pool no longer holds (call after the checkpoint that forgets them), except
        those of ``in_play`` (steps of snapshots seated in deals in progress, which a resume replays)."""
        keep = {snapshot_path(out, s).name for s in {*in_play, *(s.steps for s in self.snapshots)}}
        for path in (Path(out) / SNAPSHOT_DIR).glob("snapshot_*.zip"):
            if path.name not in keep:
                path.unlink(missing_ok=True)


def snapshot_path(out: Path, steps: int) -> Path:
    """The file of the snapshot taken at ``steps`` in the run folder ``out``."""
    return Path(out) / SNAPSHOT_DIR / f"snapshot_{steps:09d}.zip"


def _greedy(policy, name: str) -> AgentFactory:
    """A factory of greedy agents playing ``policy`` (the seed is ignored: greedy play draws nothing)."""
    return lambda seed: PolicyAgent(policy, deterministic=True, name=name)


def _same_weights(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
