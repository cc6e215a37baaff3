"""What the server sends a connection: built only from what that seat may know.

A person's message is made of her seat's view (``Game.view``: the same information as her observation), her
legal moves when it is her turn, the public log (other players' moves by their public labels: a face-down
discard names no card), the last trick, the scores and each finished deal's settlement. Nothing is read from
the hidden parts of the state, so two positions that differ only in cards she cannot see give the same message
(tests/test_web_server.py swaps hidden cards and compares). Seats are relative to the viewer: index 0 is her
own, then clockwise, as in the view. A spectator (a table of agents only) and a replay show every card.
"""

from __future__ import annotations

from typing import Any

from agents.breakdown import breakdown_lines
from rams_env.core.game import Game
from rams_env.records import card_places
from web.table import Event, LiveTable


def rotated(values: list[Any], seat: int) -> list[Any]:
    """Per-seat ``values`` in ``seat``'s relative order (her own first)."""
    n = len(values)
    return [values[(seat + r) % n] for r in range(n)]


def relative(seat: int | None, viewer: int, n: int) -> int | None:
    return None if seat is None else (seat - viewer) % n


def card_of(game: Game, label: str) -> str | None:
    """The card an action label names (``Ah``, ``discard Ah``), else None."""
    last = label.split()[-1] if label else ""
    return last if last in game.pack().codes else None


def legal_moves(game: Game, legal: list[int]) -> list[dict[str, Any]]:
    """The moves a seat may make now: label, kind (its action segment), what it means, the card it names."""
    moves = []
    for action in legal:
        name, _ = game.actions.segment(action)
        label = game.actions.label(action)
        doc = next(seg.doc for seg in game.actions.segments if seg.name == name)
        moves.append({"label": label, "kind": str(name), "doc": doc, "card": card_of(game, label)})
    return moves


def event_text(game: Game, event: Event, viewer: int | None, names: list[str]) -> str:
    """An event as the viewer saw it (None: a spectator, who sees every card)."""
    if event.note is not None:
        return f"\u2014 {event.note} \u2014"
    if event.trick is not None:
        cards = ", ".join(f"{card}" for _, card in event.trick)
        return f"{names[event.seat]} takes the trick ({cards})"
    own = viewer is None or event.seat == viewer
    shown = game.actions.label(event.action) if own else game.actions.public_label(event.action)
    return f"{names[event.seat]}: {shown}"


def settlement_message(table: LiveTable, viewer: int) -> dict[str, Any] | None:
    done = table.settlement
    if done is None:
        return None
    n = table.game.num_players
    return {"number": done.number, "result": rotated(done.result, viewer), "scores": rotated(done.scores, viewer),
            "lines": breakdown_lines(done.breakdown, n, table.names), "reason": done.breakdown.get("reason")}


def table_message(table: LiveTable, viewer: int | None) -> dict[str, Any]:
    """The message for a connection at ``table`` as seat ``viewer`` (None: a spectator, every card open)."""
    game, state = table.game, table.state
    n = game.num_players
    seat = 0 if viewer is None else viewer
    settled = table.settlement
    view = settled.views[seat] if settled is not None else game.view(state, seat)
    mine = viewer is not None and table.waiting_for_person()
    message = {
        "type": "table", "setup": table.setup, "seat": seat, "spectator": viewer is None,
        "names": rotated(table.names, seat), "view": view,
        "to_act": None if settled is not None else relative(state.to_act, seat, n),
        "legal": legal_moves(game, game.legal_actions(state)) if mine else [],
        "log": [{"seat": None if e.note else relative(e.seat, seat, n),
                 "text": event_text(game, e, viewer, table.names)} for e in table.events],
        "last_trick": [[relative(s, seat, n), card] for s, card in table.last_trick or ()],
        "scores": rotated(settled.scores if settled is not None else list(state.scores), seat),
        "deals_played": state.deals_played, "session_over": state.terminal,
        "settlement": settlement_message(table, seat),
    }
    if viewer is None:  # a table of agents: every card is shown
        message["open"] = settled.cards if settled is not None else card_places(game, state)
    return message
