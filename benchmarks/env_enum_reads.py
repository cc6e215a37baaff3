"""Where the throughput loop reads enum members from their class, per decision: the sites to bind to module names.

In CPython 3.11 a class attribute has no specialized path, and reading an enum member from its class
(``Phase.DEALER``) costs about 1,000 machine instructions, against a few dozen for a module name or a
frozenset test (see ``rams_env.core.game.StateEnum``). This plays the loop of ``env_throughput.py``
(``evaluation.throughput.random_play``, a clock counting deals) with a hook on ``EnumType.__getattribute__``
that counts those reads by the line that made them, and prints the busiest lines.

    python benchmarks/env_enum_reads.py tippen:3              # 300 deals, the 20 busiest lines
    python benchmarks/env_enum_reads.py --deals 100 --top 40 toepen:8
"""

from __future__ import annotations

import argparse
import collections
import enum
import itertools
import sys

import rams_env
from evaluation.throughput import measured_code, preset_for, random_play


def enum_reads(case: str, deals: int) -> tuple[collections.Counter, float]:
    """(reads by (file, line, function, member), decisions) over ``deals`` deals of ``case`` (``game:players``)."""
    game, n = case.split(":")
    env = rams_env.make(game, int(n), preset=preset_for(game, int(n)), random_carry=True)
    random_play(env, 5, seed=0, clock=itertools.count().__next__)  # warm-up: imports and caches settle
    reads: collections.Counter = collections.Counter()
    plain = type.__getattribute__

    def counting(cls: type, name: str):
        value = plain(cls, name)
        if isinstance(value, enum.Enum) and not name.startswith("_"):
            caller = sys._getframe(1)
            code = caller.f_code
            reads[(code.co_filename, caller.f_lineno, code.co_name, f"{cls.__name__}.{name}")] += 1
        return value

    enum.EnumType.__getattribute__ = counting
    try:
        per_deal, _ = random_play(env, deals, seed=1, clock=itertools.count().__next__)
    finally:
        del enum.EnumType.__getattribute__
    return reads, per_deal * deals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", help="game:players (e.g. tippen:3)")
    parser.add_argument("--deals", type=int, default=300, help="deals counted after a warm-up (default 300)")
    parser.add_argument("--top", type=int, default=20, help="lines shown (default 20)")
    args = parser.parse_args(argv)
    print(measured_code(), flush=True)
    reads, decisions = enum_reads(args.case, args.deals)
    print(f"{args.case}: {sum(reads.values()) / decisions:.2f} enum members read from their class a decision")
    print("| per decision | member | function | line |")
    print("| ---: | --- | --- | --- |")
    for (path, line, function, member), count in reads.most_common(args.top):
        print(f"| {count / decisions:.2f} | {member} | {function} | {path}:{line} |")


if __name__ == "__main__":
    main()
