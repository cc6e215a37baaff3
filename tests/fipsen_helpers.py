"""Scripted Fipsen tables shared by tests/test_fipsen*.py (scenarios from 001_f2515c7741548cc2.txt).

A scenario stacks the deal (hands, then the turn-up or skat on top of the stock), then plays a script of
``seat:label`` moves, each checked against the player to act, so a test reads like the source's example.
"""

from __future__ import annotations

import rams_env
from tests.scripting import dealt, legal, play  # noqa: F401  (re-exported for the variant files)


def rest(variant: str, hands: list[str], first: str = "") -> list[str]:
    """A stock: ``first`` cards on top, then every other card of the variant's pack."""
    pack = rams_env.make_game("fipsen", preset=variant).pack().codes
    used = set(" ".join(hands).split()) | set(first.split())
    return first.split() + [c for c in pack if c not in used]


def table(variant: str, hands: list[str], first: str = "", dealer: int | None = None, **carry):
    """An env dealt ``hands`` (seat order) with ``first`` on top of the stock; ``carry`` adds reset options
    (race, pot). The dealer defaults to the last seat, so player_0 is forehand."""
    dealer = len(hands) - 1 if dealer is None else dealer
    return dealt("fipsen", hands, dealer, {"stock": rest(variant, hands, first)}, carry, variant=variant)


def lead_out(env, leads: str) -> None:
    """player_0 leads each card of ``leads`` (space-separated) and the others follow with their first legal card."""
    raw = env.unwrapped
    for lead in leads.split():
        play(env, f"0:{lead}")
        for _ in range(raw.game.num_players - 1):
            env.step(raw.legal_actions()[0])
