"""The run around the batched self-play learner: ``rams train`` with ``trainer: batched`` (cli/train.py).

:class:`BatchedRun` drives ``SelfPlay.iterate()`` (training/batched/learner.py: one rollout of every seat of
every table, one PPO update) until ``total_timesteps`` learner decisions, with what the SB3 path has
(training/train.py): a progress bar, TensorBoard under ``out_dir/tb`` (every metric of ``iterate()``, the
hyper-parameters, the evaluations), league snapshots every ``snapshot_every`` steps, ``last.zip`` every
``checkpoint_every`` steps, duplicate-deal evaluations against ``eval.baselines`` every ``eval.every`` steps
(the current weights played as a checkpoint agent through the AEC env, at the config's table and at
``eval.tables``), a stop on Ctrl-C / SIGTERM at an iteration boundary (training/stopping.py), ``--resume``,
``results.json`` and ``evaluation.png`` (training/run_report.py).

Checkpoints are weights only (agents/checkpoint/format.py): the network and Adam's state as tensors, the
league, counters and random generators of ``SelfPlay.state()`` as tensors and plain data in ``trainer.pt``,
the config and the evaluation history as JSON. A general run (``tables`` not ``default``) marks its
checkpoints ``"observation": "general"``: they play any table size and preset of the game.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import torch
from tqdm import tqdm

from agents.checkpoint.fit import fit_optimizer, fit_weights
from agents.checkpoint.format import CheckpointError, load_checkpoint, load_trainer_state, save_checkpoint
from agents.checkpoint.net_arch import as_json
from agents.registry import agent_factory
from evaluation.duplicate import MatchResult
from training.batched.arrays import as_tensors
from training.batched.league import snapshot_id, snapshot_steps
from training.batched.parallel import SOLO as SOLO_GROUP
from training.batched.parallel import Start, Workers, weights_digest
from training.batched.run_eval import evaluate_weights
from training.batched.run_log import ScalarLog, open_writer
from training.batched.tables import TableSpec
from training.config import TrainConfig, as_dict
from training.run_plot import LEARNER
from training.run_ratings import add_ratings, rate
from training.run_report import results_table, write_results
from training.run_state import check_run_meta
from training.rundir import LAST
from training.stopping import StopRequest, armed, save_at_end
from training.tables import config_table, distinct, resolve_tables


def crossed(before: int, after: int, every: int) -> bool:
    """Whether the steps went past a multiple of ``every`` (0: never) from ``before`` to ``after``."""
    return every > 0 and after // every > before // every


class BatchedRun:
    """One batched training run: the learner, its checkpoints, evaluations and logs (the interface of
    training/train.py's ``Run`` that cli/train.py calls)."""

    def __init__(self, config: TrainConfig, quiet: bool = False) -> None:
        from training.batched.learner import SelfPlay

        self.open_run(config, quiet)
        self.selfplay = SelfPlay(config.game, self.tables, config.batched, config.seed,
                                 config.batched_table_specs("scripted_tables"),
                                 config.batched_table_specs("scripted_alone_tables"))
        self.general = self.sizes() != native_sizes(config.game, self.home)
        self.workers: Workers | None = None  # the other learner processes while training (batched.processes > 1)
        self.saved_workers: list[dict[str, Any]] | None = None  # their last states (resumed or gathered): they
        # start from these, and a checkpoint written once they have stopped holds these

    def open_run(self, config: TrainConfig, quiet: bool) -> None:
        """What every run around a learner holds (this one and training/rllib/run.py's): the config, the run
        folder, the tables it trains at, the evaluation history, the logs."""
        self.config, self.quiet = config, quiet
        self.out = Path(config.out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.tables = resolve_tables(config.tables, config.game, config.num_players, config.rules)
        self.home = config_table(config.game, config.num_players, config.rules)
        self.history: list[dict[str, Any]] = []
        self.checkpointed = 0  # steps of the last checkpoint written or resumed from
        self.warm_metrics: dict[str, float] | None = None  # set by warm_start(), kept in checkpoints
        self.log = ScalarLog(None, lambda: self.steps)

    @property
    def steps(self) -> int:
        return int(self.selfplay.steps)

    def sizes(self) -> tuple[int, int]:
        """(observation size, action count) of the learner's network, read from its weights."""
        state = self.selfplay.policy.state_dict()
        return int(state["mlp_extractor.policy_net.0.weight"].shape[1]), int(state["action_net.weight"].shape[0])

    def meta(self) -> dict[str, Any]:
        cfg, (obs_size, actions) = self.config, self.sizes()
        meta = {"game": cfg.game, "num_players": self.home.num_players, "rules": self.home_rules(),
                "observation_size": obs_size, "action_size": actions, "net_arch": as_json(cfg.batched.net_arch),
                "steps": self.steps, "seed": cfg.seed, "trainer": "batched",
                "tables": [t.label() for t in self.tables],
                "evaluation": self.history[-1] if self.history else None, "history": self.history,
                "warm_start": self.warm_metrics, "config": as_dict(cfg)}
        if self.general:
            from agents.checkpoint.general import general_meta

            meta.update(general_meta(cfg.game))
        else:
            meta["observation_version"] = self.home.make_game(cfg.game).observation.version
        return meta

    def home_rules(self) -> dict[str, Any]:
        """The rules in effect at the config's table, as the SB3 path's checkpoints record them."""
        return self.home.make_game(self.config.game).rules.as_dict()

    def save(self, name: str | Path, optimizer: bool = True, trainer: bool = False) -> Path:
        """A checkpoint in the run folder (``name``) or anywhere (a path): weights, and the optimizer and the
        learner's state (league, counters, generators) when asked."""
        target = Path(name) if Path(name).parent != Path(".") else self.out / name
        return save_checkpoint(target, self.meta(), self.selfplay.policy.state_dict(),
                               self.selfplay.optimizer.state_dict() if optimizer else None,
                               self.trainer_state() if trainer else None)

    def trainer_state(self) -> dict[str, Any]:
        """The learner's state and, while the other learner processes run, theirs (without the league snapshots
        this process holds too: the same weights, frozen at the same steps)."""
        state = {**self.selfplay.state(), "processes": self.config.batched.processes}
        if self.workers is not None:
            self.saved_workers = self.gather_workers()
        if self.saved_workers is not None:
            state["workers"] = self.saved_workers
        return state

    def gather_workers(self) -> list[dict[str, Any]]:
        """The other learner processes' states, checked to hold this one's weights bit for bit, without the league
        snapshots this process holds too."""
        held = {str(ident) for ident in self.selfplay.league.snapshots}
        workers = self.workers.states()
        ours = weights_digest(self.selfplay.policy)
        for rank, worker in enumerate(workers, start=1):
            if worker.pop("weights_digest") != ours:
                raise RuntimeError(f"learner process {rank}'s weights differ from process 0's (a bug: the "
                                   "processes take the same steps from the same weights)")
            weights = worker["league"]["weights"]
            worker["league"]["weights"] = {key: value for key, value in weights.items() if key not in held}
        return workers

    def save_snapshot(self, path: str | Path, steps: int) -> Path:
        """The league snapshot frozen when the run crossed ``steps``, weights only, at ``path``: how a point of
        the run chosen by measurement is shipped (docs/training.md, "Shipping a snapshot"). Its ``steps`` is
        ``steps`` and its history stops there; ``snapshot_of`` records the run's own steps. Only the snapshots
        the league still holds (its ``snapshots_kept`` newest, and any still seated) can be saved."""
        every = self.config.snapshot_every
        if not every:
            raise ValueError("this run keeps no snapshots (snapshot_every is 0)")
        net = self.selfplay.league.snapshots.get(snapshot_id(steps, every))
        if net is None:
            held = ", ".join(f"{snapshot_steps(i, every):,}" for i in sorted(self.selfplay.league.snapshots)) or "none"
            raise ValueError(f"the league holds no snapshot frozen at {steps:,} steps (held: {held})")
        history = [entry for entry in self.history if entry["steps"] <= steps]
        meta = {**self.meta(), "steps": steps, "evaluation": None, "history": history,
                "snapshot_of": {"steps": self.steps, "snapshot_every": every}}
        return save_checkpoint(Path(path), meta, net.state_dict(), None, None)

    def checkpoint(self) -> Path:
        """``last.zip``: all a resume needs (weights, Adam, league, counters, generators, history)."""
        path = self.save(LAST, optimizer=True, trainer=True)
        self.checkpointed = self.steps
        return path

    def resume(self) -> None:
        """Continue from ``last.zip``: each part checked before it is used (a refusal is a CheckpointError)."""
        path = self.out / LAST
        meta, state, optimizer = load_checkpoint(path, with_optimizer=True)
        check_run_meta(meta, path)
        expected = self.meta()
        for key in ("game", "observation", "observation_size", "action_size", "net_arch", "trainer"):
            if meta.get(key) != expected.get(key):
                raise CheckpointError(path, f"{key} is {meta.get(key)!r}, this run has {expected.get(key)!r}")
        trainer = load_trainer_state(path)
        if trainer is None or optimizer is None:
            raise CheckpointError(path, "not a batched run's last.zip (no optimizer or trainer state)")
        processes = int(trainer.pop("processes", 1))
        if processes != self.config.batched.processes:
            raise CheckpointError(path, f"it was trained by {processes} learner process(es), this run has "
                                        f"batched.processes={self.config.batched.processes}: resume with --set "
                                        f"batched.processes={processes}")
        self.saved_workers = trainer.pop("workers", None)
        fit_weights(self.selfplay.policy, state, path)
        fit_optimizer(self.selfplay.optimizer, optimizer, path)
        try:
            self.selfplay.load_state(trainer)
        except (KeyError, TypeError, ValueError, RuntimeError) as err:
            raise CheckpointError(path, f"trainer state does not fit this run ({type(err).__name__}: {err})") from None
        self.history = list(meta.get("history", []))
        self.warm_metrics = meta.get("warm_start")
        self.checkpointed = self.steps

    def warm_start(self) -> dict[str, float] | None:
        """A new run's start: ``batched.init_from``'s weights or the seed's fresh ones, then, if
        ``warm_start.teacher`` is set, imitation of it at ``warm_start.tables`` (every table when empty), and of
        ``warm_start.also``'s teachers at theirs, in one fit (training/batched/imitation.py, then ``last.zip`` so a
        resume starts after it; its metrics are returned).
        Both together refresh a trained agent at a few tables: a decision its self-play let collapse is taught
        again before PPO goes on. The optimizer, the league and the counters start afresh."""
        cfg = self.config
        if cfg.batched.init_from:
            from training.batched.target import start_from

            start_from(self.selfplay.policy, cfg.batched.init_from)
            self.selfplay.set_anchor()
            if not self.quiet:
                print(f"starting from the weights of {cfg.batched.init_from}")
        if not cfg.warm_start.teacher:
            return None
        from training.batched.chunks import record_lessons
        from training.batched.imitation import fit

        warm = cfg.warm_start
        taught = [specs or self.tables for specs in cfg.lesson_table_specs()]
        hold = [table for table in self.tables if not any(table in tables for tables in taught)] \
            if warm.hold_other_tables else []
        lessons, rest = record_lessons(cfg.game, list(zip(warm.lessons(), taught, strict=True)), hold,
                                       cfg.batched.gamma, cfg.batched.reward_scale, cfg.seed, warm.workers,
                                       progress=not self.quiet, cache=warm.cache or None)
        self.warm_metrics = fit(self.selfplay.policy, lessons, warm.epochs, warm.batch_size, warm.learning_rate,
                                warm.value_coef, progress=not self.quiet, rest=rest, hold_coef=warm.hold_coef,
                                fit_seed=warm.fit_seed)
        self.selfplay.set_anchor()
        self.open_log()
        for key, value in self.warm_metrics.items():
            self.log.record(f"warm_start/{key}", value)
        self.checkpoint()
        return self.warm_metrics

    def open_log(self) -> None:
        """TensorBoard under ``out_dir/tb``, opened once by whichever of the warm start and training comes first."""
        self.log.writer = self.log.writer or open_writer(self.out / "tb", self.config)

    def train(self, stop: StopRequest | None = None) -> None:
        """Iterate up to ``total_timesteps``, then ``last.zip``; raises Interrupted after saving if ``stop`` asks."""
        cfg = self.config
        self.open_log()
        bar = tqdm(total=cfg.total_timesteps, initial=min(self.steps, cfg.total_timesteps), unit="step",
                   desc=f"training {cfg.game}", disable=self.quiet, dynamic_ncols=True)
        orderly = False
        try:
            self.start_workers()
            with armed(stop):
                try:
                    while self.steps < cfg.total_timesteps and not (stop is not None and stop.requested):
                        self.iterate(bar)
                finally:
                    bar.close()
            orderly = True
            save_at_end(stop, self.checkpoint, lambda: self.checkpointed)
        finally:
            self.stop_workers(orderly)

    def start_workers(self) -> None:
        """With ``batched.processes`` > 1: the other learner processes, from this one's weights, Adam's state and
        league (and each its own saved state on a resume); training/batched/parallel.py."""
        size = self.config.batched.processes
        if size == 1 or self.workers is not None:
            return
        selfplay, saved = self.selfplay, self.saved_workers or [None] * (size - 1)
        anchor = selfplay.anchor.state_dict() if selfplay.anchor is not None else None
        league = as_tensors(selfplay.league.state())
        starts = [Start(self.config, self.tables, selfplay.policy.state_dict(), selfplay.optimizer.state_dict(),
                        league, selfplay.steps, selfplay.iterations, anchor, state) for state in saved]
        self.workers = Workers(size, starts)
        selfplay.group = self.workers.group

    def stop_workers(self, orderly: bool) -> None:
        """The other learner processes leave (at once if training ended in an error)."""
        if self.workers is not None:
            workers, self.workers = self.workers, None
            workers.stop(orderly)
            self.selfplay.group = SOLO_GROUP

    def iterate(self, bar: tqdm) -> None:
        """One rollout and update, its metrics logged; then the snapshots, evaluations and checkpoints due."""
        cfg, before = self.config, self.steps
        metrics = self.selfplay.iterate() if self.workers is None else self.workers.iterate(self.selfplay)
        for key, value in metrics.items():
            self.log.record(f"train/{key}", value)
        bar.update(min(self.steps, bar.total) - bar.n)
        bar.set_postfix_str(self.postfix(metrics), refresh=False)
        if crossed(before, self.steps, cfg.snapshot_every):
            self.selfplay.snapshot()
        if crossed(before, self.steps, cfg.eval.every):
            self.evaluate()
        if crossed(before, self.steps, cfg.checkpoint_every):
            self.checkpoint()
        self.log.flush()

    def postfix(self, metrics: dict[str, float]) -> str:
        """The bar's tail: steps/s of the last iteration and the last evaluation."""
        parts = [f"{metrics['steps_per_s']:.0f} steps/s"] if "steps_per_s" in metrics else []
        if self.history:
            parts += [f"{r['baseline']} {r['mean']:+.2f}±{r['ci95']:.2f}" for r in self.history[-1]["results"]]
        return ", ".join(parts)

    def evaluate(self, deals: int | None = None, progress: bool = False) -> list[MatchResult]:
        """Duplicate deals of the current weights against each baseline at the config's table (and at
        ``eval.tables``), appended to the history and logged."""
        cfg = self.config
        extra = resolve_tables(cfg.eval.tables, cfg.game, cfg.num_players, cfg.rules, "eval.tables") \
            if cfg.eval.tables else []
        with tempfile.TemporaryDirectory(prefix="rams-eval-") as tmp:
            weights = self.save(Path(tmp) / "weights.zip", optimizer=False)
            tables = distinct([self.home, *extra])
            played = evaluate_weights(weights, cfg, tables, deals or cfg.eval.deals, progress)
            results = played[self.home.label()]
            entry: dict[str, Any] = {"steps": self.steps, "results": [r.as_dict() for r in results]}
            if cfg.eval.ratings_deals:
                add_ratings(entry, rate(cfg, self.entrants(weights), progress))
        if extra:
            entry["tables"] = {label: [r.as_dict() for r in rs] for label, rs in played.items()}
        winrates = self.snapshot_winrates()
        if winrates:
            entry["snapshot_winrates"] = winrates
        self.history.append(entry)
        self.log.evaluation(entry)
        return results

    def snapshot_winrates(self) -> dict[str, float]:
        """The learner's recent win rate against each kept league snapshot (by snapshot id)."""
        league = self.selfplay.league
        return {str(ident): league.rates[ident] for ident in league.kept}

    def entrants(self, weights: Path) -> dict[str, Any]:
        """The greedy learner (the checkpoint ``weights``) and the league's kept snapshots (written beside it)
        as rating entrants, played as ``checkpoint:`` agents; a snapshot of the learner's very weights is left
        out, as the SB3 pool does (training/pool.py)."""
        game, live = self.home.make_game(self.config.game), self.selfplay.policy.state_dict()
        files = {LEARNER: weights}
        for ident in self.selfplay.league.kept:
            state = self.selfplay.league.snapshots[ident].state_dict()
            if not all(torch.equal(state[k], live[k]) for k in live):
                files[f"snapshot_{ident}"] = save_checkpoint(weights.parent / f"snapshot_{ident}.zip",
                                                             self.meta(), state)
        return {name: agent_factory(f"checkpoint:{path}", game) for name, path in files.items()}

    def report(self, results: list[MatchResult], seconds: float) -> str:
        cfg = self.config
        write_results(self.out, cfg.game, self.steps, seconds, results, self.history, cfg.eval.baselines,
                      trainer="batched", tables=[t.label() for t in self.tables])
        self.log.close()
        unit = self.home.make_game(cfg.game).score_unit
        return results_table(results, cfg.game, self.steps, unit, f" ({self.home.label()})")


def native_sizes(game: str, table: TableSpec) -> tuple[int, int]:
    """(observation size, action count) of a table's own spaces: a network of other sizes reads the general
    space (rams_env/core/general.py)."""
    reference = table.make_game(game)
    return reference.observation.size, reference.actions.size

