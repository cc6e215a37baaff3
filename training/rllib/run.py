"""``rams train`` with ``trainer: rllib``: the run around an RLlib algorithm (the calls cli/train.py makes).

:class:`RLlibRun` starts Ray (this machine, or the cluster at ``rllib.address``), builds the algorithm
(training/rllib/algorithm.py) and calls ``train()`` until the learner module has taken ``total_timesteps``
decisions (every seat it plays counts, self-play seats included). Between iterations, as the batched trainer
does (training/batched/run.py): the snapshot slots shift every ``snapshot_every`` decisions (the learner's
weights into ``snapshot_0``, training/rllib/seats.py), evaluations every ``eval.every``, ``last.zip`` every
``checkpoint_every``, a stop on Ctrl-C / SIGTERM at the iteration's end; TensorBoard under ``out_dir/tb``
(RLlib's sampling, learner and timing figures under ``rllib/``), ``results.json`` and ``evaluation.png``.

Checkpoints are rams' weights-only files (training/rllib/export.py): the learner's network, nothing of
RLlib's (Adam's moments and the sampler state stay in Ray). ``--resume`` restores the weights into the
learner and every snapshot slot, the step count and the evaluation history; Adam starts afresh.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.checkpoint.fit import fit_weights
from agents.checkpoint.format import CheckpointError, load_checkpoint
from agents.checkpoint.net_arch import as_json
from agents.registry import agent_factory
from evaluation.duplicate import MatchResult
from training.batched.network import ActorCritic
from training.batched.run import BatchedRun, crossed
from training.config import TrainConfig, as_dict
from training.rllib.algorithm import algorithm_config, start_ray
from training.rllib.export import module_weights, save_rams_checkpoint, table_meta
from training.rllib.seats import LEARNER, module_ids
from training.run_report import results_table, write_results
from training.run_state import check_run_meta
from training.rundir import LAST

ROOT = str(Path(__file__).resolve().parents[2])
"""The rams checkout local Ray workers import from."""

LOGGED = ("env_runners/episode_len_mean", "env_runners/num_env_steps_sampled_lifetime_throughput",
          "timers/env_runner_sampling_timer", "timers/learner_update_timer")
"""RLlib figures logged under ``rllib/`` beside the learner module's own (losses, entropy, returns)."""


