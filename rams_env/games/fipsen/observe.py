"""What a Fipsen player may know: observation layout (its encoder and view generated from it), rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core import observation_core as core
from rams_env.core import observation_seats as seats
from rams_env.core.cards import SUITS, Pack
from rams_env.core.observation_core import Observation, OneHot, Scalar, Shown, encode, view
from rams_env.core.observation_render import deal_number, render_table, status
from rams_env.games.fipsen.state import TRICKS, FipsenState, Phase

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

__all__ = ["PHASES", "SCORE_SCALE", "layout", "encode", "view", "render"]

PHASES = list(Phase)
SCORE_SCALE = 100
"""Points (or hedewigs) that fill the net field (values are clipped)."""


def seat_block(n: int, race_to: int) -> seats.SeatBlock:
    """Fipsen's per-player fields (seat-relative), in layout order."""
    return seats.SeatBlock([
        *seats.play_markers(Phase.PLAY),
        seats.marker("declarer", "1 for the declarer (or the player who called fipsen)",
                     lambda s: s.declarer if s.declarer is not None else s.fipsen, view=None),
        seats.seat_list("passed", "1 if the player has passed in the auction"),
        seats.marker("highest_bidder", "1 for the player holding the highest bid", "highest_bidder"),
        seats.tricks_won_field(TRICKS),
        seats.seat_list("race", "Thedinghausen: tricks toward the prize / race_to", scale=race_to),
        seats.seat_list("net", "score change in the session, 0.5 + net / 200, clipped to [0, 1]", "scores",
                        scale=2 * SCORE_SCALE, offset=0.5),
    ], n)


def ladder(name: str, attr: str, doc: str, size: int) -> OneHot:
    """A level of the contract ladder, ``state.<attr>``, one-hot (0: none); the view shows its label."""
    return OneHot(name, size, doc,
                  lambda game, state, seat: 0 if (level := getattr(state, attr)) is None else level + 1,
                  lambda game, state, seat: None if (level := getattr(state, attr)) is None
                  else game.ladder[level].label)


def layout(n: int, pack: Pack, ladder_size: int, race_to: int) -> Observation:
    return Observation([
        core.hand(),
        core.turned("Thedinghausen: the turned trump card"),
        core.trump("trump suit one-hot (c s h d), once set", lambda game, state: state.trump is not None),
        core.own_discards("the observer's discarded cards (declarer)"),
        *core.around_the_table(seat_block(n, race_to), PHASES),
        ladder("highest_bid", "highest", "highest bid so far, one-hot over the ladder (0: none)", ladder_size + 1),
        ladder("contract", "contract", "the declarer's contract, one-hot over the ladder (0: none)", ladder_size + 1),
        Scalar("holder_to_answer", "Prisdorf: the earlier player must hold or pass", "holder_to_answer"),
        Scalar("playing_on", "Grossenaspe: the declarer plays on for a Durch", "playing_on"),
        Scalar("pot", "Thedinghausen: hedewigs in the pot / 20, capped at 1",
               lambda game, state, seat: state.ledger.pot, 20),
        core.TrickNumber(TRICKS),
        Shown("variant", lambda game, state, seat: core.label(game.rules.variant)),
        Shown("declarer", lambda game, state, seat: seats.relative(state.declarer, seat, game.num_players)),
        Shown("fipsen", lambda game, state, seat: seats.relative(state.fipsen, seat, game.num_players)),
    ], n, pack)


def render(game: Fipsen, state: FipsenState, seat: int | None = None) -> str:
    trump = SUITS[state.trump] if state.trump is not None else "-"
    contract = game.ladder[state.contract].label if state.contract is not None else "-"
    header = (f"Fipsen ({core.label(game.rules.variant)})  deal {deal_number(state)}"
              f"  {status(state)}  trump {trump}  contract {contract}")
    return "\n".join(render_table(game, state, seat, header,
                                   lambda game, state, s: f"score {state.scores[s]:5}  "))
