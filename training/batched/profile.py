"""Where an iteration's time goes: ``python -m training.batched.profile --envs 1024 --threads 1 --epochs 4``.

Builds a Toepen 4p ``SelfPlay`` (or ``--game``; ``--tables all``: every table of the game, ``--envs`` deals each,
as ``toepen_batched.yaml`` trains with 48), runs two warm-up iterations (taking a snapshot after the first), then
``--iterations`` timed ones, and prints learner decisions per CPU-second (``os.times()``) and the mean shares of the
iteration's wall time: act (forwards, sampling, buffer), env, bookkeeping, update.

``--observations both`` alternates the iterations between the general observations' compiled pass and numpy's
path (rams_env/core/general_kernel.py; the same numbers, so the same learner and decisions either way) and prints
each one's CPU seconds per rollout and per iteration, medians: an A/B in one process, where the machine's drift
between two processes is larger than the difference.

    python -m training.batched.profile --tables all --envs 48 --net-arch "[256,256]" --observations both --iterations 20
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np
import torch

from evaluation.throughput import measured_code
from training.batched.learner import BatchedConfig, SelfPlay, TableSpec
from training.batched.tables import all_tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="toepen")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--envs", type=int, default=1024, help="slots (deals side by side)")
    parser.add_argument("--threads", type=int, default=1, help="torch intra-op threads")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--net-arch", default="[128, 128]",
                        help='hidden layers, JSON: a list for both towers, or {"pi": [256, 256], "vf": [128, 128]}')
    parser.add_argument("--iterations", type=int, default=4)
    parser.add_argument("--gradient-precision", default="auto", help="auto, float32 or bfloat16 (precision.py)")
    parser.add_argument("--update-forward-precision", default="gradient", help="gradient or float32 (precision.py)")
    parser.add_argument("--tables", default="one", choices=["one", "all"],
                        help="one: the --players table; all: every table of the game, --envs deals each")
    parser.add_argument("--observations", default="compiled", choices=["compiled", "numpy", "both"],
                        help="the general observations' path; both: alternate the iterations and compare them")
    args = parser.parse_args()
    print(measured_code(), flush=True)  # python -m imports the current directory's code first, whatever PYTHONPATH
    torch.set_num_threads(args.threads)
    config = BatchedConfig(envs_per_table=args.envs, epochs=args.epochs,
                           net_arch=json.loads(args.net_arch), gradient_precision=args.gradient_precision,
                           update_forward_precision=args.update_forward_precision)
    tables = all_tables(args.game) if args.tables == "all" else [TableSpec(args.players)]
    learner = SelfPlay(args.game, tables, config, seed=0)
    paths = ObservationPaths(learner)
    paths.use(args.observations != "numpy")
    learner.iterate()
    learner.snapshot()
    learner.iterate()
    if args.observations == "both":
        paths.compare(args.iterations)
        return
    start, steps, shares = os.times(), learner.steps, {}
    for _ in range(args.iterations):
        for name, value in learner.iterate().items():
            if name.startswith("time/"):
                shares.setdefault(name, []).append(value)
    now = os.times()
    cpu = (now.user - start.user) + (now.system - start.system)
    print(f"{(learner.steps - steps) / cpu:,.0f} learner decisions per CPU-second;",
          ", ".join(f"{name[5:]} {np.mean(values):.0%}" for name, values in shares.items()))


class ObservationPaths:
    """Switches a learner's tables between the general observations' compiled pass and numpy's path, and times
    its rollouts and iterations under each."""

    def __init__(self, learner: SelfPlay) -> None:
        self.learner, self.tables = learner, learner.source.tables
        self.compiled = [table.compiled for table in self.tables]
        self.rollouts: list[float] = []
        rollout = learner.rollout

        def timed(clock):
            start = time.process_time()
            out = rollout(clock)
            self.rollouts.append(time.process_time() - start)
            return out
        learner.rollout = timed

    def use(self, compiled: bool) -> None:
        for table, kernel in zip(self.tables, self.compiled, strict=True):
            table.compiled = kernel if compiled else None

    def compare(self, iterations: int) -> None:
        """``iterations`` iterations, in the order compiled, numpy, numpy, compiled, ... (each path as often first)."""
        seconds: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
        for k in range(iterations):
            compiled = k % 4 in (0, 3)
            self.use(compiled)
            start = time.process_time()
            self.learner.iterate()
            seconds[compiled].append((self.rollouts[-1], time.process_time() - start))
        for compiled, rows in seconds.items():
            rollout, iteration = np.median(np.array(rows), axis=0)
            print(f"{'compiled' if compiled else 'numpy':>8}: rollout {rollout:.3f} CPU-s, iteration {iteration:.3f} "
                  f"CPU-s (medians of {len(rows)})")
        self.use(True)


if __name__ == "__main__":
    main()
