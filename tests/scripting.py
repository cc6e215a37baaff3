"""Scripted positions for the rule scenarios: moves written as ``"seat:label"``, checked turn by turn.

Labels with a space are written with an underscore (``bid_3``, ``discard_7c``); a label that has
an underscore of its own (``play_on``) is taken as it is.
"""

from __future__ import annotations

from rams_env.core.actions import UnknownActionLabel


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
