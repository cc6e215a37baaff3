"""What a Toepen player may know: the observation layout, its encoder, the view, rendering.

All seat-indexed fields are seat-relative: index 0 is the observer, 1 the player on
her left, and so on. Nothing hidden is read: other hands, the stock's order and
face-down discards never reach the vector (tested by re-dealing unseen cards).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.core.cards import PIQUET_32, codes
from rams_env.core.encoding import put_cards
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_core import (
    DEALER,
    LEADER,
    TO_ACT,
    SeatBlock,
    SeatField,
    marker,
    phase_index,
    position_fields,
    position_view,
    seat_list,
    table_fields,
    table_view,
    tricks_won_field,
    write_position,
    write_table,
)
from rams_env.games.toepen.state import TRICKS, Phase, Signal, ToepenState

if TYPE_CHECKING:
    from rams_env.games.toepen.game import Toepen

CARDS = len(PIQUET_32)
PHASES = list(Phase)
PHASE_INDEX = phase_index(PHASES)
MAX_REDRAWS = 8


def seat_block(n: int, lives: int) -> SeatBlock:
    """Toepen's per-player fields (seat-relative), in layout order."""
    return SeatBlock([
        LEADER,
        TO_ACT,
        tricks_won_field(TRICKS),
        SeatField("in_play", "1 if dealt in this deal and not folded",
                  lambda s: [not (out or folded) for out, folded in zip(s.out, s.folded, strict=True)],
                  reads=("out", "folded")),
        seat_list("folded", "1 if folded this deal"),
        seat_list("out", "1 if out of the session (lost all lives, play-on variation)"),
        seat_list("lives_lost", "lives lost in the session / lives (capped at 1)", scale=lives),
        SeatField("poor", "1 if exactly one life left (armoede)",
                  lambda s: [lives - lost == 1 for lost in s.lives_lost], view=None, reads=("lives_lost",)),
        seat_list("knocks", "knocks made this deal / 8 (capped at 1)", "knocked_by", scale=8),
        marker("last_knocker", "1 for the player who knocked last", attrgetter("last_knocker")),
        DEALER,
        seat_list("redraws", "dirty-hand redraws this deal / 8", scale=MAX_REDRAWS),
        marker("claimant", "1 for the player whose dirty-hand claim is open to challenge", attrgetter("claimant")),
        SeatField("whistled", "1 if the player whistled (three tens, or three jacks by choice)",
                  lambda s: [signal is Signal.WHISTLE for signal in s.signals], view=None, reads=("signals",)),
        SeatField("stood", "1 if the player stood up (four tens, or four jacks by choice)",
                  lambda s: [signal is Signal.STAND for signal in s.signals], view=None, reads=("signals",)),
    ], n)


def layout(n: int, lives: int) -> ObservationLayout:
    """The Toepen observation for ``n`` players (sizes computed from the pack and ``n``)."""
    seats = seat_block(n, lives)
    position, trick_number = position_fields(
        n, PHASES, TRICKS, seat_doc="the observer's absolute seat, one-hot (the only absolute field)")
    fields = [
        Field("hand", CARDS, "cards in the observer's hand"),
        Field("own_discards", CARDS, "the observer's own face-down cards (dirty discards, folded hand)"),
        Field("revealed", CARDS, "dirty hands turned face up by a challenge"),
        *table_fields(n, CARDS),
        *seats.layout_fields(),
        *position,
        *trick_number,
        Field("stake", 1, "lives at stake for a player who stays in and loses / lives (capped at 1)"),
        Field("stock", 1, "cards left in the stock / 32"),
    ]
    return ObservationLayout(fields, version=1, seats=seats)


def encode(game: Toepen, state: ToepenState, seat: int, out: np.ndarray) -> None:
    """Fill ``out`` (zeros) with what ``seat`` may know."""
    lay, lives = game.observation, game.rules.lives
    at, idx = lay.offsets, PIQUET_32.index
    put_cards(out, at["hand"], idx, state.hands[seat])
    put_cards(out, at["own_discards"], idx, state.face_down[seat])
    put_cards(out, at["revealed"], idx, state.revealed)
    write_table(out, at, idx, state, seat, game.num_players)
    lay.seats.encode(state, seat, out, at[lay.seats.first])
    write_position(out, at, PHASE_INDEX, state, seat, TRICKS)
    out[at["stake"]] = min(state.stake / lives, 1.0)
    out[at["stock"]] = len(state.stock) / CARDS


def view(game: Toepen, state: ToepenState, seat: int) -> dict[str, Any]:
    """The same information as :func:`encode`, as plain Python (relative seats, card codes)."""
    n = game.num_players
    seen = {
        **position_view(state, seat, n),
        "hand": codes(state.hands[seat]).split(),
        "own_discards": codes(state.face_down[seat]).split(),
        "revealed": codes(state.revealed).split(),
        **table_view(state, seat, n),
        "lives": game.rules.lives,
        "stake": state.stake,
        "signals": [state.signals[(seat + r) % n].name.lower() for r in range(n)],
        "stock": len(state.stock),
        "can_knock": state.to_act == seat and game.can_knock(state, seat),
    }
    game.observation.seats.view(state, seat, seen)
    return seen


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
