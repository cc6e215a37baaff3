"""Training throughput: learner steps/s of the batched self-play trainer, of ``rams train``'s SB3 path and of
MaskablePPO on rams beside PettingZoo's Leduc hold'em.

Each rams game (default rules, default table, random_carry deals as in training) is wrapped
in the trainer's single-seat view (training/single_seat.py) with random opponents; PettingZoo's
classic ``leduc_holdem_v4`` (raw env) is wrapped in an equivalent single-seat view with a random
opponent. Every contender trains MaskablePPO with the same network, ``n_envs``, ``n_steps``,
batch size and epochs, one torch thread, in this one process; the contenders are interleaved
over several rounds of ``--steps`` learner steps and the median steps/s is reported with the
ratio ``leduc steps/s / rams steps/s`` (the issue's target: at most 1.5), both of the medians and
the median of the per-round ratios (robust to load that drifts between rounds). A learner step is one
decision of the learner, whatever the opponents did in between: that is what a training budget
counts. The machines are shared and noisy: quote ratios, not absolute rates.

The trainers (``--trainers``, default Toepen): ``rams train``'s SB3 path (training/train.py's ``Run`` on
``configs/train/<game>.yaml``: MaskablePPO in one seat, the config's opponent pool, one thread) and the batched
trainer (training/batched/) of each ``--batched-configs`` file (default the game's ``<game>_batched.yaml`` and,
for Toepen, ``quick.yaml``), all its deals at ``rams train``'s table (``tables=default``: the issue's "same
config"; ``--batched-tables config`` adds the config's own tables, as its users train it), at each of
``--batched-threads`` (default 1 and 2) and each ``--batched-precisions`` (default ``auto``; ``float32 bfloat16``:
the dense layers' gradient products both ways, training/batched/precision.py) and ``--batched-forwards``
(default ``gradient``; ``gradient float32``: the update's forward products both ways), beside the same Leduc learner.
Each row's name says its config, deals, network and threads. The rows count learner decisions per CPU-second
of this process (``os.times()``: user + system, children too) and per wall second; each batched row reports
``batched / reference`` against Leduc and ``rams train``: the ratio of the medians and the per-round ratios (the
issue's target: >= 10x, per CPU-second). With ``--batched-threads 1`` the process runs pinned to one core.

    python benchmarks/train_throughput.py                      # 3 rounds of 4096 steps each
    python benchmarks/train_throughput.py --games toepen --rounds 2 --json out.json
    python benchmarks/train_throughput.py --games --trainers toepen --rounds 1   # the trainers' ratios only
    python benchmarks/train_throughput.py --games --trainers toepen --batched-configs toepen_batched \
        --batched-threads 1 --batched-precisions float32 bfloat16 --batched-factor 10   # the precisions' ratio
    python benchmarks/train_throughput.py --games --trainers toepen --batched-configs toepen_batched quick \
        --batched-threads 1 --batched-forwards gradient float32 --batched-factor 10 --rounds 5   # forward both ways
    python benchmarks/train_throughput.py --games --trainers toepen --batched-configs toepen_batched \
        --batched-threads 1 --batched-tables default config --batched-factor 10 --rounds 5   # every table too
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

import rams_env
from agents.checkpoint.net_arch import describe
from agents.random_agent import RandomAgent
from evaluation.throughput import measured_code, pin_one_core
from training.batched.precision import GRADIENT_PRECISIONS, UPDATE_FORWARD_PRECISIONS, forward_dtype, gradient_dtype
from training.single_seat import SingleSeatEnv

PEER = "leduc_holdem_v4"


class LeducSingleSeat(gym.Env):
    """Leduc hold'em from one seat (drawn per hand): the random opponent acts until the learner must."""

    def __init__(self) -> None:
        from pettingzoo.classic import leduc_holdem_v4

        self.aec = leduc_holdem_v4.raw_env()
        first = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(first)["observation"]
        self.action_space = self.aec.action_space(first)
        self._rng = np.random.default_rng()
        self.learner = first

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        while True:
            self.aec.reset(seed=int(self._rng.integers(2**31)))
            self.learner = self.aec.possible_agents[int(self._rng.integers(2))]
            self._carry, done = self._play_other()
            if not done:
                return self._observe(), {}

    def step(self, action: int):
        self.aec.step(int(action))
        reward = self.aec.rewards[self.learner] + self._carry
        self._carry = 0.0
        more, done = self._play_other() if not self._over() else (0.0, True)
        obs = np.zeros(self.observation_space.shape, np.float32) if done else self._observe()
        return obs, float(reward + more), done, False, {}

    def action_masks(self) -> np.ndarray:
        return self.aec.observe(self.learner)["action_mask"].astype(bool)

    def _observe(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"].astype(np.float32)

    def _over(self) -> bool:
        return bool(self.aec.terminations[self.learner] or self.aec.truncations[self.learner])

    def _play_other(self) -> tuple[float, bool]:
        total = 0.0
        while not self._over() and self.aec.agent_selection != self.learner:
            mask = self.aec.observe(self.aec.agent_selection)["action_mask"]
            legal = np.flatnonzero(mask)
            self.aec.step(int(legal[self._rng.integers(len(legal))]))
            total += self.aec.rewards[self.learner]
        return total, self._over()


def rams_env_fn(game: str):
    """The trainer's single-seat view of ``game`` with seeded random opponents (as in the Leduc wrapper)."""
    n = rams_env.make_game(game, None).num_players

    def opponents(rng: np.random.Generator) -> list[RandomAgent]:
        return [RandomAgent(int(rng.integers(2**31))) for _ in range(n)]

    return lambda: SingleSeatEnv(game, opponents, random_carry=True)


def build_model(env_fns: list, args: argparse.Namespace) -> MaskablePPO:
    return MaskablePPO("MlpPolicy", DummyVecEnv(env_fns), n_steps=args.n_steps, batch_size=args.batch_size,
                       n_epochs=args.n_epochs, seed=0, verbose=0, policy_kwargs={"net_arch": list(args.net_arch)})


def learn_rate(model: MaskablePPO, steps: int) -> float:
    """Learner steps/s of ``model.learn`` over ``steps`` (rollouts and updates)."""
    start = time.perf_counter()
    model.learn(steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - start)


def cpu_seconds() -> float:
    """CPU time of this process and its children so far (user + system)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(advance: Callable[[], int], steps: int) -> dict[str, float]:
    """Call ``advance`` (returns the learner steps it took) until ``steps``: steps per CPU-second and per second."""
    done, cpu, wall = 0, cpu_seconds(), time.perf_counter()
    while done < steps:
        done += advance()
    cpu, wall = cpu_seconds() - cpu, time.perf_counter() - wall
    return {"steps": done, "per_cpu_s": done / cpu, "per_s": done / wall}


def sb3_advance(model: MaskablePPO, steps: int) -> Callable[[], int]:
    """One call: ``model.learn`` over ``steps`` learner steps (rollouts and updates)."""
    def advance() -> int:
        before = model.num_timesteps
        model.learn(steps, reset_num_timesteps=False)
        return model.num_timesteps - before
    return advance


Contender = tuple[Callable[[], int], int, int]
"""How to advance a learner (returns the steps taken), its torch threads and its steps per round."""


TABLE_CHOICES = ("default", "config")
"""``--batched-tables``: all the deals at ``rams train``'s table, or at the config's own tables."""


def batched_learner(path: str, folder: str, where: str = "default"):
    """The batched self-play learner of the config at ``path`` and a label saying what it runs. ``where``:
    ``default``, all its deals at ``rams train``'s table (``tables: default``, as many slots as the config's tables
    hold together); ``config``, at the config's own tables (``tables: all``: every table of the game, 48 deals each
    in ``toepen_batched.yaml``), as a user's run of it plays them."""
    from training.batched.learner import SelfPlay
    from training.config import load_config
    from training.tables import resolve_tables

    name = os.path.splitext(os.path.basename(path))[0]
    cfg = load_config(path, [f"out_dir={folder}/{name}"])
    tables = resolve_tables(cfg.tables, cfg.game, cfg.num_players, cfg.rules)
    slots = sum(cfg.batched.slots_by_table("envs_per_table", tables, None).values())
    label = f"{name}.yaml {len(tables)} tables {slots} deals {describe(cfg.batched.net_arch)}"
    if where == "default":
        cfg.batched.envs_per_table, cfg.tables = slots, "default"
        tables = resolve_tables(cfg.tables, cfg.game, cfg.num_players, cfg.rules)
        label = f"{name}.yaml {cfg.num_players}p {slots} deals {describe(cfg.batched.net_arch)}"
    return SelfPlay(cfg.game, tables, cfg.batched, cfg.seed), label