class RLlibRun(BatchedRun):
    """One RLlib training run: Ray, the algorithm, checkpoints, evaluations and logs (see the module docstring);
    the batched run's loop (``train``) and evaluations (``evaluate``) around RLlib's iterations."""

    def __init__(self, config: TrainConfig, quiet: bool = False) -> None:
        self._steps = 0  # the learner module's decisions
        self.open_run(config, quiet)
        self.general = config.rllib.general or len(self.tables) > 1
        start_ray(config.rllib.address, config.rllib.num_cpus, ROOT)
        self.algo = algorithm_config(config, self.tables, self.general).build_algo()
        self.set_learner(self.weights())  # every snapshot slot starts as the initial network

    @property
    def steps(self) -> int:
        return self._steps

    def warm_start(self) -> None:
        """RLlib's modules start from their own initial weights (``batched.init_from`` is the batched learner's)."""
        return None

    def start_workers(self) -> None:
        """Ray runs RLlib's own env runners and learners (``batched.processes`` is the batched learner's)."""

    def stop_workers(self, orderly: bool) -> None:
        """Ray's env runners and learners stay up until the run closes."""

    def weights(self) -> dict[str, Any]:
        """The learner module's weights (``net.`` + rams' state_dict names)."""
        return self.algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]

    def set_learner(self, weights: dict[str, Any], learner: bool = False) -> None:
        """``weights`` into every snapshot slot (and the learner if asked), then to every env runner."""
        targets = module_ids(self.config.snapshots_kept)[0 if learner else 1:]
        self._push(dict.fromkeys(targets, weights))

    def refresh_snapshots(self) -> None:
        """Each slot takes the next newer one's weights, ``snapshot_0`` the learner's (seats.py's ages)."""
        ids = module_ids(self.config.snapshots_kept)
        current = self.algo.learner_group.get_weights(module_ids=ids)
        self._push({older: current[newer] for newer, older in zip(ids[:-1], ids[1:], strict=True)})

    def _push(self, weights: dict[str, Any]) -> None:
        if weights:
            self.algo.learner_group.set_weights(weights)
            self.algo.env_runner_group.sync_weights(from_worker_or_learner_group=self.algo.learner_group,
                                                    inference_only=True)

    def meta(self) -> dict[str, Any]:
        cfg = self.config
        return {**table_meta(cfg.game, self.home.make_game(cfg.game), self.general),
                "net_arch": as_json(cfg.rllib.net_arch), "steps": self.steps, "seed": cfg.seed, "trainer": "rllib",
                "tables": [t.label() for t in self.tables], "evaluation": self.history[-1] if self.history else None,
                "history": self.history, "config": as_dict(cfg)}

    def save(self, name: str | Path, optimizer: bool = True, trainer: bool = False) -> Path:
        """The learner's weights as a rams checkpoint in the run folder (``name``) or anywhere (a path);
        ``optimizer`` and ``trainer`` are accepted for the callers' sake: RLlib's state is not exported."""
        target = Path(name) if Path(name).parent != Path(".") else self.out / name
        return save_rams_checkpoint(target, self.meta(), self.weights())

    def resume(self) -> None:
        """Weights, steps and history from ``last.zip`` (checked against this run's network first)."""
        path = self.out / LAST
        meta, state, _ = load_checkpoint(path)
        check_run_meta(meta, path)
        expected = self.meta()
        for key in ("game", "observation", "observation_size", "action_size", "net_arch", "trainer"):
            if meta.get(key) != expected.get(key):
                raise CheckpointError(path, f"{key} is {meta.get(key)!r}, this run has {expected.get(key)!r}")
        probe = ActorCritic(meta["observation_size"], meta["action_size"], meta["net_arch"])
        fit_weights(probe, state, path)
        self.set_learner(module_weights(probe.state_dict()), learner=True)
        self._steps, self.history = int(meta["steps"]), list(meta.get("history", []))
        self.checkpointed = self.steps

    def snapshot_winrates(self) -> dict[str, float]:
        """None: RLlib's snapshot slots keep no win rates (they shift by age, training/rllib/seats.py)."""
        return {}

    def entrants(self, weights: Path) -> dict[str, Any]:
        """The learner alone as a rating entrant: the snapshot slots' weights stay in Ray."""
        return {LEARNER: agent_factory(f"checkpoint:{weights}", self.home.make_game(self.config.game))}

    def iterate(self, bar: tqdm) -> dict[str, Any]:
        """One ``algo.train()``; then the snapshots, evaluations and checkpoints due."""
        cfg, before = self.config, self.steps
        result = self.algo.train()
        self._steps = before + int(result["env_runners"].get("num_module_steps_sampled", {}).get(LEARNER, 0))
        self.log_result(result)
        bar.update(min(self.steps, bar.total) - bar.n)
        if crossed(before, self.steps, cfg.snapshot_every):
            self.refresh_snapshots()
        if crossed(before, self.steps, cfg.eval.every):
            self.evaluate()
        if crossed(before, self.steps, cfg.checkpoint_every):
            self.checkpoint()
        self.log.flush()
        return result

    def log_result(self, result: dict[str, Any]) -> None:
        """The learner module's metrics (losses, entropy, ...), its mean return and RLlib's rates."""
        for key, value in result.get("learners", {}).get(LEARNER, {}).items():
            if isinstance(value, (int, float)):
                self.log.record(f"train/{key}", value)
        returns = result["env_runners"].get("module_episode_returns_mean", {})
        if LEARNER in returns:
            self.log.record("train/reward_learner", float(returns[LEARNER]))
        for path in LOGGED:
            value = dig(result, path)
            if isinstance(value, (int, float)):
                self.log.record(f"rllib/{path.rsplit('/', 1)[1]}", value)

    def report(self, results: list[MatchResult], seconds: float) -> str:
        cfg = self.config
        write_results(self.out, cfg.game, self.steps, seconds, results, self.history, cfg.eval.baselines,
                      trainer="rllib", tables=[t.label() for t in self.tables])
        self.log.close()
        self.algo.stop()
        unit = self.home.make_game(cfg.game).score_unit
        return results_table(results, cfg.game, self.steps, unit, f" ({self.home.label()}, rllib)")


def dig(tree: dict[str, Any], path: str) -> Any:
    """``tree["a"]["b"]`` for ``"a/b"`` (None where a key is missing)."""
    for key in path.split("/"):
        tree = tree.get(key) if isinstance(tree, dict) else None
    return tree
