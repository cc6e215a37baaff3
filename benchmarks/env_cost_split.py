"""Where a decision's time goes: rules / observation encoding / AEC bookkeeping / wrapper, µs per decision.

Four loops of uniform random play in one process, pinned to one core, on the CPU clock:
``make()`` (what users get), ``raw_env()`` (the env unwrapped), the engine alone
(``legal_actions`` + ``apply``, dealing included) and the engine plus one observation and mask
per decision. rules = engine; encoding = engine with observations - engine; AEC = raw env -
engine with observations (agent_iter/last/step, rewards, finished agents' observations);
wrapper = make() - raw env. Differences of noisy timings: compare rows of one run.

    python benchmarks/env_cost_split.py                     # the default games and sizes, 1.5 CPU-s per loop
    python benchmarks/env_cost_split.py --seconds 3 toepen:3 toepen:8
"""

from __future__ import annotations

import argparse

import numpy as np

import rams_env
from evaluation.throughput import cpu_seconds, measured_code, pin_one_core, preset_for, random_play
from rams_env.core.observation import OBS_DTYPE
from rams_env.factory import raw_env

DEFAULT = ("toepen:3", "toepen:4", "toepen:8", "mauscheln:4", "lupfen:4", "tippen:4", "fipsen:4")


def engine_us(game, seconds: float, observe: bool) -> float:
    """µs per decision of random play on the Game alone (with one observation per decision if asked)."""
    choice, deals = np.random.default_rng(0), np.random.default_rng(0)
    decisions, start = 0, cpu_seconds()
    while cpu_seconds() - start < seconds:
        state = game.new_state(deals, None, random_carry=True)
        while not state.terminal:
            legal = game.legal_actions(state)
            if observe:
                game.encode(state, state.to_act, np.zeros(game.observation.size, dtype=OBS_DTYPE))
                np.zeros(game.actions.size, dtype=np.int8)[legal] = 1
            game.apply(state, legal[choice.integers(len(legal))])
            decisions += 1
    return 1e6 * (cpu_seconds() - start) / decisions


def split(game: str, n: int, seconds: float) -> dict[str, float]:
    """The four loops of one game and table size, with the preset the other benchmarks take for it
    (``preset_for``: the default if it seats ``n`` players, else the first that does, as Fipsen 5p needs)."""
    preset = preset_for(game, n)
    wrapped = 1e6 / random_play(rams_env.make(game, n, preset=preset, random_carry=True), seconds)[0]
    raw = 1e6 / random_play(raw_env(game, n, preset=preset, random_carry=True), seconds)[0]
    engine = raw_env(game, n, preset=preset).game
    rules, observed = engine_us(engine, seconds, False), engine_us(engine, seconds, True)
    return {"total": wrapped, "rules": rules, "encoding": observed - rules, "aec": raw - observed,
            "wrapper": wrapped - raw}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", default=list(DEFAULT), help="game:players (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=1.5, help="CPU-seconds per loop (default 1.5)")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    pin_one_core()
    print("| game | players | total | rules | encoding | AEC | wrapper |  (µs per decision)")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for case in args.cases:
        game, n = case.split(":")
        r = split(game, int(n), args.seconds)
        print(f"| {game} | {n} | {r['total']:.1f} | {r['rules']:.1f} | {r['encoding']:.1f} | {r['aec']:.1f} | "
              f"{r['wrapper']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
