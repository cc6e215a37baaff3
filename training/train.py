"""The self-play trainer behind ``rams train`` (cli/train.py): a MaskablePPO learner in one seat, the opponent
pool (training/pool.py) in the others, TensorBoard logs, atomic checkpoints, duplicate-deal evaluations
against the baselines during and after training, ``results.json`` and a plot; resumable (training/streams.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import HParam
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv
from tqdm import tqdm

import rams_env
from agents.checkpoint.fit import RUN_HINT, check_table, fit_optimizer, fit_weights
from agents.checkpoint.format import load_checkpoint, save_checkpoint
from agents.checkpoint.net_arch import as_json
from agents.checkpoint_agent import PolicyAgent
from agents.registry import agent_factory
from evaluation.duplicate import MatchResult, duplicate_match
from evaluation.ratings import Ratings
from training.config import TrainConfig, as_dict
from training.imitation import fit, record
from training.pool import SNAPSHOT_PREFIX, OpponentPool
from training.run_plot import LEARNER
from training.run_ratings import add_ratings, rate
from training.run_report import log_evaluation, results_table, tag, write_results
from training.run_state import check_run_meta
from training.rundir import LAST
from training.single_seat import SingleSeatEnv
from training.stopping import Interrupted, StopRequest, armed, save_at_end
from training.streams import capture, restore, snapshots_in_play


class TrainingMonitor(BaseCallback):
    """Progress bar (steps/s, ETA, last evaluation), snapshots, checkpoints and evaluations during ``learn``;
    a requested stop (training/stopping.py) ends it at the next rollout boundary, after a checkpoint."""

    def __init__(self, run: Run, stop: StopRequest | None = None) -> None:
        super().__init__()
        self.run, self.stop = run, stop
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        cfg = self.run.config
        self.bar = tqdm(total=budget(cfg), initial=self.model.num_timesteps, unit="step",
                        desc=f"training {cfg.game}", disable=self.run.quiet, dynamic_ncols=True)
        self.logger.record("hparams", HParam(hparams(cfg), {f"eval/{tag(b)}_mean": 0.0 for b in cfg.eval.baselines}),
                           exclude=("stdout", "log", "json", "csv"))
        for key, value in (self.run.warm_metrics or {}).items():
            self.logger.record(f"warm_start/{key}", value)

    def _on_step(self) -> bool:
        cfg, steps = self.run.config, self.model.num_timesteps
        self.bar.total = max(self.bar.total, steps)
        self.bar.update(steps - self.bar.n)
        if steps % cfg.snapshot_every < cfg.n_envs:
            self.run.snapshot()
        if cfg.eval.every and steps % cfg.eval.every < cfg.n_envs:
            results = self.run.evaluate(log=self.logger)
            self.bar.set_postfix({r.baseline: f"{r.mean:+.2f}±{r.ci95:.2f}" for r in results})
        return True

    def _on_rollout_start(self) -> None:
        """Between two rollouts (weights just updated, the next rollout's first step not taken) a checkpoint
        holds all a resume needs to go on exactly (training/streams.py): checkpoints and stops happen here, the
        first one at or after each multiple of ``checkpoint_every``."""
        steps, every = self.model.num_timesteps, self.run.config.checkpoint_every
        if self.stop is not None and self.stop.requested:
            raise Interrupted(steps, self.run.checkpoint())
        if steps // every > self.run.checkpointed // every:
            self.run.checkpoint()

    def _on_training_end(self) -> None:
        self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class Run:
    """One training run: config, environments, model, checkpoints and evaluations."""

    def __init__(self, config: TrainConfig, quiet: bool = False) -> None:
        self.config, self.quiet = config, quiet
        self.out = Path(config.out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        probe = rams_env.make_game(config.game, config.num_players, **config.rules)
        self.obs_size, self.n_actions = probe.observation.size, probe.actions.size
        self.rules_dict = probe.rules.as_dict()
        self.game = probe
        self.pool = OpponentPool(probe, config.opponents, self.obs_size, self.n_actions, config.ppo.net_arch,
                                 config.snapshots_kept, config.snapshot_sampling)
        self.history: list[dict[str, Any]] = []
        self.warm_metrics: dict[str, float] | None = None  # set by warm_start(), kept in checkpoints
        self.checkpointed = 0  # steps of the last checkpoint written or resumed from
        env_fns = [self._env_fn(i) for i in range(config.n_envs)]
        ppo = config.ppo
        self.model = MaskablePPO(
            "MlpPolicy", DummyVecEnv(env_fns), seed=config.seed, verbose=0,
            learning_rate=ppo.learning_rate, n_steps=ppo.n_steps, batch_size=ppo.batch_size,
            n_epochs=ppo.n_epochs, gamma=ppo.gamma, gae_lambda=ppo.gae_lambda, clip_range=ppo.clip_range,
            ent_coef=ppo.ent_coef, policy_kwargs={"net_arch": as_json(ppo.net_arch)},
            tensorboard_log=str(self.out / "tb"))
        self.pool.attach(self.model.policy)

    def _env_fn(self, index: int):
        return lambda: Monitor(self.single_seat())

    def single_seat(self) -> SingleSeatEnv:
        """The learner's view of one training table, opponents drawn from the pool."""
        cfg = self.config
        return SingleSeatEnv(cfg.game, self.pool, cfg.num_players, reward_scale=cfg.reward_scale,
                             **cfg.rules, **cfg.env)

    def meta(self) -> dict[str, Any]:
        cfg = self.config
        return {"game": cfg.game, "num_players": self.pool.n, "rules": self.rules_dict,
                "observation_size": self.obs_size, "action_size": self.n_actions,
                "observation_version": self.game.observation.version,
                "net_arch": as_json(cfg.ppo.net_arch), "steps": int(self.model.num_timesteps), "seed": cfg.seed,
                "evaluation": self.history[-1] if self.history else None, "history": self.history,
                "pool": self.pool.state(), "warm_start": self.warm_metrics, "config": as_dict(cfg)}

    def save(self, name: str | Path, optimizer: bool = True, **extra: Any) -> Path:
        """A checkpoint in the run folder (``name``) or anywhere (a path); weights only without ``optimizer``;
        ``extra`` metadata beside :meth:`meta`'s."""
        target = Path(name) if Path(name).parent != Path(".") else self.out / name
        return save_checkpoint(target, {**self.meta(), **extra}, self.model.policy.state_dict(),
                               self.model.policy.optimizer.state_dict() if optimizer else None)

    def snapshot(self) -> None:
        """Freeze the learner into the pool; its file is written before any checkpoint names it."""
        snap = self.pool.add_snapshot(self.model.num_timesteps, self.model.policy)
        self.pool.save_snapshot(self.out, snap, self.meta())

    def checkpoint(self) -> Path:
        """``last.zip`` (weights, optimizer, steps, pool, random streams), then the files of forgotten snapshots
        go (unless a deal in progress seats them: a resume replays it)."""
        streams = capture(self.model)
        path = self.save(LAST, streams=streams)
        self.checkpointed = int(self.model.num_timesteps)
        self.pool.prune(self.out, snapshots_in_play(streams, SNAPSHOT_PREFIX))
        return path

    def resume(self) -> None:
        """Continue from ``last.zip``: weights, optimizer, step counter, evaluation history, pool snapshots.
        Each part is checked before it is used (agents/checkpoint/fit.py, training/run_state.py): a refused
        file is a CheckpointError, which ends the command with one line."""
        path = self.out / "last.zip"
        meta, state, optimizer = load_checkpoint(path, with_optimizer=True)
        check_table(meta, self.game, path, hint=RUN_HINT)
        check_run_meta(meta, path)
        fit_weights(self.model.policy, state, path)
        if optimizer is not None:
            fit_optimizer(self.model.policy.optimizer, optimizer, path)
        self.model.num_timesteps = meta["steps"]
        self.history = list(meta.get("history", [])) or ([meta["evaluation"]] if meta.get("evaluation") else [])
        self.pool.restore(self.out, meta.get("pool"))
        self.warm_metrics = meta.get("warm_start")
        if meta.get("streams") is not None:  # absent before they were saved: the streams start from ``seed``
            restore(self.model, meta["streams"])
        self.checkpointed = self.model.num_timesteps

    def warm_start(self) -> dict[str, float] | None:
        """Imitate ``warm_start.teacher`` (training/imitation.py), then checkpoint so a resume starts after it;
        None (nothing done) when the config names no teacher."""
        cfg, warm = self.config, self.config.warm_start
        if not warm.teacher:
            return None
        teacher = agent_factory(warm.teacher, self.game)(cfg.seed)
        data = record(self.single_seat(), teacher, warm.decisions, cfg.ppo.gamma, cfg.seed, progress=not self.quiet)
        self.warm_metrics = fit(self.model.policy, data, warm.epochs, warm.batch_size, warm.learning_rate,
                                warm.value_coef, progress=not self.quiet, fit_seed=warm.fit_seed)
        self.checkpoint()
        return self.warm_metrics

    def evaluate(self, log=None, deals: int | None = None, progress: bool = False) -> list[MatchResult]:
        """Duplicate deals against each ``eval.baselines`` spec (greedy learner), logged with 95% bounds;
        ratings of learner, snapshots and baselines, and the snapshots' online win rates against the learner.
        ``progress``: a bar per phase (the final evaluation takes minutes)."""
        cfg = self.config
        candidate = PolicyAgent(self.model.policy, deterministic=True, name=LEARNER)
        env_kwargs = {**cfg.rules, **cfg.env, "random_carry": cfg.eval.random_carry}
        results = [duplicate_match(cfg.game, cfg.num_players, env_kwargs, candidate, b, deals or cfg.eval.deals,
                                   progress=f"evaluation vs {b}" if progress else None)
                   for b in cfg.eval.baselines]
        entry: dict[str, Any] = {"steps": int(self.model.num_timesteps), "results": [r.as_dict() for r in results]}
        ratings = self.rate(progress) if cfg.eval.ratings_deals else None
        if ratings is not None:
            add_ratings(entry, ratings)
        winrates = self.pool.win_rates()
        if winrates:
            entry["snapshot_winrates"] = {str(steps): rate for steps, rate in winrates.items()}
        self.history.append(entry)
        if log is not None:
            log_evaluation(log, entry)
        return results

    def rate(self, progress: bool = False) -> Ratings:
        """Elo-scale ratings (random = 0) of the greedy learner, the kept snapshots and the baselines
        (training/run_ratings.py)."""
        return rate(self.config, self.pool.entrants(learner=LEARNER), progress)

    def train(self, stop: StopRequest | None = None) -> None:
        """PPO up to ``total_timesteps``, then ``last.zip``; raises Interrupted after saving if ``stop`` asks."""
        cfg = self.config
        remaining = cfg.total_timesteps - self.model.num_timesteps
        if remaining > 0:
            monitor = TrainingMonitor(self, stop)
            with armed(stop):
                try:
                    self.model.learn(remaining, callback=monitor, reset_num_timesteps=False, tb_log_name="ppo")
                finally:
                    monitor.close()
        save_at_end(stop, self.checkpoint, lambda: self.checkpointed)

    def report(self, results: list[MatchResult], seconds: float) -> str:
        cfg = self.config
        steps = self.model.num_timesteps
        rounded = f" ({cfg.total_timesteps} asked, rounded up to whole rollouts)" if steps == budget(cfg) else ""
        rounded = rounded if steps != cfg.total_timesteps else ""
        write_results(self.out, cfg.game, steps, seconds, results, self.history, cfg.eval.baselines)
        return results_table(results, cfg.game, steps, self.game.score_unit, rounded)


def budget(cfg: TrainConfig) -> int:
    """The steps a run trains: ``total_timesteps`` rounded up to whole rollouts (``ppo.n_steps`` x ``n_envs``
    steps), since PPO collects a whole rollout before each update (60000 -> 61440 with 512 x 4)."""
    rollout = cfg.ppo.n_steps * cfg.n_envs
    return -(-cfg.total_timesteps // rollout) * rollout


def hparams(cfg: TrainConfig) -> dict[str, Any]:
    """The run's hyper-parameters, flattened for TensorBoard's HPARAMS tab (scalars and strings only)."""
    flat = {"game": cfg.game, "num_players": cfg.num_players or 0, "seed": cfg.seed,
            "total_timesteps": cfg.total_timesteps, "n_envs": cfg.n_envs, "snapshot_every": cfg.snapshot_every,
            "snapshots_kept": cfg.snapshots_kept, "snapshot_sampling": cfg.snapshot_sampling,
            "rules": json.dumps(cfg.rules, sort_keys=True),
            "opponents": json.dumps(cfg.opponents, sort_keys=True)}
    for key, value in as_dict(cfg)["ppo"].items():
        flat[f"ppo.{key}"] = value if isinstance(value, (int, float, str)) else str(value)
    return flat