def trainer_contenders(game: str, args: argparse.Namespace, folder: str) -> dict[str, Contender]:
    """``rams train``'s SB3 run (one torch thread, as it trains) and the batched self-play learner of each
    ``--batched-configs`` file of ``game`` at each ``--batched-threads``, each warmed up once."""
    from training.config import load_config
    from training.train import Run

    configs = f"{os.path.dirname(os.path.abspath(__file__))}/../configs/train"
    sb3 = Run(load_config(f"{configs}/{game}.yaml", [f"out_dir={folder}/{game}"]), quiet=True)
    contenders = {f"{game} rams train ({game}.yaml)": (sb3_advance(sb3.model, args.steps), sb3.config.torch_threads,
                                                        args.steps)}
    for pattern in args.batched_configs:
        path = f"{configs}/{pattern.format(game=game)}.yaml"
        if not os.path.exists(path) or load_config(path, []).game != game:
            continue
        for where in args.batched_tables:
            selfplay, label = batched_learner(path, folder, where)
            add_batched_rows(contenders, selfplay, label, args)
    for advance, threads, _ in contenders.values():  # warm-up (numba, first rollout) outside the timing
        torch.set_num_threads(threads)
        advance()
    return contenders


def add_batched_rows(contenders: dict[str, Contender], selfplay, label: str, args: argparse.Namespace) -> None:
    """One row of ``selfplay`` per ``--batched-threads`` x ``--batched-precisions`` x ``--batched-forwards``."""
    for threads in args.batched_threads:
        for precision, forward in itertools.product(args.batched_precisions, args.batched_forwards):
            dtype = gradient_dtype(precision)
            grads = f" {str(dtype).removeprefix('torch.')} grads" * (len(args.batched_precisions) > 1)
            grads += f" {forward} forward" * (len(args.batched_forwards) > 1)
            contenders[f"{BATCHED} {label} {threads}t{grads}"] = (iterations(selfplay, dtype, forward), threads,
                                                                 args.steps * args.batched_factor)


