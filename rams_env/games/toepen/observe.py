"""What a Toepen player may know: the observation layout, its encoder, the view, rendering.

All seat-indexed fields are seat-relative: index 0 is the observer, 1 the player on
her left, and so on. Nothing hidden is read: other hands, the stock's order and
face-down discards never reach the vector (tested by re-dealing unseen cards).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.cards import PIQUET_32, codes
from rams_env.encoding import put_cards, put_seat_cards, put_seat_fields, put_trick, relative_order
from rams_env.games.toepen.state import Phase, Signal, ToepenState
from rams_env.observation import Field, ObservationLayout

if TYPE_CHECKING:
    from rams_env.games.toepen.game import Toepen

CARDS = len(PIQUET_32)
PHASES = list(Phase)
MAX_REDRAWS = 8


SEAT_FIELDS: list[tuple[str, str]] = [
    ("leader", "1 for the player who leads (or led) the current trick"),
    ("to_act", "1 for the player whose decision it is"),
    ("tricks_won", "tricks won this deal / 4"),
    ("in_play", "1 if dealt in this deal and not folded"),
    ("folded", "1 if folded this deal"),
    ("out", "1 if out of the session (lost all lives, play-on variation)"),
    ("lives_lost", "lives lost in the session / lives (capped at 1)"),
    ("poor", "1 if exactly one life left (armoede)"),
    ("knocks", "knocks made this deal / 8 (capped at 1)"),
    ("last_knocker", "1 for the player who knocked last"),
    ("dealer", "1 for the dealer"),
    ("redraws", "dirty-hand redraws this deal / 8"),
    ("claimant", "1 for the player whose dirty-hand claim is open to challenge"),
    ("whistled", "1 if the player whistled (three tens, or three jacks by choice)"),
    ("stood", "1 if the player stood up (four tens, or four jacks by choice)"),
]
"""Per-player fields (seat-relative), in layout order; :func:`_seat_values` fills them."""


def _seat_values(state: ToepenState, order: list[int], lives: int) -> dict[str, list[float]]:
    """Each per-player field's values for the seats in ``order`` (observer first)."""
    leader = state.trick[0][0] if state.trick else state.leader
    return {
        "leader": [s == leader for s in order],
        "to_act": [s == state.to_act for s in order],
        "tricks_won": [state.tricks_won[s] / 4 for s in order],
        "in_play": [not (state.out[s] or state.folded[s]) for s in order],
        "folded": [state.folded[s] for s in order],
        "out": [state.out[s] for s in order],
        "lives_lost": [min(state.lives_lost[s] / lives, 1) for s in order],
        "poor": [lives - state.lives_lost[s] == 1 for s in order],
        "knocks": [min(state.knocked_by[s] / 8, 1) for s in order],
        "last_knocker": [s == state.last_knocker for s in order],
        "dealer": [s == state.dealer for s in order],
        "redraws": [min(state.redraws[s] / MAX_REDRAWS, 1) for s in order],
        "claimant": [s == state.claimant for s in order],
        "whistled": [state.signals[s] is Signal.WHISTLE for s in order],
        "stood": [state.signals[s] is Signal.STAND for s in order],
    }


def layout(n: int) -> ObservationLayout:
    """The Toepen observation for ``n`` players (sizes computed from the pack and ``n``)."""
    fields = [
        Field("hand", CARDS, "cards in the observer's hand"),
        Field("own_discards", CARDS, "the observer's own face-down cards (dirty discards, folded hand)"),
        Field("revealed", CARDS, "dirty hands turned face up by a challenge"),
        Field("trick", n * CARDS, "card each player has played to the current trick, per relative seat"),
        Field("played", n * CARDS, "every card each player has played this deal, per relative seat"),
        *[Field(name, n, doc) for name, doc in SEAT_FIELDS],
        Field("seat", n, "the observer's absolute seat, one-hot (the only absolute field)"),
        Field("phase", len(PHASES), "decision phase one-hot: " + ", ".join(p.value for p in PHASES)),
        Field("trick_number", 4, "tricks completed so far, one-hot 0..3"),
        Field("stake", 1, "lives at stake for a player who stays in and loses / lives (capped at 1)"),
        Field("stock", 1, "cards left in the stock / 32"),
    ]
    return ObservationLayout(fields, version=1)


