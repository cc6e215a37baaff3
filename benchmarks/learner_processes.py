"""The batched learner on two cores three ways: one process of one torch thread, one of two threads, two processes
of one thread each (``batched.processes``, training/batched/parallel.py).

Each contender is ``rams train <config>`` as users run it (a fresh run folder, no evaluation during training), and its
rates are the ones the run logs for TensorBoard: learner decisions per second of the clock and per CPU-second of all
its learner processes (``train/steps_per_s``, ``train/steps_per_cpu_s``: each process's ``os.times()`` over the
iteration, added up), the median over the iterations after the first ``--skip`` (numba's first calls, the league's
first snapshot). The contenders run one after another in interleaved rounds, so a load that drifts weighs on all
of them; the table gives the medians over the rounds and each contender's ratio to the first, per round too.

    python benchmarks/learner_processes.py                                  # Toepen's general config, 3 rounds
    python benchmarks/learner_processes.py --config configs/train/quick.yaml --steps 1500000 --rounds 2
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from evaluation.throughput import measured_code

ROOT = Path(__file__).resolve().parent.parent
CONTENDERS = {"1 process, 1 thread": ["batched.processes=1", "torch_threads=1"],
              "1 process, 2 threads": ["batched.processes=1", "torch_threads=2"],
              "2 processes, 1 thread each": ["batched.processes=2", "torch_threads=1"]}


def logged_rates(folder: Path, skip: int) -> tuple[float, float]:
    """The median decisions per second and per CPU-second of a run's iterations, after the first ``skip``."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder / "tb"))
    events.Reload()
    rates = [[e.value for e in events.Scalars(f"train/{name}")][skip:] for name in ("steps_per_s", "steps_per_cpu_s")]
    if not rates[0]:
        raise SystemExit(f"{folder}: fewer than {skip + 1} iterations were logged; give more --steps")
    return statistics.median(rates[0]), statistics.median(rates[1])


def run(config: str, overrides: list[str], steps: int, folder: Path) -> None:
    command = [sys.executable, "-m", "cli", "train", config, "--quiet", "--overwrite",
               *(f"--set={o}" for o in [*overrides, f"out_dir={folder}", f"total_timesteps={steps}", "eval.every=0",
                                        "eval.deals=2", "eval.final_deals=2", "eval.ratings_deals=0",
                                        "eval.tables=[]", f"checkpoint_every={steps * 10}"])]
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/train/toepen_batched.yaml")
    parser.add_argument("--steps", type=int, default=1_000_000, help="learner decisions per run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip", type=int, default=3, help="first iterations left out of each run's median")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in CONTENDERS}
    with tempfile.TemporaryDirectory(prefix="rams-processes-") as tmp:
        for round_ in range(args.rounds):
            for name, overrides in CONTENDERS.items():
                folder = Path(tmp) / f"{round_}-{name.replace(' ', '_').replace(',', '')}"
                run(args.config, overrides, args.steps, folder)
                rates[name].append(logged_rates(folder, args.skip))
                print(f"round {round_ + 1}: {name}: {rates[name][-1][0]:,.0f} decisions/s, "
                      f"{rates[name][-1][1]:,.0f} per CPU-s", flush=True)
    first = next(iter(rates))
    print(f"\n{args.config}, {args.steps:,} decisions a run, medians of {args.rounds} rounds "
          f"(ratios to '{first}', per round in brackets)")
    print(f"{'contender':28} {'decisions/s':>12} {'ratio':>7} {'per CPU-s':>10} {'ratio':>7}")
    for name, values in rates.items():
        wall, cpu = (statistics.median(v[i] for v in values) for i in (0, 1))
        base_wall, base_cpu = (statistics.median(v[i] for v in rates[first]) for i in (0, 1))
        per_round = " ".join(f"{v[0] / b[0]:.2f}" for v, b in zip(values, rates[first], strict=True))
        print(f"{name:28} {wall:12,.0f} {wall / base_wall:6.2f}x {cpu:10,.0f} {cpu / base_cpu:6.2f}x  [{per_round}]")


if __name__ == "__main__":
    main()
