"""What a searched decision of the rollout searcher costs (evaluation/ceiling.py), the teacher of expert iteration.

The searcher plays every seat of ``--deals`` deals at one table (``Searcher.teacher``, as the refresher asks it)
and the process time of the whole run is divided by the decisions it searched. A hash of every action taken is
printed too, so two checkouts run side by side (each with ``PYTHONPATH=<checkout>``, each pinned to its own core:
README, "Speed") can be seen to make the same choices as well as which is faster:

    PYTHONPATH=<old> taskset -c 0 python benchmarks/searcher_cost.py &
    PYTHONPATH=<new> taskset -c 1 python benchmarks/searcher_cost.py
"""

from __future__ import annotations

import argparse
import hashlib
import os

import numpy as np

import rams_env
from evaluation.ceiling import Searcher
from evaluation.throughput import measured_code


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tippen")
    parser.add_argument("--preset", default="loup")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--style", default="heuristic", help="the scripted style the rollouts play")
    parser.add_argument("--worlds", type=int, default=8, help="re-deals per searched decision")
    parser.add_argument("--deals", type=int, default=10)
    args = parser.parse_args(argv)
    print(measured_code())
    game = rams_env.make_game(args.game, args.players, preset=args.preset)
    searcher = Searcher.teacher(game, args.style, args.worlds, np.random.default_rng(0))
    actions = []
    start = os.times()
    for deal in range(args.deals):
        state = game.new_state(np.random.default_rng(deal), None)
        agents = searcher.scripted([deal * 10 + seat for seat in range(args.players)])
        while not state.terminal:
            actions.append(searcher.improved(state, agents))
            game.apply(state, actions[-1])
    end = os.times()
    seconds = (end.user - start.user) + (end.system - start.system)
    print(f"{args.game} {args.preset} {args.players}p, {args.worlds} worlds: {searcher.decisions} searched decisions "
          f"of {len(actions)} in {seconds:.2f} CPU-s, {seconds / max(1, searcher.decisions):.4f} s each; actions "
          f"{hashlib.sha256(str(actions).encode()).hexdigest()[:16]}")


if __name__ == "__main__":
    main()
