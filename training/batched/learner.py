"""Self-play PPO on the batched engine: the loop, read top to bottom.

``SelfPlay(game, tables, config, seed)`` holds the batched tables (sources.py), the league that
seats a policy in every seat of every deal (league.py), the network (network.py), the rollout
buffer (rollout.py) and the optimizer. ``iterate()`` plays ``rollout_steps`` steps in every slot
(each step: one batched forward per policy over the slots whose seat to act it plays, one step
of every table), then one PPO update (ppo.py) on the learner's complete decisions. The run
around it (training/batched/run.py) calls ``snapshot()``, saves ``state()`` and logs the metrics.
"""

from __future__ import annotations

import copy
import os
import time
from dataclasses import asdict, dataclass, field
from typing import ClassVar

import numpy as np
import torch

from agents.checkpoint.net_arch import NetArch, towers
from rams_env.core.actions import with_plays
from training.batched.arrays import as_arrays, as_tensors
from training.batched.league import LEARNER, RANDOM, League
from training.batched.network import ActorCritic, act, act_frozen
from training.batched.parallel import SOLO, Solo, share, stream_seed, weights_digest
from training.batched.ppo import UpdateSettings, update
from training.batched.precision import update_dtypes
from training.batched.reward_norm import REWARD_NORMS, TableRewardScale
from training.batched.rollout import RolloutBuffer
from training.batched.sources import ScriptedSlots, VectorTables
from training.batched.sparse import sparse_rows
from training.batched.tables import TableSpec, all_tables
from training.batched.target import frozen_target

__all__ = ["BatchedConfig", "SelfPlay", "TableSpec", "all_tables"]

LEAST_SIZES = {"envs_per_table": 1, "rollout_steps": 1, "minibatch_size": 1, "epochs": 1, "snapshots_kept": 1,
               "scripted_envs_per_table": 0, "scripted_alone_envs_per_table": 0, "processes": 1}
"""Each size's least value: a run cannot do without a self-play deal per table, a rollout, a minibatch or a
process; the scripted slots' 0 means none."""

RUN_TABLES = "tables"
"""The run's own tables list (the config's top-level ``tables``), as PER_TABLE_SIZES names it."""

PER_TABLE_SIZES = {"envs_per_table": RUN_TABLES, "scripted_envs_per_table": "scripted_tables",
                   "scripted_alone_envs_per_table": "scripted_alone_tables"}
"""Sizes that may instead be a list, one count per entry of the tables list they name (its own share at each): the
batched deals per entry of the run's tables, the Python-engine slots per entry of their ``batched`` subset."""


def size_errors(name: str, value, least: int, tables: list | None) -> str | None:
    """What is wrong with a size (a whole number >= ``least``), or with a per-table list of them (``tables``: the
    list it must match entry for entry, None where the size cannot be a list); None when nothing is."""
    whole = lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= least  # noqa: E731
    number = f"a whole number >= {least}{' (0: none)' * (least == 0)}"
    if tables is None:
        return None if whole(value) else f"batched.{name}={value!r}: {number}"
    listed = RUN_TABLES if PER_TABLE_SIZES[name] == RUN_TABLES else f"batched.{PER_TABLE_SIZES[name]}"
    if not isinstance(value, list):
        return None if whole(value) else f"batched.{name}={value!r}: {number}, or one for each entry of {listed}"
    if tables and len(value) == len(tables) and all(map(whole, value)):
        return None
    return (f"batched.{name}={value!r}: one whole number >= {least} for each of the {len(tables)} entries of "
            f"{listed}" + ("" if tables else " (it lists none: list the tables, or give one number)"))


def adam(parameters, learning_rate: float) -> torch.optim.Adam:
    """Adam as SB3 and CleanRL set it for PPO (eps 1e-5), on torch's fused CPU kernel where torch has one (2.4 and
    later): one pass over each tensor where the loop takes a dozen, the same step to float rounding
    (tests/test_batched_adam.py), the general learner 1.03-1.06x per CPU-second (docs/results.md, "Adam's fused
    step"). An older torch refuses ``fused`` on the CPU, and gets the loop."""
    parameters = list(parameters)
    try:
        return torch.optim.Adam(parameters, lr=learning_rate, eps=1e-5, fused=True)
    except RuntimeError:
        return torch.optim.Adam(parameters, lr=learning_rate, eps=1e-5)


