"""Learner decisions per second of ``trainer: rllib`` with 1 and 2 env runners, beside ``rams train``'s batched and
SB3 trainers on the same game and table, one after the other in this process (docs/results.md, "Ray RLlib").

Each contender is built first (Ray's start and the numba compile are not counted), then trains: RLlib one
warm-up iteration, then ``--iterations`` timed ones; the batched trainer a warm-up iteration and timed ones too;
SB3 ``--sb3-steps`` decisions. Wall-clock rates: Ray's workers are not this process's children, so no CPU-second
count covers them; the load average is printed beside (the machine may be shared: quote ratios).

    python benchmarks/rllib_throughput.py                              # Toepen 4p, runners 1 and 2, batched, sb3
    python benchmarks/rllib_throughput.py --runners 1 2 --iterations 5 --json out.json
    python benchmarks/rllib_throughput.py --address auto --runners 4   # a running cluster (ray start ...)
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import torch

from evaluation.throughput import measured_code
from training.config import load_config

CONFIGS = Path(__file__).resolve().parent.parent / "configs" / "train"


def rllib_rate(runners: int, iterations: int, address: str, out: str) -> float:
    from training.rllib.run import RLlibRun

    cfg = load_config(CONFIGS / "toepen_rllib.yaml", [f"rllib.num_env_runners={runners}", f"out_dir={out}",
                                                      f"rllib.address={address!r}" if address else "rllib.address=''"])
    run = RLlibRun(cfg, quiet=True)
    print(f"{runners} env runner(s) on nodes {placement(run)} of {len(ray_nodes())} alive")
    run.algo.train()
    start, before = time.perf_counter(), run.steps
    for _ in range(iterations):
        result = run.algo.train()
        run.steps += int(result["env_runners"]["num_module_steps_sampled"]["learner"])
    rate = (run.steps - before) / (time.perf_counter() - start)
    run.algo.stop()
    return rate


def ray_nodes() -> list[dict]:
    import ray

    return [node for node in ray.nodes() if node["Alive"]]


def placement(run) -> list[str]:
    """The node (first 8 hex digits of its id) of each remote env runner."""
    import ray

    nodes = run.algo.env_runner_group.foreach_env_runner(lambda _: ray.get_runtime_context().get_node_id(),
                                                         local_env_runner=False)
    return [node[:8] for node in nodes]


def batched_rate(iterations: int, out: str) -> float:
    from training.batched.run import BatchedRun

    run = BatchedRun(load_config(CONFIGS / "quick.yaml", [f"out_dir={out}"]), quiet=True)
    run.selfplay.iterate()
    start, before = time.perf_counter(), run.steps
    for _ in range(iterations):
        run.selfplay.iterate()
    return (run.steps - before) / (time.perf_counter() - start)


def sb3_rate(steps: int, out: str) -> float:
    from training.train import Run

    run = Run(load_config(CONFIGS / "toepen.yaml", [f"out_dir={out}", f"total_timesteps={steps}", "eval.every=0"]),
              quiet=True)
    start = time.perf_counter()
    run.model.learn(steps, reset_num_timesteps=False)
    return run.model.num_timesteps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2], help="env runner counts (1 2)")
    parser.add_argument("--iterations", type=int, default=4, help="timed RLlib / batched iterations (4)")
    parser.add_argument("--sb3-steps", type=int, default=4096, help="SB3 learner decisions (4096)")
    parser.add_argument("--address", default="", help="a running Ray cluster ('auto', host:6379); default local")
    parser.add_argument("--skip-others", action="store_true", help="RLlib rows only")
    parser.add_argument("--json", metavar="PATH", help="also write the rates as JSON")
    args = parser.parse_args()
    print(measured_code(), flush=True)
    torch.set_num_threads(1)
    rates = {}
    with tempfile.TemporaryDirectory(prefix="rams-rllib-bench-") as tmp:
        for n in args.runners:
            rates[f"rllib ppo, {n} env runner(s)"] = rllib_rate(n, args.iterations, args.address, f"{tmp}/r{n}")
            print(f"rllib {n} runner(s): {rates[f'rllib ppo, {n} env runner(s)']:.0f}/s, load {os.getloadavg()}")
        if not args.skip_others:
            rates["rams train, batched (quick.yaml)"] = batched_rate(args.iterations, f"{tmp}/b")
            rates["rams train, sb3 (toepen.yaml)"] = sb3_rate(args.sb3_steps, f"{tmp}/s")
    print("\n".join(f"{name:40s} {rate:9.0f} learner decisions/s" for name, rate in rates.items()))
    print(f"load average after: {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(rates, indent=2))


if __name__ == "__main__":
    main()
