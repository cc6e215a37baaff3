"""Scripted players' decisions per CPU-second: every seat a heuristic style, whole deals on the Python engine.

Why: a scripted seat in training (``batched.scripted``, Python-engine slots) or in an evaluation
(``rams strength``, the trainer's match) costs one heuristic decision each, and in the pot games that
decision, not the engine, is most of the time. This counts decisions (the engine's ``apply`` included,
as the deal loop plays them) per CPU-second of this process (``os.times()``), per game and preset,
styles taking turns by seat, deals from random carried-over session states as the trainer deals them.

    taskset -c 0 python benchmarks/heuristic_throughput.py --games fipsen --deals 300
    python benchmarks/heuristic_throughput.py --games tippen lupfen --presets all

To compare two versions of the code, run the script from each checkout in turn, several times, and
take the ratio of the medians (the machines are shared: absolute figures drift).
"""

from __future__ import annotations

import argparse
import os

import numpy as np

from agents.registry import agent_factories
from agents.table import play
from evaluation.strength import scripted_opponents
from evaluation.throughput import measured_code
from rams_env.registry import GAMES, game_class, make_game


def decisions_per_cpu_second(game_name: str, preset: str | None, deals: int) -> tuple[float, int]:
    """(decisions per CPU-second, decisions) over ``deals`` deals at 4 players (or the preset's smallest table)."""
    game = _game(game_name, preset)
    specs = scripted_opponents(game_name)[1:]  # the heuristic's styles, without random
    factories = agent_factories(specs, game)
    agents = [factories[specs[seat % len(specs)]](seat) for seat in range(game.num_players)]
    start, decisions = os.times(), 0
    for deal in range(deals):
        for seat, agent in enumerate(agents):
            agent.reset(deal * game.num_players + seat)
        state = game.new_state(np.random.default_rng(deal), None, random_carry=True)
        decisions += play(game, state, agents)
    end = os.times()
    cpu = (end.user - start.user) + (end.system - start.system)
    return decisions / max(cpu, 1e-9), decisions


def _game(game_name: str, preset: str | None):
    """The preset's game at 4 players if its rules allow 4, else at the smallest size they allow."""
    lo, hi = make_game(game_name, preset=preset).player_range()
    return make_game(game_name, 4 if lo <= 4 <= hi else lo, preset=preset)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=sorted(GAMES), default=sorted(GAMES))
    parser.add_argument("--presets", choices=["default", "all"], default="default",
                        help="the default rules only, or every preset of each game")
    parser.add_argument("--deals", type=int, default=200, help="deals per game and preset (default 200)")
    args = parser.parse_args()
    print(measured_code(), flush=True)
    print("| game | preset | decisions | decisions / CPU-s |")
    print("| --- | --- | ---: | ---: |")
    for name in args.games:
        rules = game_class(name).rules_type
        presets = [rules.DEFAULT_PRESET] if args.presets == "default" else rules.preset_names()
        for preset in presets:
            rate, count = decisions_per_cpu_second(name, preset, args.deals)
            print(f"| {name} | {preset} | {count:,} | {rate:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
