"""Where an iteration's time goes: ``python -m training.batched.profile --envs 1024 --threads 1 --epochs 4``.

Builds a Toepen 4p ``SelfPlay`` (or ``--game``), runs two warm-up iterations (taking a snapshot after the
first), then ``--iterations`` timed ones, and prints learner decisions per CPU-second (``os.times()``) and
the mean shares of the iteration's wall time: act (forwards, sampling, buffer), env, bookkeeping, update.
"""

from __future__ import annotations

import argparse
import json
import os

import numpy as np
import torch

from evaluation.throughput import measured_code
from training.batched.learner import BatchedConfig, SelfPlay, TableSpec


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
    args = parser.parse_args()
    print(measured_code(), flush=True)  # python -m imports the current directory's code first, whatever PYTHONPATH
    torch.set_num_threads(args.threads)
    config = BatchedConfig(envs_per_table=args.envs, epochs=args.epochs,
                           net_arch=json.loads(args.net_arch), gradient_precision=args.gradient_precision,
                           update_forward_precision=args.update_forward_precision)
    learner = SelfPlay(args.game, [TableSpec(args.players)], config, seed=0)
    learner.iterate()
    learner.snapshot()
    learner.iterate()
    start, steps, shares = os.times(), learner.steps, {}
    for _ in range(args.iterations):
        for name, value in learner.iterate().items():
            if name.startswith("time/"):
                shares.setdefault(name, []).append(value)
    now = os.times()
    cpu = (now.user - start.user) + (now.system - start.system)
    print(f"{(learner.steps - steps) / cpu:,.0f} learner decisions per CPU-second;",
          ", ".join(f"{name[5:]} {np.mean(values):.0%}" for name, values in shares.items()))


if __name__ == "__main__":
    main()
