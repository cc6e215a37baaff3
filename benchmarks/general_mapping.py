"""What mapping a batch into the general space costs (rams_env/core/general.py), beside a step of the batched engine.

For each table: CPU µs per call on ``--rows`` rows of ``Table.obs`` (a new array, and into a reused buffer; beside
its numpy path, which the compiled pass of general_kernel.py replaces where numba is installed, and numpy's
fancy-index scatter ``out[..., obs_index] = obs`` alone, which the numpy path does as strided block copies),
``Table.mask`` and ``Table.native_actions``, and of one ``step`` of the batched engine on as many deals of that
table in the same run (the ratio is the figure to compare; absolute µs move with the machine).

    python benchmarks/general_mapping.py                      # toepen:3 toepen:8 tippen:4 mauscheln:10
    python benchmarks/general_mapping.py --rows 48 toepen:4   # the batched trainer's deals per table
    python benchmarks/general_mapping.py --seconds 2 lupfen:6
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from evaluation.throughput import cpu_seconds, measured_code, pin_one_core
from rams_env.core.general import GeneralSpace

DEFAULT = ("toepen:3", "toepen:8", "tippen:4", "mauscheln:10")


def us_per_call(call: Callable[[], object], seconds: float) -> float:
    call()
    calls, start = 0, cpu_seconds()
    while (spent := cpu_seconds() - start) < seconds:
        call()
        calls += 1
    return spent / calls * 1e6


def measure(game: str, n: int, rows: int, seconds: float) -> dict[str, float]:
    import rams_env.vector as vector

    preset = {"mauscheln": "large_table"}.get(game) if n > 5 else None
    env = vector.make(game, num_envs=rows, num_players=n, preset=preset)
    table = GeneralSpace(game).table(env.game)
    obs, mask, _ = env.reset(seed=0)
    obs, mask = obs.copy(), mask.astype(bool)
    out = table.obs(obs)
    chosen = table.action_of_native[mask.argmax(1)]
    compiled, table.compiled = table.compiled, None
    numpy_path = us_per_call(lambda: table.obs(obs, out=out), seconds)
    table.compiled = compiled
    return {
        "obs (new)": us_per_call(lambda: table.obs(obs), seconds),
        "obs (into out)": us_per_call(lambda: table.obs(obs, out=out), seconds),
        "obs, numpy path (into out)": numpy_path,
        "fancy-index scatter": us_per_call(lambda: out.__setitem__((..., table.obs_index), obs), seconds),
        "mask": us_per_call(lambda: table.mask(mask), seconds),
        "native_actions": us_per_call(lambda: table.native_actions(chosen), seconds),
        "engine step_random": us_per_call(env.step_random, seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tables", nargs="*", default=DEFAULT, help="game:players")
    parser.add_argument("--rows", type=int, default=1024, help="rows per call (deals of the batched engine)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    args = parser.parse_args()
    print(measured_code(), flush=True)
    pin_one_core()
    for spec in args.tables:
        game, n = spec.split(":")
        row = measure(game, int(n), args.rows, args.seconds)
        step = row["engine step_random"]
        cells = ", ".join(f"{name} {us:.0f} µs ({us / step:.2f}x a step)" for name, us in row.items())
        print(f"{spec} per {args.rows} rows: {cells}")


if __name__ == "__main__":
    main()
