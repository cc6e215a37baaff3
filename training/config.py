"""Training configuration: YAML files in configs/train/, validated, with command-line overrides.

Every field has a default and a comment; unknown keys are rejected with the key named,
so a typo never silently trains with a default.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from agents.checkpoint.net_arch import NetArch, towers
from rams_env.core.keyvalue import parse_assignment


class ConfigError(ValueError):
    """An unknown key or a bad value in a training config."""


@dataclass
class PPOConfig:
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    learning_rate: float = 3e-4
    n_steps: int = 512  # steps per environment between updates
    batch_size: int = 256
    n_epochs: int = 4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    ent_coef: float = 0.01
    net_arch: NetArch = field(default_factory=lambda: [128, 128])  # hidden layers of the policy and value nets,
    # or each its own as SB3 writes it: {pi: [256, 256], vf: [128, 128]} (agents/checkpoint/net_arch.py)


@dataclass
class EvalConfig:
    """Periodic evaluation against the scripted baselines, with duplicate deals."""

    every: int = 25_000  # learner steps between evaluations (0: only at the end)
    deals: int = 200  # deals per baseline (each played from every seat)
    final_deals: int = 0  # deals per baseline of the evaluation after training (0: same as ``deals``)
    baselines: list[str] = field(default_factory=lambda: ["random"])  # agent specs (agents/registry.py)
    # False: every evaluation deal is a session's first (fresh lives / pot). True: deals from random carried-over
    # session states, like training's env.random_carry; in Lupfen a first deal is always a force round with no
    # lift or join decision, so only carried deals measure the game's namesake decisions (docs/results.md)
    random_carry: bool = False
    # deal seeds of the Elo-scale round robin among learner, kept snapshots, baselines and random at each
    # evaluation (0: no ratings); Toepen, 5 snapshots, baselines random + heuristic: 6-12 s for 20 (docs/training.md)
    ratings_deals: int = 20
    # batched trainer, general agents: more tables to evaluate at besides the config's own (training/tables.py:
    # a list of {num_players, preset, rules}, or "all"); [] evaluates the config's table only
    tables: Any = field(default_factory=list)


ROLLOUT_PREFIX = "rollout:"
"""``warm_start.teacher`` prefix of the rollout searcher over a scripted style (training/batched/imitation.py)."""


@dataclass
class WarmStartConfig:
    """Imitation of a teacher before PPO (training/imitation.py); off while ``teacher`` is empty."""

    teacher: str = ""  # agent spec the learner copies first (e.g. "heuristic"); "" = start from a random network;
    # batched trainer: also "rollout:<spec>", the rollout searcher over that scripted player (expert iteration)
    decisions: int = 100_000  # teacher decisions recorded in the learner's seat against the opponent pool
    epochs: int = 10  # passes over the recorded decisions
    batch_size: int = 256
    learning_rate: float = 1e-3
    value_coef: float = 0.5  # weight of the critic's squared error beside the actor's cross-entropy
    fit_seed: int = 0  # the fit's random draws (minibatch order; batched trainer: also the held batches): 0 = as
    # the run's seed leaves them (how every shipped recipe was fitted); 1, 2, ... = fits of their own, the recording
    # and the start unchanged: one kept recording fitted so shows how far a recipe's fits scatter (docs/training.md)
    tables: list = field(default_factory=list)  # batched trainer: the run's tables the teacher is recorded at, as
    # entries of `tables`; [] = every one. With batched.init_from, a refresher at a few tables of a trained agent
    actions: list = field(default_factory=list)  # batched trainer: action labels (e.g. [knock, sniff]; play: every
    # card); the decisions where one of them is legal are fitted (and counted in `decisions`); [] = every decision
    hold_other_tables: bool = False  # batched trainer, with actions and tables: the refresher also holds the
    # agent's own choices at the run's other tables (half its held decisions are deals there), not only at the
    # taught deals' other decisions, so what it teaches at a few tables does not move the others
    hold_coef: float = 1.0  # batched trainer, with actions: the weight of the held decisions' term (KL and value
    # error to the agent before the fit) beside the taught ones' cross-entropy
    rollout_worlds: int = 8  # batched trainer, teacher "rollout:<style>": re-deals per searched decision
    rollout_confidence: float = 0.0  # batched trainer, teacher "rollout:<style>": leave the style's choice only for
    # an action whose advantage over it, world by world, has a t-statistic above this (0: any better mean, the
    # rollout algorithm); above 0 the teacher is the style itself wherever the worlds do not clearly say otherwise
    among: list = field(default_factory=list)  # batched trainer: scripted styles seated beside the teacher (e.g.
    # [heuristic:loose]); each deal draws one of them and seats it in 0 to n-1 of the n seats (uniformly, so alone
    # and among are alike), and only the teacher's seats are recorded; [] = the teacher in every seat
    chunks: int = 1  # batched trainer: the recording in so many independent streams of deals (1: one stream)
    workers: int = 1  # batched trainer: processes recording the chunks (the records do not depend on it)
    cache: str = ""  # batched trainer: a directory keeping each recorded chunk, read again by a run that records
    # the same chunk with the same code (training/batched/record_cache.py); "" = nothing kept
    also: list = field(default_factory=list)  # batched trainer: more lessons in the same fit, each a mapping of
    # LESSON_KEYS (a key left out is the warm start's own), e.g. the heuristic's tap at two presets beside a
    # searcher's Loup; with hold_other_tables the tables no lesson teaches are held (docs/training.md)

    def lessons(self) -> list[Lesson]:
        """The warm start's own lesson first, then ``also``'s, each laid over the warm start's own keys."""
        own = {key: getattr(self, key) for key in LESSON_KEYS}
        return [Lesson(**own), *(Lesson(**{**own, **entry}) for entry in self.also)]


