"""A deal record as frames for the page's replay: every position of the record, every card open.

The record is replayed through the engine (rams_env/records.py checks it on the way: a tampered record gives
one RecordError and no frames), so what the page steps through is what the engine did, not what the file says.
"""

from __future__ import annotations

from typing import Any

from agents.breakdown import breakdown_lines
from rams_env import records
from rams_env.core.game import Game, State
from web.table import describe

MAX_FRAMES = 20_000
"""A bound on what one upload makes the server build (records.MAX_ACTIONS bounds the engine's work)."""


def frame(game: Game, state: State, title: str, **extra: Any) -> dict[str, Any]:
    """One position: every card place, the table as seat 0 sees it (relative = absolute seats), the scores."""
    return {"title": title, "open": records.card_places(game, state), "view": game.view(state, 0),
            "scores": list(state.scores), **extra}


def frames(record: dict[str, Any]) -> dict[str, Any]:
    """The replay of ``record``: the table's names and rules, and a frame before every action and after every
    deal (its settlement). Raises records.RecordError."""
    records.check_shape(record)
    game = records.make_game(record)
    n = game.num_players
    names = record.get("players") if _names_ok(record.get("players"), n) else [f"player_{s}" for s in range(n)]
    out: list[dict[str, Any]] = []

    def settled(state: State) -> None:
        lines = breakdown_lines(state.breakdown, n, names)
        out.append(frame(game, state, f"deal {state.deals_played} settled", settlement=lines,
                         result=list(state.deal_results[-1])))

    for position in records.positions(record, game, settled):
        label = game.actions.label(position.action)
        out.append(frame(game, position.state, f"deal {position.deal + 1}, move {position.step + 1}: "
                                               f"{names[position.seat]} {label}", seat=position.seat, action=label))
        if len(out) > MAX_FRAMES:
            raise records.RecordError(f"record: more than {MAX_FRAMES} positions")
    return {"type": "replay", "setup": describe(game, record["preset"], True), "names": names, "frames": out}


def _names_ok(names: Any, n: int) -> bool:
    return isinstance(names, list) and len(names) == n and all(isinstance(x, str) and len(x) < 80 for x in names)