BATCHED = "batched"
"""The first word of the batched trainer's rows."""


def iterations(selfplay, dtype: torch.dtype, forward_precision: str) -> Callable[[], int]:
    """One call: one iteration of the batched learner (rollout and update) with its dense layers' gradient products
    in ``dtype`` and its update's forward products by ``forward_precision`` (``batched.update_forward_precision``,
    training/batched/precision.py); returns the decisions learned."""
    forward = forward_dtype(forward_precision, dtype)

    def advance() -> int:
        selfplay.policy.set_precision(dtype, forward)
        before = selfplay.steps
        selfplay.iterate()
        return selfplay.steps - before
    return advance


def trainers(args: argparse.Namespace) -> dict[str, Any]:
    """Per-CPU-second and per-second rates of the trainers beside Leduc's MaskablePPO, and the batched ratios."""
    out: dict[str, Any] = {}
    torch.set_num_threads(1)
    leduc = build_model([lambda: LeducSingleSeat() for _ in range(args.n_envs)], args)
    leduc.learn(args.n_steps * args.n_envs)
    with tempfile.TemporaryDirectory(prefix="rams-bench-") as folder:
        for game in args.trainers:
            contenders = {f"{PEER} MaskablePPO {list(args.net_arch)}": (sb3_advance(leduc, args.steps), 1, args.steps),
                          **trainer_contenders(game, args, folder)}
            rounds: dict[str, list[dict[str, float]]] = {name: [] for name in contenders}
            for _ in range(args.rounds):
                for name, (advance, threads, steps) in contenders.items():
                    torch.set_num_threads(threads)
                    rounds[name].append(timed(advance, steps))
            out[game] = ratios(rounds)
    return out


def ratios(rounds: dict[str, list[dict[str, float]]]) -> dict[str, Any]:
    """Median rates per contender and, for each batched row, ``batched / reference`` against every other row:
    the ratio of the medians and the median of the per-round ratios (neighbours in time share the load)."""
    med = {name: {key: statistics.median(r[key] for r in rs) for key in ("per_cpu_s", "per_s")}
           for name, rs in rounds.items()}
    references = [name for name in rounds if not name.startswith(BATCHED)]
    out: dict[str, Any] = {name: {**rates, "rounds": rounds[name]} for name, rates in med.items()}
    for name in rounds:
        if name.startswith(BATCHED):
            out[name]["over"] = {ref: {
                "cpu": med[name]["per_cpu_s"] / med[ref]["per_cpu_s"], "wall": med[name]["per_s"] / med[ref]["per_s"],
                "cpu_per_round": [b["per_cpu_s"] / r["per_cpu_s"] for b, r in zip(rounds[name], rounds[ref],
                                                                                  strict=True)]}
                for ref in references}
    return out