@dataclass
class BatchedConfig:
    """Every knob of the batched learner; the defaults train Toepen 4p well on two cores."""

    PER_TABLE_SIZES: ClassVar[dict[str, str]] = PER_TABLE_SIZES  # the config reader lets these be lists
    envs_per_table: int | list[int] = 1024  # slots (deals played side by side) of each table spec, or a list: each
    # entry of the run's `tables` its own count, e.g. [48, 48, 48, 1] to add a table with few self-play deals (at least
    # one each) whose scripted slots give it its share (docs/training.md, "Self-play deals of its own at each table")
    rollout_steps: int = 32  # steps of every slot per iteration (every seat's decisions, learner's or not)
    minibatch_size: int = 4096  # learner decisions per gradient step
    epochs: int = 4  # passes over each rollout's decisions
    learning_rate: float = 3e-4  # Adam's step size
    anneal_lr: bool = False  # decay the learning rate linearly to 0 over total_iterations
    total_iterations: int = 0  # iterations the anneal spans (set by the run from its budget; 0 = no anneal)
    gamma: float = 1.0  # discount per decision of the seat: a deal is short and scored once, so 1 (unbiased)
    gae_lambda: float = 0.95  # GAE's bias/variance trade-off
    clip: float = 0.2  # PPO's ratio clip
    ent_coef: float = 0.01  # entropy bonus
    vf_coef: float = 0.5  # value loss weight
    target_kl: float | None = None  # stop an update's epochs early above this approx_kl (None: never)
    net_arch: NetArch = field(default_factory=lambda: [128, 128])  # hidden layers of the policy and value towers,
    # or each its own as SB3 writes it: {pi: [256, 256], vf: [128, 128]}, a critic half as wide: about 1.2x the
    # learner's rate, and weaker at 20M decisions (agents/checkpoint/net_arch.py; docs/results.md, "A narrower critic")
    gradient_precision: str = "auto"  # the dense layers' gradient products (precision.py): "bfloat16" (2.4x faster
    # products where the CPU has bfloat16 dot products), "float32" (as runs before 2026-12 trained, bit for bit),
    # "auto": bfloat16 on such a CPU, else float32
    update_forward_precision: str = "gradient"  # the update's forward products: "gradient" (in the gradient products'
    # dtype: bfloat16 where they are, the learner about 1.1x; the rollout stays float32), "float32" (exact, as runs
    # trained before 2026-12-05): precision.py
    league: dict[str, float] = field(default_factory=lambda: {"self": 0.6, "snapshots": 0.3, "random": 0.1})
    snapshots_kept: int = 10  # frozen snapshots drawn from (older ones retire after their deals end)
    snapshot_sampling: str = "recent"  # "recent" (1 / (age + 1)) or "prioritized" (win rate + floor): league.py
    exploiters: list = field(default_factory=list)  # best responses to an earlier agent (checkpoints: `rams exploit
    # --export PATH.zip` writes one), seated as the probe seats them: one seat, the learner in every other
    exploiter_deals: float = 0.0  # the share of new self-play deals with an exploiter (league.py); 0 with none
    scripted: dict[str, float] = field(default_factory=dict)  # per-seat share of each registry agent spec in the
    # Python-engine slots, e.g. {"heuristic": 0.5, "heuristic:bluffer": 0.2}; the other seats are the league's
    scripted_envs_per_table: int | list[int] = 0  # Python-engine slots of each table spec (0: none; they cost far
    # more), or a list: each entry of scripted_tables its own count, e.g. [256, 64] for [{num_players: 4}, {8}]
    scripted_tables: list = field(default_factory=list)  # the run's tables that get those slots, as entries of
    # `tables` ({num_players, preset, rules}); [] = every table. E.g. the bluffer at the 4-player table only, while
    # self-play goes on at every table (docs/training.md, "Scripted seats at some tables")
    scripted_alone: dict[str, float] = field(default_factory=dict)  # the style of ONE scripted player seated
    # among the league's seats, by weight, in more Python-engine slots: the strength gate's scripted_alone way
    # (docs/training.md, "A lone scripted player among the agents")
    scripted_alone_envs_per_table: int | list[int] = 0  # those slots at each of scripted_alone_tables (0: none), or
    # a list, one count per entry of scripted_alone_tables (docs/training.md, "Scripted seats at some tables")
    scripted_alone_tables: list = field(default_factory=list)  # as scripted_tables; [] = every table
    reward_scale: float = 1.0  # the learner learns from rewards times this (lives and chips are small numbers)
    init_from: str = ""  # a checkpoint whose weights a new run starts from (a fine-tune of a shipped agent, say:
    # agents/pretrained/toepen.zip); "" = fresh weights. Same space and net_arch, else a CheckpointError
    anchor_coef: float = 0.0  # > 0: the loss adds this times KL(policy || anchor), the anchor being the policy the
    # run started from (after warm_start or init_from): self-play improves on it without forgetting it (ppo.py)
    anchor_actions: list = field(default_factory=list)  # action labels (play: every card): the anchor holds only where
    # one of them is legal (a refresher's taught choices, e.g. [knock, sniff]); [] = every decision
    reward_norm: str = "none"  # "per_table": each table's rewards divided by the running spread of its deals'
    # payoffs, so tables that pay little weigh as much as those that pay much (reward_norm.py); "none": as they are
    processes: int = 1  # learner processes, data-parallel (parallel.py): each plays its share of every table's
    # slots (at least one batched deal of each) and every minibatch's gradient is added over them. On two cores,
    # 2 (with torch_threads: 1) beats one process of two threads on the clock (docs/training.md, "Both cores").
    # Results depend on it, as on the seed
    thedinghausen_carry: bool = False  # Fipsen's Thedinghausen: self-play deals start inside a race, its tricks and
    # pot drawn as the reference's random_carry draws them (the Python-engine slots always do); false: at a race's
    # start, how the Fipsen stages before fipsen_race.yaml trained (the default, so their recipes still make them)

    def validate(self) -> None:
        """The knobs that name a choice or a size (the config names the bad value in a ConfigError)."""
        for name, least in LEAST_SIZES.items():
            value, key = getattr(self, name), PER_TABLE_SIZES.get(name)
            if key == RUN_TABLES and isinstance(value, list):
                continue  # pairs with the run's tables, which the run resolves: TrainConfig checks it with them
            error = size_errors(name, value, least, getattr(self, key) if key and key != RUN_TABLES else None)
            if error:
                raise ValueError(error)
        if self.reward_norm not in REWARD_NORMS:
            raise ValueError(f"batched.reward_norm={self.reward_norm!r}: one of {', '.join(REWARD_NORMS)}")
        if not self.anchor_coef >= 0:
            raise ValueError(f"batched.anchor_coef={self.anchor_coef!r}: a weight, 0 or more")
        update_dtypes(self.gradient_precision, self.update_forward_precision)
        towers(self.net_arch, "batched.net_arch")
        if not 0.0 <= self.exploiter_deals <= 1.0 or bool(self.exploiters) != (self.exploiter_deals > 0):
            raise ValueError(f"batched.exploiter_deals={self.exploiter_deals!r} with {len(self.exploiters)} "
                             "exploiters: a share from 0 to 1, above 0 exactly when batched.exploiters lists any")

    def slots_by_table(self, name: str, tables: list[TableSpec], subset: list[TableSpec] | None) -> dict:
        """The tables that get ``name``'s slots (a key of PER_TABLE_SIZES) and how many each: ``subset``, its tables
        list resolved (None: every one of the run's ``tables``; the batched deals' list is always the run's), one
        number at each or its own count at each. The one place that reads a size given either way; everything
        after reads the mapping."""
        value = getattr(self, name)
        listed = tables if PER_TABLE_SIZES[name] == RUN_TABLES else subset if subset is not None else []
        error = size_errors(name, value, LEAST_SIZES[name], listed)
        if error:
            raise ValueError(error)
        if not isinstance(value, list):
            return dict.fromkeys(subset or tables, value)
        return dict(zip(listed, value, strict=True))


