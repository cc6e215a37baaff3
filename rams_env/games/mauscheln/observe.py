"""What a Mauscheln player may know: observation layout, encoder, view and rendering.

Seat fields are seat-relative (0 = the observer). Other hands, the talon and the
bonfire stay hidden; so does the dealer's own hand while she decides to knock blind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.core import observation_core as core
from rams_env.core.cards import SUITS, Pack, codes
from rams_env.core.encoding import put_cards
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_core import SeatBlock, marker
from rams_env.games.mauscheln.state import Bid, MauschelnState, Phase

if TYPE_CHECKING:
    from rams_env.games.mauscheln.game import Mauscheln

PHASES = list(Phase)
PHASE_INDEX = core.phase_index(PHASES)
TRICKS = 4
POT_SCALE = 64
"""Pinkes that fill the pot and bankroll fields (values are capped at 1)."""

def seat_block(n: int, pinke: int) -> SeatBlock:
    """Mauscheln's per-player fields (seat-relative), in layout order."""
    return SeatBlock([
        *core.play_markers(Phase.PLAY),
        marker("sneaker", "1 for the sneaker (or the knocking dealer)", lambda s: s.sneaker),
        core.bid_field("passed", "1 if the player passed this deal", Bid.PASS),
        core.bid_field("joined", "1 if the player joined the sneaker", Bid.JOIN),
        core.tricks_won_field(TRICKS),
        core.seat_list("exchanged", "cards exchanged this deal / 4", scale=4),
        core.seat_list("quartets", "quartet redeals this deal / 2 (capped at 1)", scale=2),
        core.net_field(2 * POT_SCALE * pinke, "(2 x 64 Pinkes)"),
    ], n)


def layout(n: int, pack: Pack, pinke: int) -> ObservationLayout:
    size = len(pack)
    seats = seat_block(n, pinke)
    position, trick_number = core.position_fields(n, PHASES, TRICKS)
    return ObservationLayout([
        Field("hand", size, "cards in the observer's hand (empty while the dealer decides to knock blind)"),
        Field("turned", size, "the turned trump card"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d)"),
        Field("own_discards", size, "the observer's cards on the bonfire (exchanged or a quartet)"),
        *core.table_fields(n, size),
        *seats.layout_fields(),
        *position,
        Field("knocked", 1, "1 if the dealer knocked"),
        Field("pot", 1, "chips in the pot / (64 Pinkes), capped at 1"),
        Field("pot_at_play", 1, "the pot when play began (what bêtes are measured by) / (64 Pinkes)"),
        Field("talon", 1, "cards left in the talon / pack size"),
        Field("pending", 1, "cards discarded so far by the player exchanging now / 4"),
        *trick_number,
    ], seats=seats)


def encode(game: Mauscheln, state: MauschelnState, seat: int, out: np.ndarray) -> None:
    lay, pack = game.observation, game.pack()
    at, idx = lay.offsets, pack.index
    if not game.hand_is_hidden(state, seat):
        put_cards(out, at["hand"], idx, state.hands[seat])
    put_cards(out, at["turned"], idx, [state.turned])
    out[at["trump"] + state.trump] = 1.0
    put_cards(out, at["own_discards"], idx, state.face_down[seat])
    core.write_table(out, at, idx, state, seat, game.num_players)
    lay.seats.encode(state, seat, out, at[lay.seats.first])
    core.write_position(out, at, PHASE_INDEX, state, seat, TRICKS)
    out[at["knocked"]] = state.knocked
    core.write_pot(out, at, state, POT_SCALE * game.rules.pinke)
    out[at["talon"]] = len(state.talon) / len(pack)
    out[at["pending"]] = state.pending / 4 if state.phase is Phase.EXCHANGE else 0.0


def view(game: Mauscheln, state: MauschelnState, seat: int) -> dict[str, Any]:
    """The same information as :func:`encode`, as plain Python (relative seats, card codes)."""
    n = game.num_players
    seen = {
        **core.position_view(state, seat, n),
        "hand": [] if game.hand_is_hidden(state, seat) else codes(state.hands[seat]).split(),
        "turned": codes([state.turned]),
        "trump": SUITS[state.trump],
        "own_discards": codes(state.face_down[seat]).split(),
        **core.table_view(state, seat, n),
        "bids": [state.bids[(seat + r) % n].name.lower() for r in range(n)],
        "knocked": state.knocked,
        **core.pot_view(state),
        "pinke": game.rules.pinke,
        "talon": len(state.talon),
        "pending": state.pending if state.phase is Phase.EXCHANGE else 0,
    }
    game.observation.seats.view(state, seat, seen)
    return seen


def render(game: Mauscheln, state: MauschelnState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"phase {state.phase.value}"
    lines = [f"Mauscheln  deal {state.deals_played + (0 if state.terminal else 1)}  {status}  "
             f"trump {codes([state.turned])}  pot {state.ledger.pot}  talon {len(state.talon)}"]
    for s in range(game.num_players):
        shown = (s == seat or seat is None) and not game.hand_is_hidden(state, s)
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} {state.bids[s].name.lower():6} bankroll {state.ledger.bankrolls[s]:5}"
                     f"  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
