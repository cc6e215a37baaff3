"""The text table every game renders (``Game.render``): a header, one line per player, the trick.

A game supplies its header and what it says about each player between the marks and the
tricks won (lives, a bid and a bankroll, a score); the rest is written here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rams_env.core.cards import codes
from rams_env.core.observation_core import label


def deal_over(state: Any) -> bool:
    """The deal is settled: the episode's end, or a session's deal as ``Game.apply``'s ``settled`` hook sees it
    (before the next is dealt), which ``rams play`` shows as the deal's last table."""
    return state.deal_over or state.terminal


def deal_number(state: Any) -> int:
    """The deal under way (or the last one, once it is settled), counted from 1."""
    return state.deals_played + (0 if deal_over(state) else 1)


def status(state: Any) -> str:
    return "over" if deal_over(state) else f"phase {label(state.phase)}"


def seat_marks(state: Any, s: int) -> str:
    """`` D`` for the dealer, `` *`` for the player to act (nobody once the deal is settled)."""
    return (" D" if s == state.dealer else "") + (" *" if s == state.to_act and not deal_over(state) else "")


def pot_player(width: int) -> Callable[[Any, Any, int], str]:
    """The pot games' line middle: the player's bid (``width`` wide) and bankroll."""
    return lambda game, state, s: f"{label(state.bids[s]):{width}} bankroll {state.ledger.bankrolls[s]:5}  "


def render_table(game: Any, state: Any, seat: int | None, header: str, player: Callable[[Any, Any, int], str],
                 *, shown: Callable[[int], bool] = lambda s: True, marks: Callable[[int], str] | None = None,
                 marks_width: int = 5) -> list[str]:
    """The header, a line per player (her hand if ``seat`` may see it, else ``##`` per card), the trick.

    ``player(game, state, s)`` is the line's middle (ending in its own spacing before ``tricks``);
    ``shown(s)`` whether that hand may be shown at all (a hand its holder has not looked at).
    """
    lines = [header]
    for s in range(game.num_players):
        visible = (s == seat or seat is None) and shown(s)
        held = codes(state.hands[s]) if visible else " ".join("##" for _ in state.hands[s])
        mark = marks(s) if marks else seat_marks(state, s)
        lines.append(f"  player_{s}{mark:{marks_width}} {player(game, state, s)}tricks {state.tricks_won[s]}  {held}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return lines
