"""Where a measured deal starts: a session's first deal, or random carried-over state (lives, a pot, a race).

A single-deal measurement starts each deal somewhere. Fresh, every deal is a session's first; at most tables that is
a deal like any other, but not at every table: Lupfen's first deal has an empty pot, so it is a force round where nobody
chooses to play, and Fipsen's Thedinghausen is a race to ten tricks over several deals whose first deal pays only on
a fipsen call. The rules say which (``Game.measured_mid_session``), and every measuring command deals as they say by
default (``gate``, the strength gate's convention), or every table one way (``fresh``, ``random``).
"""

from __future__ import annotations

import argparse

CARRY = ("gate", "fresh", "random")
"""``gate``: from random carried-over state where the table's first deal is not the game, fresh elsewhere;
``fresh``: a session's first deal everywhere; ``random``: random carried-over state everywhere."""


def check_carry(carry: str) -> None:
    """``carry`` must be one of :data:`CARRY` (a plan built in Python gets the message the CLI's choices would)."""
    if carry not in CARRY:
        raise ValueError(f"carry={carry!r}: one of {', '.join(CARRY)}")


def starts_carried(game, carry: str, session: bool = False) -> bool:
    """Whether ``carry`` starts deals of ``game`` (a rams Game) from random carried-over state. ``session``: an
    episode is a whole session, whose first deal belongs to it, so ``gate`` starts it fresh."""
    check_carry(carry)
    return carry == "random" or (carry == "gate" and not session and game.measured_mid_session)


def add_carry_option(parser: argparse.ArgumentParser) -> None:
    """``--carry`` (default ``gate``) and ``--random-carry``, its older spelling of ``--carry random``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--carry", choices=CARRY, default="gate",
                       help="where deals start: gate (default) from random carried-over state where a session's first "
                            "deal is not the game (every Lupfen table: a force round; Fipsen's Thedinghausen: a race "
                            "over deals) and fresh elsewhere, as the strength gate deals; fresh: a session's first "
                            "deal everywhere; random: random carried-over lives / pot / race everywhere")
    group.add_argument("--random-carry", dest="carry", action="store_const", const="random", default=argparse.SUPPRESS,
                       help="the same as --carry random")
