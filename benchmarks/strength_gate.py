"""The strength gate's games played one at a time, beside the same games played side by side (agents/lockstep.py).

``rams strength`` plays 1 + opponents x (2n + 1) games a deal. One at a time, a checkpoint agent's batch-1 forward
took about 70% of a Tippen sweep; side by side, a chunk's games wait at the agent's seats and its decisions are
taken in one forward. For each table this plays the same deals both ways (the shipped general agent against every
scripted style, the gate's seeds), checks that the samples are equal, and reports CPU seconds of this process per
deal (``os.times``, one pinned core), alternating the two ways over several rounds and taking each one's median:
the ratio is the figure to read, the absolute seconds move with the machine.

    python benchmarks/strength_gate.py                          # tippen:modern:4 tippen:loup:5 toepen:standard:4 ...
    python benchmarks/strength_gate.py --deals 32 --rounds 5 fipsen:grossenaspe:4
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from evaluation.strength import StrengthPlan, TableRunner, scripted_opponents, seat_scores
from evaluation.throughput import cpu_seconds, measured_code, pin_one_core

DEFAULT = ("tippen:modern:4", "tippen:loup:5", "tippen:meyers_1905_large:8", "toepen:standard:4",
           "mauscheln:standard:4", "fipsen:grossenaspe:4", "lupfen:standard:4")


def one_at_a_time(runner: TableRunner, deals: int) -> np.ndarray:
    """The gate's samples with every game played alone, as ``rams strength`` played them before lockstep."""
    return np.stack([runner._samples([seat_scores(runner.game, factories, seeds, env_seed, runner.carried)
                                      for factories, seeds, env_seed in runner._lineups(d)]) for d in range(deals)])


def timed(play) -> tuple[float, np.ndarray]:
    start = cpu_seconds()
    samples = play()
    return cpu_seconds() - start, samples


def measure(spec: str, deals: int, rounds: int) -> tuple[float, float]:
    """(median CPU s per deal one at a time, side by side) at the table ``game:preset:players``."""
    game, preset, n = spec.split(":")
    plan = StrengthPlan(game, "pretrained", tuple(scripted_opponents(game)), ((preset, int(n)),), deals=deals)
    runner = TableRunner(plan, 0)
    runner.samples(0, 2)  # warm up both paths' first calls
    alone, together = [], []
    for _ in range(rounds):
        seconds_alone, expected = timed(lambda: one_at_a_time(runner, deals))
        seconds_together, samples = timed(lambda: runner.samples(0, deals))
        if not np.array_equal(samples, expected):
            raise AssertionError(f"{spec}: the side-by-side samples differ from the one-at-a-time ones")
        alone.append(seconds_alone / deals)
        together.append(seconds_together / deals)
    return statistics.median(alone), statistics.median(together)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", nargs="*", default=DEFAULT, help="game:preset:players")
    parser.add_argument("--deals", type=int, default=16, help="deals per round (the gate's chunk is 16)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of each way (medians)")
    args = parser.parse_args()
    print(measured_code(), flush=True)
    pin_one_core()
    import torch

    torch.set_num_threads(1)
    print("| table | one at a time, CPU s/deal | side by side | ratio |\n| --- | ---: | ---: | ---: |")
    for spec in args.tables:
        alone, together = measure(spec, args.deals, args.rounds)
        print(f"| {spec} | {alone:.3f} | {together:.3f} | {alone / together:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