LESSON_KEYS = ("teacher", "tables", "actions", "decisions", "rollout_worlds", "rollout_confidence", "among",
               "chunks")
"""What one teacher teaches where: the warm start's own keys of these, and each entry of ``warm_start.also``."""


@dataclass(frozen=True)
class Lesson:
    """One teacher's part of a warm start: ``teacher`` at ``tables`` (none: every table of the run), on the decisions
    where one of ``actions`` is legal (none: every decision), ``decisions`` of them recorded in ``chunks`` streams of
    deals (``rollout_worlds`` re-deals per searched decision, ``rollout_confidence`` the searcher's t-test), with
    ``among``'s scripted styles in some of the seats (none: the teacher in every seat). Every
    lesson's records go into one fit, so what one teaches the others' hold does not pull back (docs/results.md, "The
    tap refresher once more")."""

    teacher: str
    tables: list
    actions: list
    decisions: int
    rollout_worlds: int
    rollout_confidence: float
    among: list
    chunks: int


@dataclass
class TrainConfig:
    """One self-play training run."""

    # "sb3": MaskablePPO in one seat of the AEC env (training/train.py, the reference path); "batched": PPO
    # self-play on the batched engine, every seat a league member (training/batched/, section ``batched``);
    # "rllib": Ray RLlib, on this machine or a cluster (training/rllib/, section ``rllib``, the rllib extra)
    trainer: str = "sb3"
    game: str = "toepen"
    num_players: int | None = None  # the game's default table when None
    rules: dict[str, Any] = field(default_factory=dict)  # rule options or {"preset": ...}
    env: dict[str, Any] = field(default_factory=lambda: {"random_carry": True})  # env keywords
    reward_scale: float = 1.0  # the learner's rewards times this (pot games: chips -> about 1); eval in game units
    seed: int = 0
    total_timesteps: int = 100_000  # learner decisions
    n_envs: int = 4
    # opponent mixture, drawn per seat and deal (training/pool.py): "self" (the current policy), "snapshots"
    # (frozen earlier copies, recent-biased) and any agent spec of agents/registry.py ("random", "heuristic", ...)
    opponents: dict[str, float] = field(default_factory=lambda: {"self": 0.7, "random": 0.3})
    snapshot_every: int = 10_000  # freeze a copy of the learner into the pool every so many steps
    snapshots_kept: int = 5  # the pool keeps the last so many snapshots
    # how a seat drawing "snapshots" picks one: "recent" (1 / (age + 1)) or "prioritized" (by how often each
    # still beats the learner, PFSP); see training/pool.py
    snapshot_sampling: str = "recent"
    checkpoint_every: int = 25_000  # last.zip at the first rollout boundary at or after each multiple (resume is exact)
    out_dir: str = "runs/toepen"
    torch_threads: int = 1
    ppo: PPOConfig = field(default_factory=PPOConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    warm_start: WarmStartConfig = field(default_factory=WarmStartConfig)
    # batched trainer: the tables it trains at (training/tables.py): "default" (num_players and rules above),
    # "all" (every table size x every preset: a general agent) or a list of {num_players, preset, rules}
    tables: Any = "default"
    # batched trainer: the learner's settings (training/batched/learner.py BatchedConfig documents each);
    # built when the trainer is batched or the config has the section
    batched: Any = None
    # rllib trainer: algorithm, env runners, cluster address, batch sizes (training/rllib/settings.py)
    rllib: Any = None

    def __post_init__(self) -> None:
        for name, section in LAZY_SECTIONS.items():
            if getattr(self, name) is None and self.trainer == name:
                setattr(self, name, section()())

    def validate(self) -> None:
        import rams_env

        if self.trainer not in TRAINERS:
            raise ConfigError(f"trainer={self.trainer!r}: one of {', '.join(TRAINERS)}")
        if self.game not in rams_env.GAMES:
            raise ConfigError(f"game={self.game!r}: one of {', '.join(rams_env.GAMES)}")
        # a batched run with a teacher may be its warm start alone (a refresher, docs/training.md)
        warm_start_alone = self.trainer == "batched" and bool(self.warm_start.teacher)
        for name in ("total_timesteps", "n_envs", "snapshot_every", "snapshots_kept", "checkpoint_every"):
            value, least = getattr(self, name), 0 if name == "total_timesteps" and warm_start_alone else 1
            if not isinstance(value, int) or value < least:
                raise ConfigError(f"{name} must be a positive whole number" + (
                    " (0: only a batched run with a warm_start.teacher, the warm start alone)"
                    if name == "total_timesteps" else ""))
        if not isinstance(self.eval.random_carry, bool):
            raise ConfigError(f"eval.random_carry must be true or false, got {self.eval.random_carry!r}")
        if not self.reward_scale > 0:
            raise ConfigError(f"reward_scale must be positive, got {self.reward_scale}")
        try:
            towers(self.ppo.net_arch, "ppo.net_arch")
        except ValueError as err:
            raise ConfigError(str(err)) from None
        self._validate_pool_evaluation()
        rams_env.make(self.game, self.num_players, **self.rules, **self.env)  # rule errors name the option
        self._validate_agents(rams_env.make_game(self.game, self.num_players, **self.rules))
        self._validate_batched()

    def _validate_batched(self) -> None:
        """``tables`` and ``eval.tables`` must name tables the game plays; the learner checks its own section."""
        from training.tables import TableError, resolve_tables

        if self.trainer == "rllib" and self.warm_start.teacher:
            raise ConfigError("warm_start: imitation warm start is the sb3 and batched trainers'; the rllib "
                              "trainer has none (--set warm_start.teacher='')")
        default = WarmStartConfig()
        for key in ("tables", "actions", "hold_other_tables", "hold_coef", "rollout_worlds", "rollout_confidence",
                    "among", "chunks", "workers", "cache", "also"):  # a refresher's and a recording's settings
            if self.trainer != "batched" and getattr(self.warm_start, key) != getattr(default, key):
                raise ConfigError(f"warm_start.{key}: the batched trainer's (the sb3 path records every decision "
                                  f"of the learner's one table); --set warm_start.{key}={getattr(default, key)}")

        try:
            tables = resolve_tables(self.tables, self.game, self.num_players, self.rules)
            if self.eval.tables:
                resolve_tables(self.eval.tables, self.game, self.num_players, self.rules, where="eval.tables")
            self._validate_table_subsets(tables)
            if self.trainer == "batched":
                self._check_action_labels("batched.anchor_actions", self.batched.anchor_actions)
        except TableError as err:
            raise ConfigError(str(err)) from None
        for name in LAZY_SECTIONS:
            check = getattr(getattr(self, name), "validate", None)
            if check is not None:
                try:
                    check()
                except (TypeError, ValueError) as err:
                    raise ConfigError(f"{name}: {err}") from None
        if self.trainer == "rllib" and self.snapshot_sampling != "recent":
            raise ConfigError("snapshot_sampling: the rllib trainer's snapshots are drawn by the recent rule only")
        self._validate_other_trainers_sections()

    def _validate_other_trainers_sections(self) -> None:
        """A ``batched`` or ``rllib`` section that sets anything while another trainer runs is refused: that trainer
        would train without it (RLlib's modules in float32 whatever ``batched.gradient_precision`` says, say)."""
        for name, section in LAZY_SECTIONS.items():
            settings = getattr(self, name)
            if name == self.trainer or settings is None:
                continue
            defaults = section()()
            unused = [f.name for f in dataclasses.fields(settings)
                      if getattr(settings, f.name) != getattr(defaults, f.name)]
            if unused:
                raise ConfigError(f"{name}.{unused[0]}: the {name} trainer's setting, and this run's trainer is "
                                  f"{self.trainer} (it would train without {', '.join(f'{name}.{k}' for k in unused)}"
                                  f"): --set trainer={name}, or drop the {name} section")

    def batched_table_specs(self, key: str) -> list | None:
        """``batched.<key>`` (``scripted_tables``, ``scripted_alone_tables``) as table specs: the tables that get
        those Python-engine slots (None: every table of the run). Validation and the batched run both read it here."""
        from training.batched.learner import RUN_TABLES

        wanted = getattr(self.batched, key, None) if self.trainer == "batched" and key != RUN_TABLES else None
        return self._table_subset(wanted, f"batched.{key}")

    def lesson_table_specs(self) -> list[list | None]:
        """Each lesson's ``tables`` as table specs (None: every table of the run), in :meth:`lessons` order."""
        return [self._table_subset(lesson.tables, f"{where}.tables")
                for where, lesson in zip(self.lesson_names(), self.warm_start.lessons(), strict=True)]

    def _table_subset(self, wanted: list | None, where: str) -> list | None:
        from training.tables import resolve_tables

        if not wanted:
            return None
        return resolve_tables(wanted, self.game, self.num_players, self.rules, where)

    def _validate_table_subsets(self, tables: list) -> None:
        """``batched.scripted_tables``, ``batched.scripted_alone_tables`` and every lesson's ``tables``
        (``warm_start``'s and ``warm_start.also``'s) must name tables the run trains at, and a list of slot counts
        (a key of PER_TABLE_SIZES) pairs with its tables entry for entry, so those must name each table once."""
        from training.batched.learner import PER_TABLE_SIZES, RUN_TABLES
        from training.tables import TableError

        lessons = [(f"{where}.tables", specs) for where, specs in zip(self.lesson_names(), self.lesson_table_specs(),
                                                                       strict=True)]
        subsets = {key: self.batched_table_specs(key) for key in PER_TABLE_SIZES.values()}
        for where, subset in (*((f"batched.{key}", specs) for key, specs in subsets.items()), *lessons):
            for index, table in enumerate(subset or []):
                if table not in tables:
                    raise TableError(f"{where}[{index}]: {table.label()} is not one of the run's tables "
                                     f"({', '.join(t.label() for t in tables[:6])}"
                                     f"{', ...' if len(tables) > 6 else ''})")
        for size, key in PER_TABLE_SIZES.items():
            counts = getattr(self.batched, size, None) if self.trainer == "batched" else None
            if not isinstance(counts, list):
                continue
            named, resolved, where = ((self.tables, tables, key) if key == RUN_TABLES else
                                      (getattr(self.batched, key, None), subsets[key], f"batched.{key}"))
            if isinstance(named, list) and len(resolved or []) != len(named):
                raise TableError(f"{where} names a table twice: each of batched.{size}'s counts is for one table")
            if key == RUN_TABLES:  # BatchedConfig.validate checks the others; it cannot see the run's tables
                try:
                    self.batched.slots_by_table(size, tables, None)
                except ValueError as err:
                    raise TableError(str(err)) from None

    def _validate_pool_evaluation(self) -> None:
        """The snapshot sampling rule and the ratings' deal count."""
        from training.pool import SAMPLING_RULES

        if self.snapshot_sampling not in SAMPLING_RULES:
            raise ConfigError(f"snapshot_sampling={self.snapshot_sampling!r}: one of {', '.join(SAMPLING_RULES)}")
        deals = self.eval.ratings_deals
        if isinstance(deals, bool) or not isinstance(deals, int) or deals < 0 or deals == 1:
            raise ConfigError(f"eval.ratings_deals={deals!r}: 0 (no ratings) or a whole number >= 2 (an interval "
                              f"needs two deal seeds)")

    def _validate_agents(self, game) -> None:
        """Opponent and baseline specs must name agents the registry can build for this game."""
        from training.pool import PoolError, PoolKind, scripted_factories

        if not isinstance(self.opponents, dict) or not self.opponents:
            raise ConfigError(f"opponents: a mapping of agent specs to weights, got {self.opponents!r}")
        for spec, weight in self.opponents.items():
            if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight < 0:
                raise ConfigError(f"opponents: weight of {spec!r} must be a number >= 0, got {weight!r}")
        if sum(self.opponents.values()) <= 0:
            raise ConfigError("opponents: the weights must not all be zero")
        if not isinstance(self.eval.baselines, list) or any(PoolKind.of(b) for b in self.eval.baselines):
            raise ConfigError(f"eval.baselines: a list of agent specs (not self/snapshots), got {self.eval.baselines}")
        try:
            scripted_factories([str(s) for s in self.opponents], game)
        except PoolError as err:
            raise ConfigError(f"opponents: {err}") from None
        try:
            scripted_factories([str(s) for s in self.eval.baselines], game)
        except PoolError as err:
            raise ConfigError(f"eval.baselines: {err}") from None
        self._validate_warm_start(game)

    def _check_action_labels(self, key: str, labels: Any) -> None:
        """``labels`` must be a list of the game's action labels (at any of its tables), ``play`` or a card segment's
        name (``discard``: every discard)."""
        from rams_env.core.actions import card_words
        from rams_env.core.general import GeneralSpace

        if labels == []:
            return  # the default: nothing to look up (the general space takes a moment to build)
        space = GeneralSpace(self.game)
        segments = card_words(space.labels, space.cards)
        known = (*space.labels, *segments)
        if not isinstance(labels, list) or any(not isinstance(a, str) or a not in known for a in labels):
            words = [label for label in space.labels if " " not in label and label not in space.cards]
            raise ConfigError(f"{key}: a list of {self.game} action labels (e.g. {', '.join(words[:6])}), or "
                              f"{' / '.join(segments)} for every such card, got {labels!r}")

    def _validate_warm_start(self, game) -> None:
        """The fit's settings, then each lesson's: its teacher a scripted or checkpoint spec, its sizes positive."""
        warm = self.warm_start
        for name in ("epochs", "batch_size", "workers"):
            if not isinstance(getattr(warm, name), int) or getattr(warm, name) <= 0:
                raise ConfigError(f"warm_start.{name} must be a positive whole number")
        if not isinstance(warm.fit_seed, int) or warm.fit_seed < 0:
            raise ConfigError(f"warm_start.fit_seed: 0 (the run's own order) or a positive whole number, got "
                              f"{warm.fit_seed!r}")
        if not warm.learning_rate > 0 or not warm.value_coef >= 0:
            raise ConfigError("warm_start.learning_rate must be positive and warm_start.value_coef not negative")
        if not (isinstance(warm.hold_coef, (int, float)) and warm.hold_coef >= 0):
            raise ConfigError(f"warm_start.hold_coef: a weight of 0 or more, got {warm.hold_coef!r}")
        if not isinstance(warm.hold_other_tables, bool):
            raise ConfigError(f"warm_start.hold_other_tables: true or false, got {warm.hold_other_tables!r}")
        if not isinstance(warm.cache, str) or (warm.cache and Path(warm.cache).exists()
                                               and not Path(warm.cache).is_dir()):
            raise ConfigError(f"warm_start.cache: a directory for the recorded chunks, got {warm.cache!r}")
        self._check_more_lessons(warm.also, bool(warm.teacher))
        for where, lesson in zip(self.lesson_names(), warm.lessons(), strict=True):
            self._validate_lesson(lesson, where, game)

    def lesson_names(self) -> list[str]:
        """Where each lesson is set, as its errors name it: ``warm_start``, ``warm_start.also[0]``, ..."""
        return ["warm_start", *(f"warm_start.also[{i}]" for i in range(len(self.warm_start.also)))]

    @staticmethod
    def _check_more_lessons(also: Any, teacher: bool) -> None:
        """``warm_start.also``: a list of mappings of lesson keys, beside a warm start's own teacher."""
        if not isinstance(also, list) or any(not isinstance(entry, dict) for entry in also):
            raise ConfigError(f"warm_start.also: a list of lessons, each a mapping of {', '.join(LESSON_KEYS)}; "
                              f"got {also!r}")
        if also and not teacher:
            raise ConfigError("warm_start.also: more lessons beside the warm start's own, which needs a "
                              "warm_start.teacher")
        for i, entry in enumerate(also):
            unknown = sorted(set(entry) - set(LESSON_KEYS))
            if unknown:
                raise ConfigError(f"unknown key {', '.join(map(repr, unknown))} in warm_start.also[{i}]; valid: "
                                  f"{', '.join(LESSON_KEYS)}")

    @staticmethod
    def _check_confidence(lesson: Lesson, where: str) -> None:
        """``rollout_confidence``: a t-statistic of 0 or more, and above 0 only for a searching teacher."""
        value = lesson.rollout_confidence
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
            raise ConfigError(f"{where}.rollout_confidence: a t-statistic of 0 or more, got {value!r}")
        if value and not str(lesson.teacher).startswith(ROLLOUT_PREFIX):
            raise ConfigError(f"{where}.rollout_confidence={value}: only a searching teacher "
                              f"({ROLLOUT_PREFIX}<style>) has a choice to weigh; {where}.teacher is "
                              f"{lesson.teacher or 'none'}")

    def _validate_lesson(self, lesson: Lesson, where: str, game) -> None:
        from training.pool import PoolError, PoolKind, scripted_factories

        for name in ("decisions", "rollout_worlds", "chunks"):
            value = getattr(lesson, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ConfigError(f"{where}.{name} must be a positive whole number")
        if lesson.chunks > lesson.decisions:
            raise ConfigError(f"{where}.chunks={lesson.chunks}: at most {where}.decisions ({lesson.decisions})")
        self._check_action_labels(f"{where}.actions", lesson.actions)
        self._check_confidence(lesson, where)
        if self.warm_start.hold_other_tables and not (lesson.actions and lesson.tables):
            raise ConfigError(f"warm_start.hold_other_tables: a refresher's, with {where}.actions and {where}.tables "
                              "(the other tables are the run's tables no lesson teaches at)")
        if not lesson.teacher and where != "warm_start":
            raise ConfigError(f"{where}.teacher: a lesson needs a teacher (left out: the warm start's own)")
        if not lesson.teacher:
            if lesson.among:
                raise ConfigError(f"{where}.among: styles beside a teacher, and {where}.teacher is none")
            return
        style = str(lesson.teacher).removeprefix(ROLLOUT_PREFIX)
        if style != str(lesson.teacher) and self.trainer != "batched":
            raise ConfigError(f"{where}.teacher {lesson.teacher!r}: a searching teacher is the batched trainer's")
        if PoolKind.of(style):
            raise ConfigError(f"{where}.teacher: an agent spec of agents/registry.py or rollout:<scripted spec>, "
                              f"not {lesson.teacher!r}")
        try:
            scripted_factories([style], game)
        except PoolError as err:
            raise ConfigError(f"{where}.teacher: {err}") from None
        self._check_among(lesson, where, game)

    @staticmethod
    def _check_among(lesson: Lesson, where: str, game) -> None:
        """``among``: a list of scripted agent specs, each a style of its own (not the teacher's)."""
        from training.pool import PoolError, PoolKind, scripted_factories

        among = lesson.among
        if not isinstance(among, list) or not all(isinstance(spec, str) and spec for spec in among):
            raise ConfigError(f"{where}.among: a list of scripted agent specs (e.g. [heuristic:loose]), got {among!r}")
        style = str(lesson.teacher).removeprefix(ROLLOUT_PREFIX)
        for spec in among:
            if spec == style or PoolKind.of(spec):
                raise ConfigError(f"{where}.among: {spec!r} is not a scripted style beside the teacher ({style}): "
                                  "name agent specs of agents/registry.py other than the teacher's own")
            try:
                scripted_factories([spec], game)
            except PoolError as err:
                raise ConfigError(f"{where}.among: {err}") from None


TRAINERS = ("sb3", "batched", "rllib")


def batched_config_class() -> type:
    """The batched learner's settings (imported when needed: its package loads torch)."""
    from training.batched.learner import BatchedConfig

    return BatchedConfig


def rllib_config_class() -> type:
    """The rllib trainer's settings (plain data; its trainer, not this class, needs Ray)."""
    from training.rllib.settings import RLlibConfig

    return RLlibConfig


LAZY_SECTIONS = {"batched": batched_config_class, "rllib": rllib_config_class}
"""Sections of one trainer, built when the config names that trainer or has the section (else None)."""


def sections(cls) -> dict[str, type]:
    """The nested sections of a config dataclass: fields whose default is itself a dataclass."""
    found = {f.name: type(f.default_factory()) for f in dataclasses.fields(cls)
             if f.default_factory is not dataclasses.MISSING and dataclasses.is_dataclass(f.default_factory())}
    if cls is TrainConfig:
        found.update(LAZY_SECTIONS)
    return found


def _build(cls, data: dict[str, Any], where: str):
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ConfigError(f"unknown key {', '.join(map(repr, unknown))} in {where}; valid: {', '.join(sorted(names))}")
    values = {key: _coerce(cls, key, value, where) for key, value in data.items()}
    for key, section in sections(cls).items():
        if key in values and not (key in LAZY_SECTIONS and values[key] is None):
            if not isinstance(values[key], dict):
                raise ConfigError(f"{where}.{key} must be a mapping")
            section = section() if key in LAZY_SECTIONS and cls is TrainConfig else section
            values[key] = _build(section, values[key], f"{where}.{key}")
    return cls(**values)


def _coerce(cls, key: str, value: Any, where: str) -> Any:
    """Numbers given as text (YAML reads ``1e-4`` as a string) become the field's type; a switch must be true or
    false (a word such as ``maybe`` would otherwise count as true), and a number must not be a switch (Python
    counts ``true`` as the whole number 1, so ``epochs: true`` would pass every check of a size)."""
    default = next(f.default if f.default_factory is dataclasses.MISSING else f.default_factory()
                   for f in dataclasses.fields(cls) if f.name == key)
    if isinstance(value, list) and key in getattr(cls, "PER_TABLE_SIZES", {}):
        return value  # one size per table (BatchedConfig.validate checks each)
    if isinstance(default, bool) and not isinstance(value, bool):
        raise ConfigError(f"{where}.{key}={value!r}: expected true or false")
    kind = type(default) if isinstance(default, (int, float)) and not isinstance(default, bool) else None
    if kind is not None and isinstance(value, bool):
        raise ConfigError(f"{where}.{key}={str(value).lower()}: expected a "
                          f"{'whole number' if kind is int else 'number'}, not true or false")
    if kind is None or isinstance(value, kind):
        return value
    try:
        converted = kind(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where}.{key}={value!r}: expected a {kind.__name__}") from None
    if kind is int and isinstance(value, float) and converted != value:
        raise ConfigError(f"{where}.{key}={value!r}: expected a whole number")
    return converted


def set_override(data: dict[str, Any], assignment: str) -> None:
    """Apply ``key.sub=value`` (value parsed as YAML) to a raw config mapping."""
    path, value = parse_assignment(assignment, "override", ConfigError, example="ppo.learning_rate=1e-4")
    keys = path.split(".")
    node = data
    for key in keys[:-1]:
        node = node.setdefault(key, {})
        if not isinstance(node, dict):
            raise ConfigError(f"override {assignment!r}: {key} is not a section")
    node[keys[-1]] = value


def read_config_file(path: str | Path, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """A YAML config's raw mapping, with ``extends: <file>`` (a path beside it) resolved: the file it names is read
    first and this one's keys laid over it, sections merged key by key. So a stage that differs from another in a
    few keys says only those (configs/train/tippen_cardplay_tap.yaml)."""
    path = Path(path).resolve()
    if path in seen:
        raise ConfigError(f"{path}: extends itself through {' -> '.join(p.name for p in seen)}")
    loaded = yaml.safe_load(path.read_text())
    if not isinstance(loaded, dict):
        raise ConfigError(f"{path}: expected a mapping of options")
    base = loaded.pop("extends", None)
    if base is None:
        return loaded
    if not isinstance(base, str) or not (path.parent / base).is_file():
        raise ConfigError(f"{path}: extends: {base!r} is not a config file beside it")
    return _laid_over(read_config_file(path.parent / base, (*seen, path)), loaded)


def _laid_over(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """``top``'s keys over ``base``'s; where both hold a section (a mapping), merged the same way."""
    merged = dict(base)
    for key, value in top.items():
        both = isinstance(value, dict) and isinstance(base.get(key), dict)
        merged[key] = _laid_over(base[key], value) if both else value
    return merged


def load_config(path: str | Path | None, overrides: list[str] = ()) -> TrainConfig:
    """A validated config from a YAML file (or the defaults) plus ``key=value`` overrides."""
    data: dict[str, Any] = read_config_file(path) if path is not None else {}
    for assignment in overrides:
        set_override(data, assignment)
    config = _build(TrainConfig, data, "config")
    config.validate()
    return config


def as_dict(config: TrainConfig) -> dict[str, Any]:
    return dataclasses.asdict(config)
