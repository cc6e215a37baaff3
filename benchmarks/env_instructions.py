"""Instructions per decision of the throughput loop, counted by valgrind: exact where timings are noise.

On a shared machine the CPU-second ratios of ``env_throughput.py`` move by tens of percent between runs;
the number of machine instructions a decision takes does not. This runs the very loop of
``env_throughput.py`` (``evaluation.throughput.random_play``, its clock counting deals instead of
seconds) under valgrind's cachegrind twice, once with only a warm-up deal and once with ``--deals``
more, and divides the difference by the decisions of those deals, so start-up and imports cancel.
Deterministic: hash seed 0, address randomization off (``setarch -R``), one BLAS thread (its idle
spinning is counted too), collector frozen after the warm-up deal.

    python benchmarks/env_instructions.py tippen:3 fipsen:5 texas    # needs valgrind; ~1 min per case
    python benchmarks/env_instructions.py --deals 300 toepen:8
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import re
import subprocess
import sys

from evaluation.throughput import measured_code

INSTRUCTIONS = re.compile(r"I\s+refs:\s+([\d,]+)")


def play(case: str, deals: int) -> int:
    """Play one warm-up deal, freeze the collector, then ``deals`` deals; the decisions of those."""
    import rams_env
    from evaluation.throughput import preset_for, random_play

    if case == "texas":
        from pettingzoo.classic import texas_holdem_v4
        env = texas_holdem_v4.env()
    else:
        game, n = case.split(":")
        env = rams_env.make(game, int(n), preset=preset_for(game, int(n)), random_carry=True)
    random_play(env, 1, seed=0, clock=itertools.count().__next__)  # the clock counts deals
    gc.freeze()
    if not deals:
        return 0
    per_deal, _ = random_play(env, deals, seed=1, clock=itertools.count().__next__)
    return round(per_deal * deals)


def counted(case: str, deals: int) -> tuple[int, int]:
    """(instructions, decisions) of this script playing ``deals`` deals of ``case`` under cachegrind."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    command = ["setarch", "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, __file__, "--child", case, "--deals", str(deals)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    decisions = int(done.stdout.split()[-1])
    return int(INSTRUCTIONS.search(done.stderr).group(1).replace(",", "")), decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="+", help="game:players (e.g. tippen:3), or texas for texas_holdem_v4")
    parser.add_argument("--deals", type=int, default=150, help="deals counted after the warm-up (default 150)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    if args.child:
        print(play(args.cases[0], args.deals))
        return
    print("| case | decisions | instructions per decision |")
    print("| --- | ---: | ---: |")
    for case in args.cases:
        start, _ = counted(case, 0)
        total, decisions = counted(case, args.deals)
        print(f"| {case} | {decisions} | {(total - start) / decisions:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
