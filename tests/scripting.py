"""Scripted positions for the rule scenarios: a stacked deal, then moves written as ``"seat:label"``, checked
turn by turn.

Labels with a space are written with an underscore (``bid_3``, ``discard_7c``); a label that has
an underscore of its own (``play_on``) is taken as it is.
"""

from __future__ import annotations

import rams_env
from rams_env.core.actions import UnknownActionLabel


def dealt(game: str, hands: list[str], dealer: int, deal: dict | None = None, options: dict | None = None,
          n: int | None = None, **rules):
    """An env of ``game`` dealt ``hands`` (seat order, cards separated by spaces) with ``dealer``: (env, raw env).
    ``deal`` adds to the deal (turned card, stock), ``options`` to the reset options (pot, lives lost, race)."""
    env = rams_env.make(game, n or len(hands), **rules)
    stacked = {"hands": [h.split() for h in hands], **(deal or {})}
    env.reset(seed=0, options={"deal": stacked, "dealer": dealer, **(options or {})})
    return env, env.unwrapped


def pot_table(game: str, hands: list[str], dealer: int, pot: int = 0, turned: str | None = None,
              stock: str | None = None, n: int | None = None, **rules):
    """A pot game dealt ``hands``, ``turned`` face up and ``stock`` (cards by space) below; every bankroll starts
    at 0, so the chips a test reads are exactly the deal's payments."""
    deal = {"turned": turned} if turned else {}
    if stock:
        deal["stock"] = stock.split()
    return dealt(game, hands, dealer, deal, {"pot": pot, "bankrolls": [0] * len(hands)}, n, **rules)


def action(raw, label: str) -> int:
    """The action id of a scripted label (underscore for space where the label has no underscore)."""
    try:
        return raw.action_id(label)
    except UnknownActionLabel:
        return raw.action_id(label.replace("_", " "))


def play(env, moves: str) -> None:
    """Step ``seat:label`` moves, asserting each is made by the player whose turn it is."""
    raw = env.unwrapped
    for move in moves.split():
        seat, label = move.split(":")
        assert raw.game_state.to_act == int(seat), f"player_{raw.game_state.to_act} to act, script says {seat}"
        env.step(action(raw, label))


def legal(raw) -> list[str]:
    """The legal action labels of the player to act, sorted."""
    return sorted(raw.legal_labels())


def chips(raw) -> list[int]:
    """Every seat's bankroll: the net chips since the deal started (scenarios start bankrolls at 0)."""
    return list(raw.game_state.ledger.bankrolls)
