"""What a Fipsen player may know: observation layout, encoder, view and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.core import observation_core as core
from rams_env.core.cards import SUITS, Pack, codes
from rams_env.core.encoding import put_cards
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_core import SeatBlock, marker
from rams_env.games.fipsen.state import FipsenState, Phase

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

PHASES = list(Phase)
PHASE_INDEX = core.phase_index(PHASES)
TRICKS = 5
SCORE_SCALE = 100
"""Points (or hedewigs) that fill the net field (values are clipped)."""

def seat_block(n: int, race_to: int) -> SeatBlock:
    """Fipsen's per-player fields (seat-relative), in layout order."""
    return SeatBlock([
        *core.play_markers(Phase.PLAY),
        marker("declarer", "1 for the declarer (or the player who called fipsen)",
               lambda s: s.declarer if s.declarer is not None else s.fipsen, view=None),
        core.seat_list("passed", "1 if the player has passed in the auction"),
        marker("highest_bidder", "1 for the player holding the highest bid", lambda s: s.highest_bidder),
        core.tricks_won_field(TRICKS),
        core.seat_list("race", "Thedinghausen: tricks toward the prize / race_to", scale=race_to),
        core.seat_list("net", "score change in the session, 0.5 + net / 200, clipped to [0, 1]", "scores",
                  scale=2 * SCORE_SCALE, offset=0.5),
    ], n)


def layout(n: int, pack: Pack, ladder: int, race_to: int) -> ObservationLayout:
    size = len(pack)
    seats = seat_block(n, race_to)
    position, trick_number = core.position_fields(n, PHASES, TRICKS)
    return ObservationLayout([
        Field("hand", size, "cards in the observer's hand"),
        Field("turned", size, "Thedinghausen: the turned trump card"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d), once set"),
        Field("own_discards", size, "the observer's discarded cards (declarer)"),
        *core.table_fields(n, size),
        *seats.layout_fields(),
        *position,
        Field("highest_bid", ladder + 1, "highest bid so far, one-hot over the ladder (0: none)"),
        Field("contract", ladder + 1, "the declarer's contract, one-hot over the ladder (0: none)"),
        Field("holder_to_answer", 1, "Prisdorf: the earlier player must hold or pass"),
        Field("playing_on", 1, "Grossenaspe: the declarer plays on for a Durch"),
        Field("pot", 1, "Thedinghausen: hedewigs in the pot / 20, capped at 1"),
        *trick_number,
    ], seats=seats)


def encode(game: Fipsen, state: FipsenState, seat: int, out: np.ndarray) -> None:
    lay, idx = game.observation, game.pack().index
    at = lay.offsets
    put_cards(out, at["hand"], idx, state.hands[seat])
    if state.turned is not None:
        put_cards(out, at["turned"], idx, [state.turned])
    if state.trump is not None:
        out[at["trump"] + state.trump] = 1.0
    put_cards(out, at["own_discards"], idx, state.face_down[seat])
    core.write_table(out, at, idx, state, seat, game.num_players)
    lay.seats.encode(state, seat, out, at[lay.seats.first])
    core.write_position(out, at, PHASE_INDEX, state, seat, TRICKS)
    out[at["highest_bid"] + (0 if state.highest is None else state.highest + 1)] = 1.0
    out[at["contract"] + (0 if state.contract is None else state.contract + 1)] = 1.0
    out[at["holder_to_answer"]] = state.holder_to_answer
    out[at["playing_on"]] = state.playing_on
    out[at["pot"]] = min(state.ledger.pot / 20, 1.0)


def view(game: Fipsen, state: FipsenState, seat: int) -> dict[str, Any]:
    n = game.num_players

    def label(level: int | None) -> str | None:
        return None if level is None else game.ladder[level].label

    seen = {
        **core.position_view(state, seat, n),
        "variant": game.rules.variant.value,
        "hand": codes(state.hands[seat]).split(),
        "turned": codes([state.turned]) if state.turned is not None else None,
        "trump": SUITS[state.trump] if state.trump is not None else None,
        "own_discards": codes(state.face_down[seat]).split(),
        **core.table_view(state, seat, n),
        "declarer": core.relative(state.declarer, seat, n),
        "fipsen": core.relative(state.fipsen, seat, n),
        "highest_bid": label(state.highest),
        "contract": label(state.contract),
        "holder_to_answer": state.holder_to_answer,
        "playing_on": state.playing_on,
        "pot": state.ledger.pot,
    }
    game.observation.seats.view(state, seat, seen)
    return seen


def render(game: Fipsen, state: FipsenState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"phase {state.phase.value}"
    trump = SUITS[state.trump] if state.trump is not None else "-"
    contract = game.ladder[state.contract].label if state.contract is not None else "-"
    lines = [f"Fipsen ({game.rules.variant.value})  deal {state.deals_played + (0 if state.terminal else 1)}"
             f"  {status}  trump {trump}  contract {contract}"]
    for s in range(game.num_players):
        shown = s == seat or seat is None
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} score {state.scores[s]:5}  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
