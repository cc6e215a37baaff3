"""What a Mauscheln player may know: observation layout (its encoder and view generated from it), rendering.

Seat fields are seat-relative (0 = the observer). Other hands, the talon and the
bonfire stay hidden; so does the dealer's own hand while she decides to knock blind.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core import observation_core as core
from rams_env.core import observation_seats as seats
from rams_env.core.cards import Pack, codes
from rams_env.core.observation_core import Observation, Scalar, encode, view
from rams_env.core.observation_render import deal_number, pot_player, render_table, status
from rams_env.games.mauscheln.state import Bid, MauschelnState, Phase

if TYPE_CHECKING:
    from rams_env.games.mauscheln.game import Mauscheln

__all__ = ["PHASES", "POT_SCALE", "layout", "encode", "view", "render"]

PHASES = list(Phase)
TRICKS = 4
POT_SCALE = 64
"""Pinkes that fill the pot and bankroll fields (values are capped at 1)."""


def seat_block(n: int, pinke: int) -> seats.SeatBlock:
    """Mauscheln's per-player fields (seat-relative), in layout order."""
    return seats.SeatBlock([
        *seats.play_markers(Phase.PLAY),
        seats.marker("sneaker", "1 for the sneaker (or the knocking dealer)", "sneaker"),
        seats.bid_field("passed", "1 if the player passed this deal", Bid.PASS),
        seats.bid_field("joined", "1 if the player joined the sneaker", Bid.JOIN),
        seats.tricks_won_field(TRICKS),
        seats.seat_list("exchanged", "cards exchanged this deal / 4", scale=4),
        seats.seat_list("quartets", "quartet redeals this deal / 2 (capped at 1)", scale=2),
        seats.net_field(2 * POT_SCALE * pinke, "(2 x 64 Pinkes)"),
    ], n)


def layout(n: int, pack: Pack, pinke: int) -> Observation:
    return Observation([
        core.hand_seen_after_knock(),
        core.turned("the turned trump card"),
        core.trump("trump suit one-hot (c s h d)", lambda game, state: True),
        core.own_discards("the observer's cards on the bonfire (exchanged or a quartet)"),
        *core.around_the_table(seat_block(n, pinke), PHASES),
        Scalar("knocked", "1 if the dealer knocked", "knocked"),
        *core.pot_game_end(POT_SCALE * pinke, "(64 Pinkes)", TRICKS, core.exchange(len(pack), 4, Phase.EXCHANGE)),
        core.rule("pinke"),
    ], n, pack)


def render(game: Mauscheln, state: MauschelnState, seat: int | None = None) -> str:
    header = (f"Mauscheln  deal {deal_number(state)}  {status(state)}  "
              f"trump {codes([state.turned])}  pot {state.ledger.pot}  talon {len(state.talon)}")
    return "\n".join(render_table(game, state, seat, header, pot_player(6),
                                   shown=lambda s: not game.hand_is_hidden(state, s)))
