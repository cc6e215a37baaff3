"""What a Lupfen player may know: observation layout (its encoder and view generated from it), rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core import observation_core as core
from rams_env.core import observation_seats as seats
from rams_env.core.cards import LUPFEN_20, codes
from rams_env.core.observation_core import Observation, Scalar, Shown, encode, view
from rams_env.core.observation_render import deal_number, deal_over, pot_player, render_table
from rams_env.games.lupfen.state import Bid, LupfenState, Phase, Round

if TYPE_CHECKING:
    from rams_env.games.lupfen.game import Lupfen

__all__ = ["PHASES", "POT_SCALE", "layout", "encode", "view", "render"]

PHASES = list(Phase)
TRICKS = 3
POT_SCALE = 300
"""Chips that fill the pot and net fields (values are capped)."""


FORCE = Round.FORCE
"""Read at every decision, so bound to module names (see ``StateEnum``: a member read from its class is dear)."""


def seat_block(n: int) -> seats.SeatBlock:
    """Lupfen's per-player fields (seat-relative), in layout order."""
    return seats.SeatBlock([
        *seats.play_markers(Phase.PLAY),
        seats.marker("lifter", "1 for the player who lifted", "lifter"),
        seats.bid_field("passed", "1 if the player passed this deal", Bid.PASS),
        seats.playing_field("1 if the player plays this deal (lifted, joined, or a force round)", n),
        seats.tricks_won_field(TRICKS),
        seats.seat_list("staender", "1 if the player announced a Ständer (three cards of one suit)"),
        seats.seat_list("looked", "1 if the player has looked at the hand (blind lifting)"),
        seats.net_field(2 * POT_SCALE, "600"),
    ], n)


def layout(n: int) -> Observation:
    return Observation([
        core.hand("cards in the observer's hand (empty until she looks, blind-lift variation)",
                  hidden=lambda game, state, seat: not state.looked[seat]),
        core.turned("the card turned for trump (force round or lift), if any"),
        core.trump("trump suit one-hot (c s h d); zeros before the lift", lambda game, state: state.turned is not None),
        *core.around_the_table(seat_block(n), PHASES),
        Scalar("force", "1 in a force round, 0 in a Lupfen round",
               lambda game, state, seat: state.round is FORCE, shown=False),
        Scalar("blind", "1 if the lift was blind (losers pay double)", "blind"),
        *core.pot_game_end(POT_SCALE, "300", TRICKS),
        Shown("round", lambda game, state, seat: core.label(state.round)),
    ], n, LUPFEN_20)


def render(game: Lupfen, state: LupfenState, seat: int | None = None) -> str:
    status = "over" if deal_over(state) else f"{core.label(state.round)} round, phase {core.label(state.phase)}"
    trump = codes([state.turned]) if state.turned is not None else "not turned"
    header = f"Lupfen  deal {deal_number(state)}  {status}  trump {trump}  pot {state.ledger.pot}"
    return "\n".join(render_table(game, state, seat, header, pot_player(6), shown=lambda s: state.looked[s]))
