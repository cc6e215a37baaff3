"""Environment throughput: random legal play, decisions per CPU-second, beside PettingZoo peers.

Every registered rams game at table sizes 3, 4, 6 and 8 (where some preset allows it: the
default rules when they do, else the first preset that does) and PettingZoo's classic
``texas_holdem_v4`` and ``leduc_holdem_v4`` are driven by the same loop in the same
process: the loop their users write (``reset(seed=...)`` once, then ``reset()`` for each
further episode; ``agent_iter`` / ``last`` / ``step``), through each library's public
``env()`` / ``rams_env.make``. Time is the CPU time of this process (``os.times``), pinned
to one core, so other work on a shared machine does not count; contenders are interleaved
over several rounds and the table reports medians and the ratios to both peers.

    python benchmarks/env_throughput.py                        # 3 rounds of ~2 CPU-s each
    python benchmarks/env_throughput.py --seconds 1 --sizes 4 8
    python benchmarks/env_throughput.py --json results.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
from collections.abc import Callable

import rams_env
from evaluation.throughput import measured_code, pin_one_core, preset_for, random_play
from rams_env.registry import GAMES, game_class

PEERS = {
    "texas_holdem_v4": "pettingzoo.classic.texas_holdem_v4",
    "leduc_holdem_v4": "pettingzoo.classic.leduc_holdem_v4",
}
SIZES = (3, 4, 6, 8)


def contenders(sizes: tuple[int, ...]) -> dict[str, Callable[[], object]]:
    """Name -> environment constructor, peers first."""
    out: dict[str, Callable[[], object]] = {name: importlib.import_module(module).env
                                            for name, module in PEERS.items()}
    for game in GAMES:
        default = game_class(game).rules_type.DEFAULT_PRESET
        for n in sizes:
            preset = preset_for(game, n)
            if preset is None:
                continue
            label = f"{game} {n}p" + ("" if preset == default else f" ({preset})")
            # random_carry: deals from random carried-over state (lives, pot), not only a session's first
            out[label] = lambda g=game, p=preset, k=n: rams_env.make(g, k, preset=p, random_carry=True)
    return out


def measure(sizes: tuple[int, ...], seconds: float, rounds: int) -> dict[str, dict[str, float]]:
    envs = {name: make() for name, make in contenders(sizes).items()}
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
    for round_ in range(rounds):
        for name, env in envs.items():
            samples[name].append(random_play(env, seconds, seed=1000 * round_))
    results = {}
    for name, runs in samples.items():
        rate = statistics.median(r[0] for r in runs)
        results[name] = {"decisions_per_cpu_s": rate, "deals_per_cpu_s": statistics.median(r[1] for r in runs),
                         "us_per_decision": 1e6 / rate}
    for r in results.values():
        for peer in PEERS:
            r["ratio_vs_" + peer] = r["decisions_per_cpu_s"] / results[peer]["decisions_per_cpu_s"]
    return results


def table(results: dict[str, dict[str, float]]) -> str:
    head = f"| environment | decisions/CPU-s | µs/decision | deals/CPU-s | {' | '.join('vs ' + p for p in PEERS)} |"
    rows = [head, "| --- | ---: | ---: | ---: |" + " ---: |" * len(PEERS)]
    for name, r in results.items():
        ratios = " | ".join(f"{r['ratio_vs_' + p]:.2f}x" for p in PEERS)
        rows.append(f"| {name} | {r['decisions_per_cpu_s']:,.0f} | {r['us_per_decision']:.1f} | "
                    f"{r['deals_per_cpu_s']:,.0f} | {ratios} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU-seconds per environment per round (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported (default 3)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="rams table sizes (default 3 4 6 8)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    core = pin_one_core()
    results = measure(tuple(args.sizes), args.seconds, args.rounds)
    print(f"pinned to core {core}; {args.rounds} rounds of {args.seconds} CPU-s; medians")
    print(table(results))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
    return results


if __name__ == "__main__":
    main()
