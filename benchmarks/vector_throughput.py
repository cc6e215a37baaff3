"""Batched engine throughput: decisions per CPU-second on one core, beside the AEC env and texas hold'em.

Every contender runs in this process, pinned to one core, timed by ``os.times()`` (the CPU
time of this process: other programs on the machine do not count), interleaved over rounds;
medians are reported with ratios to ``texas_holdem_v4`` from the same run. The batched engine
is timed with actions from outside (a uniformly random legal action per deal chosen with numpy
from the mask, inside the timed loop, as a user's policy would) and with the random choice
inside the kernel; the AEC env (``rams_env.make``) and PettingZoo's ``texas_holdem_v4`` are
seeded once and then ``reset()`` per episode, PettingZoo's usual loop.

    python benchmarks/vector_throughput.py                  # B = 1024, Toepen 4p; B and table sweeps
    python benchmarks/vector_throughput.py --seconds 2 --rounds 5 --json results.json
    python benchmarks/vector_throughput.py --compile        # also cold and warm start-up times
    python benchmarks/vector_throughput.py --game mauscheln --tables 3 4 5     # another batched game
    python benchmarks/vector_throughput.py --game mauscheln --preset large_table --tables 6 8 10
    python benchmarks/vector_throughput.py --games lupfen tippen --sizes 1024 --tables 4   # others, every table size
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rams_env  # noqa: E402
import rams_env.registry  # noqa: E402
import rams_env.vector as vector  # noqa: E402
from evaluation.throughput import cpu_seconds, measured_code, preset_for, random_play  # noqa: E402

BASELINE = "texas_holdem_v4"


def random_legal(mask: np.ndarray, rng: np.random.Generator, noise: np.ndarray) -> np.ndarray:
    """A uniformly random legal action per row: the largest of uniform noise lifted by 1 where legal."""
    rng.random(out=noise, dtype=np.float32)
    noise += mask
    return noise.argmax(axis=1)


def batched(num_envs: int, players: int, inside: bool, game: str = "toepen",
            preset: str | None = None) -> Callable[[float], float]:
    """A timer of a batched game: decisions per CPU-second for about ``seconds``."""
    env = vector.make(game, num_envs=num_envs, num_players=players, preset=preset)
    _, mask, _ = env.reset(seed=1)
    env.step(env.sample_actions())
    env.step_random()
    rng = np.random.default_rng(1)
    noise = np.empty(mask.shape, np.float32)

    def timed(seconds: float) -> float:
        steps, start = 0, cpu_seconds()
        while cpu_seconds() - start < seconds:
            if inside:
                env.step_random()
            else:
                env.step(random_legal(env.mask, rng, noise))
            steps += 1
        return steps * num_envs / (cpu_seconds() - start)
    return timed


def aec(make: Callable[[], object]) -> Callable[[float], float]:
    """A timer of an AEC env: evaluation/throughput.py's loop (seeded once, ``reset()`` per episode)."""
    env, rounds = make(), iter(range(1, 10**6))
    return lambda seconds: random_play(env, seconds, seed=next(rounds), clock=cpu_seconds)[0]


def other_games(games: list[str], swept: str) -> dict[str, Callable[[float], float]]:
    """Each batched game of ``games`` but ``swept`` (timed by :func:`contenders`): its AEC env at 4 players, its
    batched engine at B = 1024 at every table size some preset seats (the default preset where it does:
    training/throughput.preset_for)."""
    out = {}
    for game in games:
        if game == swept:
            continue
        out[f"rams_env.make {game} 4p"] = aec(lambda game=game: rams_env.make(game, 4))
        rules = rams_env.registry.game_class(game).rules_type
        for n in range(2, 11):
            preset = preset_for(game, n)
            if preset is None:
                continue
            label = f"vector {game} {n}p" + ("" if preset == rules.DEFAULT_PRESET else f" ({preset})")
            for inside in (False, True):
                out[f"{label} B=1024 {'inside' if inside else 'outside'}"] = batched(1024, n, inside, game, preset)
    return out


