"""What a Tippen player may know: observation layout (its encoder and view generated from it), rendering."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core import observation_core as core
from rams_env.core import observation_seats as seats
from rams_env.core.cards import SUITS, Pack
from rams_env.core.observation_core import Cards, Observation, Scalar, Shows, encode, view
from rams_env.core.observation_render import deal_number, pot_player, render_table, status
from rams_env.games.tippen.rules import DealerOption
from rams_env.games.tippen.state import DEALER, SHOVE, Bid, Phase, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen

__all__ = ["PHASES", "POT_SCALE", "layout", "encode", "view", "render", "trump_known", "known_cards"]

PHASES = list(Phase)
POT_SCALE = 64
"""Basic stakes that fill the pot and net fields (values are capped)."""
UNSEEN_TAKES = (DealerOption.KNOCK, DealerOption.SNIFF_GRUPP)
UNFACED = frozenset((SHOVE, DEALER))
"""The phases before the dealer's privilege is settled, while the trump is "unfaced" (read at every observation:
a set made once, not a tuple of members read from the enum class at each call)."""
"""Dealer options under which the privileged dealer takes the turned card without showing it again."""


def seat_block(n: int, hand_size: int, stake: int) -> seats.SeatBlock:
    """Tippen's per-player fields (seat-relative), in layout order."""
    return seats.SeatBlock([
        *seats.play_markers(Phase.PLAY),
        seats.playing_field("1 if the player plays this deal (tapped, forced, or the privileged dealer)", n),
        seats.bid_field("passed", "1 if the player passed (or dropped out)", Bid.PASS),
        seats.marker("privileged", "1 for the dealer who knocked or sniffed", "privileged"),
        seats.marker("upcard_holder", "1 for the player who took the turned trump card (knock, sniff, rob)",
                     "upcard_taken_by"),
        seats.tricks_won_field(hand_size, "tricks per deal"),
        seats.seat_list("exchanged", "cards exchanged this deal / 3", scale=3),
        seats.net_field(2 * POT_SCALE * stake, "(2 x 64 stakes)"),
    ], n)


def layout(n: int, pack: Pack, hand_size: int, stake: int) -> Observation:
    return Observation([
        core.hand_seen_after_knock(),
        Cards("trump_card", "the trump card, while every player can see it",
              known_cards, Shows.CARD, per_seat=False),
        core.trump("trump suit one-hot (c s h d), once known to all", trump_known),
        core.own_discards("the observer's discarded cards"),
        *core.around_the_table(seat_block(n, hand_size, stake), PHASES),
        Scalar("forced", "1 if everyone must play (only the basic stake in the pot)", "forced"),
        *core.pot_game_end(POT_SCALE * stake, "(64 stakes)", hand_size,
                           core.exchange(len(pack), 3, Phase.EXCHANGE, talon_hidden=Phase.SHOVE)),
        core.rule("stake"),
    ], n, pack)


def trump_known(game: Tippen, state: TippenState) -> bool:
    """Trumps are known once the dealer's privilege is settled (the trump is "unfaced" before)."""
    return state.phase not in UNFACED


def known_cards(game: Tippen, state: TippenState, seat: int | None = None) -> tuple[int, ...]:
    """Cards whose place every player knows: the face-up trump card, wherever it lies (none, or that card).

    Read at every observation (the observer ``seat`` changes nothing: a card getter itself, no lambda around it):
    tests in the order that settles most positions first, no set built."""
    if state.phase is SHOVE:
        return ()
    if game.trump_stays:
        return (state.trump_card,)  # shows trumps and stays in the dealer's hand
    if state.phase is DEALER:
        return ()  # the trump is "unfaced" until the dealer's privilege is settled
    taker = state.upcard_taken_by
    if taker is not None and taker == state.privileged and game.rules.dealer_option in UNSEEN_TAKES:
        return ()  # a knocking or sniffing dealer took it unseen
    return (state.trump_card,)


def render(game: Tippen, state: TippenState, seat: int | None = None) -> str:
    trump = SUITS[state.trump] if trump_known(game, state) else "?"
    header = (f"Tippen  deal {deal_number(state)}  {status(state)}  trump {trump}"
              f"  pot {state.ledger.pot}  talon {len(state.talon)}")
    return "\n".join(render_table(game, state, seat, header, pot_player(10),
                                   shown=lambda s: not game.hand_is_hidden(state, s)))