def anchored_actions(space, labels: list[str]) -> torch.Tensor | None:
    """The general-space ids of ``batched.anchor_actions`` (``play``: every card; None: the anchor holds every
    decision)."""
    labels = with_plays(labels, space.labels, space.cards)
    unknown = [label for label in labels if label not in space.labels]
    if unknown:
        raise ValueError(f"batched.anchor_actions: {unknown} are not actions of {space.game_name}")
    return torch.tensor([space.labels.index(label) for label in labels], dtype=torch.long) if labels else None


class SelfPlay:
    """One learner, its league and its tables: ``iterate()`` = one rollout + one PPO update."""

    def __init__(self, game: str, tables: list[TableSpec], config: BatchedConfig, seed: int,
                 scripted_tables: list[TableSpec] | None = None,
                 scripted_alone_tables: list[TableSpec] | None = None, rank: int = 0) -> None:
        """``scripted_tables`` / ``scripted_alone_tables``: the tables among ``tables`` that get the Python-engine
        slots of ``scripted`` / ``scripted_alone`` (None: every one; the run resolves the config's lists).
        ``rank``: which of ``config.processes`` learner processes this is (parallel.py): it plays its share of the
        slots with its own random streams; the network's first weights are the seed's in every process."""
        self.game, self.tables, self.config, self.seed = game, list(tables), config, int(seed)
        self.rank, self.stream = rank, stream_seed(seed, rank)
        self.group: Solo = SOLO  # the processes' collectives; a run of several sets it once they have all started
        torch.manual_seed(self.seed)  # the network's initial weights
        slots = lambda count: share(count, rank, config.processes)  # noqa: E731
        this_process = lambda name, subset: {spec: slots(count) for spec, count in  # noqa: E731
                                             config.slots_by_table(name, self.tables, subset).items()}
        scripted = (ScriptedSlots(config.scripted, this_process("scripted_envs_per_table", scripted_tables)),
                    ScriptedSlots(config.scripted_alone,
                                  this_process("scripted_alone_envs_per_table", scripted_alone_tables), lone=True))
        batched = config.slots_by_table("envs_per_table", self.tables, None)
        self.source = VectorTables(game, self.tables, [max(1, slots(batched[spec])) for spec in self.tables],
                                   scripted, config.thedinghausen_carry)  # every process plays a deal of every table
        self.source.reset(self.stream)
        space = self.source.space
        self.policy = ActorCritic(space.obs_size, space.num_actions, config.net_arch)
        self.policy.set_precision(*update_dtypes(config.gradient_precision, config.update_forward_precision))
        self.optimizer = adam(self.policy.parameters(), config.learning_rate)
        self.rng = np.random.default_rng(self.stream)
        self.generator = torch.Generator().manual_seed(self.stream)
        slots, players = self.source.num_slots, self.source.max_players
        self.league = League(config.league, self.source.num_players, self.source.fixed, config.snapshots_kept,
                             config.snapshot_sampling, self.rng, config.exploiter_deals)
        one_table = self.source.tables[0] if len(self.source.tables) == 1 else None  # a native network's only table
        for path in config.exploiters:
            self.league.add_exploiter(frozen_target(path, space, one_table))
        if config.exploiters:
            self.league.start_deals(np.arange(slots))  # the first deals too
        self.buffer = RolloutBuffer(slots * (players + config.rollout_steps), slots, players, space.num_actions)
        self.settings = UpdateSettings(config.epochs, config.minibatch_size, config.clip, config.ent_coef,
                                       config.vf_coef, config.target_kl, config.anchor_coef,
                                       anchored_actions(space, config.anchor_actions))
        self.reward_norm = TableRewardScale(self.source.table_of_slot, self.source.num_players, players) \
            if config.reward_norm == "per_table" else None
        self.steps = 0  # learner decisions learned from
        self.iterations = 0
        self.anchor: ActorCritic | None = None
        self.set_anchor()

    # ------------------------------------------------------------------ loop
    def iterate(self) -> dict[str, float]:
        """One rollout of ``rollout_steps`` steps in every slot, then one PPO update; metrics for TensorBoard.
        With several processes every one calls it at once: the update, the step count and the rates are theirs
        together, the league's win rates this process's."""
        if self.config.processes != self.group.size:
            raise RuntimeError(f"batched.processes={self.config.processes}: the learner processes have not started "
                               "(training/batched/parallel.py)")
        start, cpu_start = time.perf_counter(), os.times()
        clock = Clock()
        results = self.rollout(clock)
        self._anneal()
        with clock("update"):
            batch = self.buffer.take(self.config.gamma, self.config.gae_lambda)
            metrics = update(self.policy, self.optimizer, batch, self.settings, self.generator, self.anchor,
                             self.group)
        wall = time.perf_counter() - start
        decisions, cpu = self.group.add(torch.tensor([len(batch), cpu_seconds(cpu_start)], dtype=torch.float64))
        self.steps += int(decisions)
        self.iterations += 1
        metrics.update(decisions=float(decisions), steps_per_s=float(decisions) / wall,
                       steps_per_cpu_s=float(decisions) / max(float(cpu), 1e-9),
                       learning_rate=self.optimizer.param_groups[0]["lr"])
        metrics.update({f"time/{part}": seconds / wall for part, seconds in clock.seconds.items()})
        metrics.update(results)
        return metrics

    def rollout(self, clock: Clock) -> dict[str, float]:
        """``rollout_steps`` steps of every slot; the learner's decisions go into the buffer."""
        source = self.source
        finished = {"learner": [], "edge": [], "vs_random": [], "edge_scripted": [], "vs_exploiter": []}
        scale = np.float32(self.config.reward_scale)
        for _ in range(self.config.rollout_steps):
            with clock("act"):
                actions = self.decide()
            with clock("env"):
                source.step(actions)
            with clock("bookkeeping"):
                rewards = source.rewards if self.reward_norm is None else self.reward_norm(source.rewards, source.done)
                self.buffer.reward(rewards * scale, source.done)
                for name, values in self.league.end_step(source.rewards, source.done).items():
                    finished[name].append(values)
        results = summarise(finished, self.league, self.group)
        if self.reward_norm is not None:
            results.update({"reward_norm/smallest_scale": float(self.reward_norm.scale.min()),
                            "reward_norm/largest_scale": float(self.reward_norm.scale.max())})
        return results

    def decide(self) -> np.ndarray:
        """Every slot's action: one batched forward per policy over the slots whose seat to act it plays."""
        source, league = self.source, self.league
        policy_of = league.policy_of_slot(source.to_act)
        order = np.argsort(policy_of, kind="stable")
        ids, starts = np.unique(policy_of[order], return_index=True)
        actions = np.empty(source.num_slots, np.int64)
        for ident, slots in zip(ids.tolist(), np.split(order, starts[1:]), strict=True):
            mask = torch.from_numpy(source.mask[slots])
            if ident == LEARNER:
                entries = sparse_rows(source.obs, slots)
                chosen, log_probs, values = act(self.policy, entries, mask, self.generator)
                self.buffer.add(slots, source.to_act[slots], entries, mask.numpy(), chosen.numpy(),
                                log_probs.numpy(), values.numpy())
                actions[slots] = chosen.numpy()
            elif ident == RANDOM:
                actions[slots] = (self.rng.random(mask.shape) + mask.numpy()).argmax(1)
            else:
                net = league.net_of(ident)  # a snapshot (an ActorCritic) or an exploiter's module (target.py)
                inputs = sparse_rows(source.obs, slots) if isinstance(net, ActorCritic) else \
                    torch.from_numpy(source.obs[slots])
                actions[slots] = act_frozen(net, inputs, mask, self.generator).numpy()
        return actions

    def _anneal(self) -> None:
        if self.config.anneal_lr and self.config.total_iterations > 0:
            left = max(0.0, 1.0 - self.iterations / self.config.total_iterations)
            self.optimizer.param_groups[0]["lr"] = self.config.learning_rate * left

    # ------------------------------------------------------------- league
    def snapshot(self) -> None:
        """Freeze the current weights into the league."""
        self.league.add_snapshot(copy.deepcopy(self.policy))

    def set_anchor(self) -> None:
        """Freeze the current weights as the anchor the loss pulls toward (if ``anchor_coef`` asks for one): the
        run calls it again once a warm start or ``init_from`` has set the weights it starts from."""
        if self.config.anchor_coef > 0:
            self.anchor = copy.deepcopy(self.policy).eval().requires_grad_(False)

    def _empty_net(self) -> ActorCritic:
        return ActorCritic(self.policy.obs_size, self.policy.num_actions, self.policy.net_arch)

    # --------------------------------------------------------------- resume
    def state(self) -> dict:
        """Everything the next iteration reads, as tensors, numbers, lists, str and dicts of them: the league
        (snapshots, win rates, seats), the counters, both generators, and when every table can save them
        (not the Python-engine tables of aec_tables.py) the deals in progress and the decisions carried over:
        loaded into a fresh learner of the same config, the run goes on bit for bit as if never stopped."""
        state = {"steps": self.steps, "iterations": self.iterations, "league": as_tensors(self.league.state()),
                 "rng": self.rng.bit_generator.state, "generator": self.generator.get_state(),
                 "config": asdict(self.config)}
        if self.reward_norm is not None:
            state["reward_norm"] = as_tensors(self.reward_norm.state())
        if self.anchor is not None:
            state["anchor"] = self.anchor.state_dict()
        deals = self.source.state()
        if deals is not None:
            state["deals"], state["buffer"] = as_tensors(deals), as_tensors(self.buffer.state())
        return state

    def load_state(self, state: dict) -> None:
        """Restore :meth:`state` (the run loads the policy and optimizer weights itself); a state without
        deals in progress deals afresh (seeded by the seed and the iteration count)."""
        self.steps, self.iterations = int(state["steps"]), int(state["iterations"])
        exact = "deals" in state
        if exact:
            self.source.load_state(as_arrays(state["deals"]))
            self.buffer.load_state(as_arrays(state["buffer"]))
        else:
            self.source.reset(self.stream + self.iterations)
            self.buffer.clear()
        self.league.load_state(state["league"], self._empty_net, seats=exact)  # fresh deals: seated afresh
        if self.reward_norm is not None and "reward_norm" in state:  # a state saved without it: estimates afresh
            self.reward_norm.load_state(as_arrays(state["reward_norm"]))
        if self.anchor is not None:
            if "anchor" not in state:
                raise ValueError("batched.anchor_coef > 0 but the saved run has no anchor (it ran without one)")
            self.anchor.load_state_dict(state["anchor"])
        self.rng.bit_generator.state = state["rng"]  # after any fresh draws of the league: generators as saved
        self.generator.set_state(state["generator"])

    # ------------------------------------------------------ other processes
    def join(self, start) -> None:
        """A worker process takes process 0's weights, Adam's state and anchor, and its own saved state if the run
        is resumed (parallel.py ``Start``; its league's snapshots that process 0 held too come from there)."""
        self.policy.load_state_dict(start.weights)
        self.optimizer.load_state_dict(start.optimizer)
        if self.anchor is not None and start.anchor is not None:
            self.anchor.load_state_dict(start.anchor)
        if start.state is None:  # a new run, or a resume from a checkpoint saved before the workers started
            self.steps, self.iterations = start.steps, start.iterations
            self.league.load_state(start.league, self._empty_net, seats=False)
            return
        state = dict(start.state)
        state["league"] = {**state["league"], "weights": {**start.league["weights"], **state["league"]["weights"]}}
        if self.anchor is not None:
            state["anchor"] = start.anchor
        self.load_state(state)

    def worker_state(self) -> dict:
        """:meth:`state` for process 0's checkpoint, without what process 0 saves anyway (its anchor, which is this
        one's); process 0 also drops the league snapshots it holds itself (training/batched/run.py)."""
        state = self.state()
        state.pop("anchor", None)
        state["weights_digest"] = weights_digest(self.policy)
        return state