def contenders(sizes: list[int], tables: list[int], game: str = "toepen",
               preset: str | None = None) -> dict[str, Callable[[float], float]]:
    from pettingzoo.classic import texas_holdem_v4

    first = 4 if 4 in tables or not tables else tables[0]
    out = {BASELINE: aec(texas_holdem_v4.env),
           f"rams_env.make {game} {first}p": aec(lambda: rams_env.make(game, first, preset=preset))}
    for b in sizes:
        for inside in (False, True):
            out[f"vector {game} {first}p B={b} {'inside' if inside else 'outside'}"] = batched(
                b, first, inside, game, preset)
    for n in tables:
        if n != first:
            for inside in (False, True):
                out[f"vector {game} {n}p B=1024 {'inside' if inside else 'outside'}"] = batched(
                    1024, n, inside, game, preset)
    return out


START_UP = """
import os, time
t = os.times(); w = time.perf_counter()
import rams_env.vector as vector
env = vector.make("toepen", num_envs=64, num_players=4)
env.reset(seed=0); env.step(env.sample_actions()); env.step_random(); env.observe(0)
t2 = os.times()
print(time.perf_counter() - w, t2.user + t2.system - t.user - t.system)
"""


def start_up_times() -> dict[str, dict[str, float]]:
    """Wall and CPU seconds to import, build, reset and step: cold (empty numba cache) and warm."""
    out = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        for label in ("cold", "warm"):
            text = subprocess.run([sys.executable, "-c", START_UP], env=env, capture_output=True, text=True,
                                  check=True).stdout.split()
            out[label] = {"wall_s": float(text[0]), "cpu_s": float(text[1])}
    return out


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per contender per round (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians reported (default 3)")
    parser.add_argument("--game", default="toepen", choices=list(vector.GAMES), help="batched game (default toepen)")
    parser.add_argument("--preset", default=None, help="the game's rule preset (default: its standard rules)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096],
                        help="batch sizes (4p, or the first table size without 4)")
    parser.add_argument("--tables", type=int, nargs="+", default=[3, 4, 5, 6, 7, 8], help="table sizes (B=1024)")
    parser.add_argument("--games", nargs="*", default=list(vector.GAMES), choices=list(vector.GAMES),
                        help="the other batched games to time at B = 1024 and every table size a preset seats "
                             "(default: all; none: --games with no name)")
    parser.add_argument("--core", type=int, default=None, help="the core to pin to (default: the last one)")
    parser.add_argument("--compile", action="store_true", help="also time start-up with a cold and a warm cache")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)

    core = max(os.sched_getaffinity(0)) if args.core is None else args.core
    os.sched_setaffinity(0, {core})
    timers = {**contenders(args.sizes, args.tables, args.game, args.preset), **other_games(args.games, args.game)}
    samples: dict[str, list[float]] = {name: [] for name in timers}
    for _ in range(args.rounds):
        for name, timed in timers.items():
            samples[name].append(timed(args.seconds))
    base = statistics.median(samples[BASELINE])
    results: dict = {"core": core, "rates": {}}
    print(f"one core ({core}), decisions per CPU-second, median of {args.rounds} rounds, same run")
    print(f"| {'contender':46} | {'decisions/s':>12} | {'vs texas':>9} | {'ns/decision':>11} |")
    print(f"| {'-' * 46} | {'-' * 12} | {'-' * 9} | {'-' * 11} |")
    for name, runs in samples.items():
        rate = statistics.median(runs)
        results["rates"][name] = {"decisions_per_s": rate, "ratio_vs_texas": rate / base}
        print(f"| {name:46} | {rate:12,.0f} | {rate / base:8.1f}x | {1e9 / rate:11.0f} |")
    if args.compile:
        results["start_up"] = start_up_times()
        for label, t in results["start_up"].items():
            print(f"start-up, {label} numba cache: {t['wall_s']:.1f} s wall, {t['cpu_s']:.1f} s CPU")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
