"""Environment throughput: random legal play, decisions/s and deals/s, beside PettingZoo peers.

Every registered rams game (default rules, or every preset with ``--presets``) and
PettingZoo's classic ``texas_holdem_v4`` and ``leduc_holdem_v4`` are timed by the same
loop in the same process, interleaved over several rounds; the table reports medians
and the ratio of each environment to ``texas_holdem_v4``. The machines are shared and
noisy: quote ratios, not absolute times.

    python benchmarks/env_throughput.py                 # default rules, 3 rounds of ~2 s each
    python benchmarks/env_throughput.py --presets --seconds 1
    python benchmarks/env_throughput.py --json results.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable

import rams_env
from rams_env.registry import GAMES, game_class
from training.throughput import random_play

PEERS = {
    "texas_holdem_v4": "pettingzoo.classic.texas_holdem_v4",
    "leduc_holdem_v4": "pettingzoo.classic.leduc_holdem_v4",
}
BASELINE = "texas_holdem_v4"


def contenders(presets: bool, players: int | None) -> dict[str, Callable[[], object]]:
    """Name -> environment constructor, peers first."""
    import importlib

    out: dict[str, Callable[[], object]] = {}
    for name, module in PEERS.items():
        out[name] = importlib.import_module(module).env
    for game in GAMES:
        cls = game_class(game)
        names = cls.rules_type.preset_names() if presets else (cls.rules_type.DEFAULT_PRESET,)
        for preset in names:
            label = game if not presets else f"{game}:{preset}"
            # random_carry: deals from random carried-over state (lives, pot), not only a session's first
            out[label] = lambda g=game, p=preset: rams_env.make(g, players, preset=p, random_carry=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per environment per round (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported (default 3)")
    parser.add_argument("--presets", action="store_true", help="time every preset of every game")
    parser.add_argument("--players", type=int, default=None, help="table size for rams games (default: each game's)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)

    envs = {name: make() for name, make in contenders(args.presets, args.players).items()}
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
    for round_ in range(args.rounds):
        for name, env in envs.items():
            samples[name].append(random_play(env, args.seconds, seed=1000 * round_))
    results = {}
    for name, runs in samples.items():
        results[name] = {
            "decisions_per_s": statistics.median(r[0] for r in runs),
            "deals_per_s": statistics.median(r[1] for r in runs),
        }
    base = results[BASELINE]["decisions_per_s"]
    print(f"{'environment':34} {'decisions/s':>12} {'deals/s':>10} {'vs ' + BASELINE:>22}")
    for name, r in results.items():
        r["ratio_vs_" + BASELINE] = r["decisions_per_s"] / base
        print(f"{name:34} {r['decisions_per_s']:12.0f} {r['deals_per_s']:10.1f} {r['ratio_vs_' + BASELINE]:21.2f}x")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
    return results


if __name__ == "__main__":
    main()
