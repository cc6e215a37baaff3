"""What a Lupfen player may know: observation layout, encoder, view and rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rams_env.core import observation_core as core
from rams_env.core.cards import LUPFEN_20, SUITS, codes
from rams_env.core.encoding import put_cards
from rams_env.core.observation import Field, ObservationLayout
from rams_env.core.observation_core import SeatBlock, marker
from rams_env.games.lupfen.state import Bid, LupfenState, Phase, Round

if TYPE_CHECKING:
    from rams_env.games.lupfen.game import Lupfen

CARDS = len(LUPFEN_20)
PHASES = list(Phase)
PHASE_INDEX = core.phase_index(PHASES)
TRICKS = 3
POT_SCALE = 300
"""Chips that fill the pot and net fields (values are capped)."""

def seat_block(n: int) -> SeatBlock:
    """Lupfen's per-player fields (seat-relative), in layout order."""
    return SeatBlock([
        *core.play_markers(Phase.PLAY),
        marker("lifter", "1 for the player who lifted", lambda s: s.lifter),
        core.bid_field("passed", "1 if the player passed this deal", Bid.PASS),
        core.playing_field("1 if the player plays this deal (lifted, joined, or a force round)", n),
        core.tricks_won_field(TRICKS),
        core.seat_list("staender", "1 if the player announced a Ständer (three cards of one suit)"),
        core.seat_list("looked", "1 if the player has looked at the hand (blind lifting)"),
        core.net_field(2 * POT_SCALE, "600"),
    ], n)


def layout(n: int) -> ObservationLayout:
    seats = seat_block(n)
    position, trick_number = core.position_fields(n, PHASES, TRICKS)
    return ObservationLayout([
        Field("hand", CARDS, "cards in the observer's hand (empty until she looks, blind-lift variation)"),
        Field("turned", CARDS, "the card turned for trump (force round or lift), if any"),
        Field("trump", len(SUITS), "trump suit one-hot (c s h d); zeros before the lift"),
        *core.table_fields(n, CARDS),
        *seats.layout_fields(),
        *position,
        Field("force", 1, "1 in a force round, 0 in a Lupfen round"),
        Field("blind", 1, "1 if the lift was blind (losers pay double)"),
        Field("pot", 1, "chips in the pot / 300, capped at 1"),
        Field("pot_at_play", 1, "the pot when play began / 300, capped at 1"),
        *trick_number,
    ], seats=seats)


def encode(game: Lupfen, state: LupfenState, seat: int, out: np.ndarray) -> None:
    lay, idx = game.observation, LUPFEN_20.index
    at = lay.offsets
    if state.looked[seat]:
        put_cards(out, at["hand"], idx, state.hands[seat])
    if state.turned is not None:
        put_cards(out, at["turned"], idx, [state.turned])
        out[at["trump"] + state.trump] = 1.0
    core.write_table(out, at, idx, state, seat, game.num_players)
    lay.seats.encode(state, seat, out, at[lay.seats.first])
    core.write_position(out, at, PHASE_INDEX, state, seat, TRICKS)
    out[at["force"]] = state.round is Round.FORCE
    out[at["blind"]] = state.blind
    core.write_pot(out, at, state, POT_SCALE)


def view(game: Lupfen, state: LupfenState, seat: int) -> dict[str, Any]:
    n = game.num_players
    seen = {
        **core.position_view(state, seat, n),
        "round": state.round.value,
        "hand": codes(state.hands[seat]).split() if state.looked[seat] else [],
        "turned": codes([state.turned]) if state.turned is not None else None,
        "trump": SUITS[state.trump] if state.turned is not None else None,
        **core.table_view(state, seat, n),
        "bids": [state.bids[(seat + r) % n].name.lower() for r in range(n)],
        "blind": state.blind,
        **core.pot_view(state),
    }
    game.observation.seats.view(state, seat, seen)
    return seen


def render(game: Lupfen, state: LupfenState, seat: int | None = None) -> str:
    status = "over" if state.terminal else f"{state.round.value} round, phase {state.phase.value}"
    trump = codes([state.turned]) if state.turned is not None else "not turned"
    lines = [f"Lupfen  deal {state.deals_played + (0 if state.terminal else 1)}  {status}  trump {trump}"
             f"  pot {state.ledger.pot}"]
    for s in range(game.num_players):
        shown = (s == seat or seat is None) and state.looked[s]
        hand = codes(state.hands[s]) if shown else " ".join("##" for _ in state.hands[s])
        marks = (" D" if s == state.dealer else "") + (" *" if s == state.to_act else "")
        lines.append(f"  player_{s}{marks:5} {state.bids[s].name.lower():6} bankroll {state.ledger.bankrolls[s]:5}"
                     f"  tricks {state.tricks_won[s]}  {hand}")
    trick = "  ".join(f"player_{s}:{codes([c])}" for s, c in state.trick)
    lines.append(f"  trick: {trick or '-'}")
    return "\n".join(lines)