def encode(game: Toepen, state: ToepenState, seat: int, out: np.ndarray) -> None:
    """Fill ``out`` (zeros) with what ``seat`` may know."""
    lay, n, lives = game.observation, game.num_players, game.rules.lives
    idx = PIQUET_32.index
    put_cards(out, lay.start("hand"), idx, state.hands[seat])
    put_cards(out, lay.start("own_discards"), idx, state.face_down[seat])
    put_cards(out, lay.start("revealed"), idx, state.revealed)
    put_trick(out, lay.start("trick"), idx, state.trick, seat, n)
    put_seat_cards(out, lay.start("played"), idx, state.played, seat)
    values = _seat_values(state, relative_order(seat, n), lives)
    put_seat_fields(out, lay.start(SEAT_FIELDS[0][0]), [name for name, _ in SEAT_FIELDS], values)
    out[lay.start("seat") + seat] = 1.0
    out[lay.start("phase") + PHASES.index(state.phase)] = 1.0
    out[lay.start("trick_number") + min(state.tricks_played, 3)] = 1.0
    out[lay.start("stake")] = min(state.stake / lives, 1.0)
    out[lay.start("stock")] = len(state.stock) / CARDS


def view(game: Toepen, state: ToepenState, seat: int) -> dict[str, Any]:
    """The same information as :func:`encode`, as plain Python (relative seats, card codes)."""
    n, lives = game.num_players, game.rules.lives

    def rel(s: int | None) -> int | None:
        return None if s is None else (s - seat) % n

    by_rel = [(seat + r) % n for r in range(n)]
    return {
        "seat": seat,
        "num_players": n,
        "phase": state.phase.value,
        "hand": codes(state.hands[seat]).split(),
        "own_discards": codes(state.face_down[seat]).split(),
        "revealed": codes(state.revealed).split(),
        "trick": [(rel(s), c) for s, c in ((s, codes([c])) for s, c in state.trick)],
        "played": [codes(state.played[s]).split() for s in by_rel],
        "leader": rel(state.trick[0][0] if state.trick else state.leader),
        "to_act": rel(state.to_act),
        "tricks_won": [state.tricks_won[s] for s in by_rel],
        "tricks_played": state.tricks_played,
        "in_play": [state.in_play(s) for s in by_rel],
        "folded": [state.folded[s] for s in by_rel],
        "out": [state.out[s] for s in by_rel],
        "lives": lives,
        "lives_lost": [state.lives_lost[s] for s in by_rel],
        "stake": state.stake,
        "knocks": [state.knocked_by[s] for s in by_rel],
        "last_knocker": rel(state.last_knocker),
        "dealer": rel(state.dealer),
        "redraws": [state.redraws[s] for s in by_rel],
        "claimant": rel(state.claimant),
        "signals": [state.signals[s].name.lower() for s in by_rel],
        "stock": len(state.stock),
        "can_knock": state.to_act == seat and game.can_knock(state, seat),
    }


def render(game: Toepen, state: ToepenState, seat: int | None = None) -> str:
    """A text table: every hand (seat None, for debugging) or one seat's view."""
    lives = game.rules.lives
    deal = state.deals_played + (0 if state.terminal else 1)
    status = "over" if state.terminal else f"phase {state.phase.value}"
    lines = [f"Toepen  deal {deal}  {status}  stake {state.stake}"
             f"  trick {min(state.tricks_played + 1, 4)}/4  stock {len(state.stock)}"]
    for s in range(game.num_players):
        shown = s == seat or seat is None
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        lost = state.lives_lost[s]
        score = f"{lives - lost} lives left" if game.rules.count_down else f"{lost}/{lives} lost"
        status = "out" if state.out[s] else "folded" if state.folded[s] else "in"
        marks = "".join([
            " D" if s == state.dealer else "",
            " *" if s == state.to_act else "",
            f" {state.signals[s].name.lower()}" if state.signals[s] is not Signal.NONE else "",
        ])
        lines.append(f"  player_{s}{marks:10} {status:7} {score:14} tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    if state.revealed:
        lines.append(f"  revealed dirty hands: {codes(state.revealed)}")
    return "\n".join(lines)