class Clock:
    """Wall seconds spent in each named part of an iteration (``with clock("env"): ...``): the metrics
    ``time/<part>``, shares of the iteration's wall time."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._part, self._since = "", 0.0

    def __call__(self, part: str) -> Clock:
        self._part = part
        return self

    def __enter__(self) -> None:
        self._since = time.perf_counter()

    def __exit__(self, *exc: object) -> None:
        self.seconds[self._part] = self.seconds.get(self._part, 0.0) + time.perf_counter() - self._since


def cpu_seconds(since: os.times_result) -> float:
    """CPU seconds (user + system, this process) since ``since``."""
    now = os.times()
    return (now.user - since.user) + (now.system - since.system)


def summarise(finished: dict[str, list[np.ndarray]], league: League, group: Solo = SOLO) -> dict[str, float]:
    """Means of the finished deals' learner results (over every process's deals), and each kept snapshot's win rate
    against the learner (this process's)."""
    out: dict[str, float] = {}
    values = {name: np.concatenate(parts) if parts else np.zeros(0) for name, parts in finished.items()}
    if group.size == 1:
        totals = {name: (float(len(v)), float(v.mean()) if len(v) else float("nan")) for name, v in values.items()}
    else:  # counts and sums of every process, in one collective
        summed = group.add(torch.tensor([x for v in values.values() for x in (len(v), v.sum())], dtype=torch.float64))
        totals = {name: (float(count), float(total / count) if count else float("nan"))
                  for name, (count, total) in zip(values, summed.view(-1, 2).tolist(), strict=True)}
    for name, (count, mean) in totals.items():
        out[f"deals_{name}"] = count
        out[f"reward_{name}"] = mean
    for ident in league.kept:
        out[f"league/winrate_{ident}"] = league.rates[ident]
    return out