def print_trainers(rows: dict[str, Any]) -> None:
    """The trainers' table: rates, then each batched row's ratios over each reference row."""
    print(f"\n{'trainer':58} {'steps/CPU-s':>12} {'steps/s':>9}")
    for name, r in rows.items():
        print(f"{name:58} {r['per_cpu_s']:12.0f} {r['per_s']:9.0f}")
    print("\nper CPU-second (target: batched >= 10x); median ratio, per-round ratios; per second")
    for name, r in rows.items():
        for ref, ratio in r.get("over", {}).items():
            rounds = " ".join(f"{x:.1f}" for x in ratio["cpu_per_round"])
            print(f"{name} / {ref}: {ratio['cpu']:.1f}x ({rounds}); wall {ratio['wall']:.1f}x")


def run(args: argparse.Namespace) -> dict[str, Any]:
    torch.set_num_threads(1)
    models = {PEER: build_model([lambda: LeducSingleSeat() for _ in range(args.n_envs)], args)}
    for game in args.games:
        models[game] = build_model([rams_env_fn(game) for _ in range(args.n_envs)], args)
    for model in models.values():  # warm-up: first rollout and update outside the timing
        model.learn(args.n_steps * args.n_envs)
    rates: dict[str, list[float]] = {name: [] for name in models}
    for _ in range(args.rounds):
        for name, model in models.items():
            rates[name].append(learn_rate(model, args.steps))
    peer = statistics.median(rates[PEER])
    results = {name: {"steps_per_s": statistics.median(r), "rounds": r,
                      "leduc_over_this": peer / statistics.median(r),
                      # the same ratio within each round (neighbours in time share the machine's load)
                      "per_round": statistics.median(p / x for p, x in zip(rates[PEER], r, strict=True))}
               for name, r in rates.items()}
    return {"settings": {k: v for k, v in vars(args).items() if k != "json"}, "results": results}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="*", default=list(rams_env.GAMES), choices=list(rams_env.GAMES),
                        help="games of the MaskablePPO rows beside Leduc (all; none: only the trainers)")
    parser.add_argument("--trainers", nargs="*", default=["toepen"], choices=list(rams_env.GAMES),
                        help="games of the batched-vs-rams-train rows (toepen; none: skip them)")
    parser.add_argument("--batched-configs", nargs="*", default=["{game}_batched", "quick"],
                        help="configs/train files of the batched rows ({game}: the game; a file of another game "
                             "is skipped): {game}_batched quick")
    parser.add_argument("--batched-threads", type=int, nargs="*", default=[1, 2],
                        help="torch threads of the batched rows, one row each (1 2)")
    parser.add_argument("--batched-precisions", nargs="*", default=["auto"], choices=list(GRADIENT_PRECISIONS),
                        help="batched.gradient_precision of the batched rows, one row each, sharing one learner "
                             "(auto; e.g. float32 bfloat16 for the two side by side)")
    parser.add_argument("--batched-forwards", nargs="*", default=["gradient"], choices=list(UPDATE_FORWARD_PRECISIONS),
                        help="batched.update_forward_precision of the batched rows, one row each with each precision, "
                             "sharing one learner (gradient; gradient float32 for the two side by side)")
    parser.add_argument("--batched-tables", nargs="*", default=["default"], choices=list(TABLE_CHOICES),
                        help="where the batched rows' deals are: default, all at rams train's table (the issue's "
                             "same config); config, at the config's own tables (toepen_batched.yaml: all 48), "
                             "a learner and rows each (default)")
    parser.add_argument("--batched-factor", type=int, default=20,
                        help="the batched trainer's steps per round, in multiples of --steps (20)")
    parser.add_argument("--steps", type=int, default=4096, help="learner steps per contender per round (4096)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported (3)")
    parser.add_argument("--n-envs", type=int, default=4)
    parser.add_argument("--n-steps", type=int, default=512)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--n-epochs", type=int, default=4)
    parser.add_argument("--net-arch", type=int, nargs="+", default=[128, 128])
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    if max(args.batched_threads, default=1) == 1:  # every row runs one thread: all of them on one core
        print(f"pinned to core {pin_one_core()}", flush=True)
    out = run(args) if args.games else {"settings": vars(args), "results": {}}
    if args.games:
        print(f"{'environment':18} {'learner steps/s':>16} {'leduc / this':>13} {'per round':>10}"
              "   (target: rams within 1.5x of leduc)")
        for name, r in out["results"].items():
            print(f"{name:18} {r['steps_per_s']:16.0f} {r['leduc_over_this']:12.2f}x {r['per_round']:9.2f}x")
    out["trainers"] = trainers(args) if args.trainers else {}
    for rows in out["trainers"].values():
        print_trainers(rows)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)
    return out


if __name__ == "__main__":
    main()
