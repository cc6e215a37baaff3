"""Tippen's bidding and exchange: who plays the deal, and (modern rules) the cards they swap.

Kept apart because it decides who takes part: forced play while the pot holds only the
basic stake, tap or pass in turn, everybody passing, a lone player taking the pot, then
the exchange with the talon, one discard at a time. Plain functions of (game, state, ...),
like observe.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.seating import seats_from
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.tippen import play
from rams_env.games.tippen.rules import TippenRules
from rams_env.games.tippen.state import Bid, Phase, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen


# ------------------------------------------------------------------ bidding
def begin_bidding(game: Tippen, state: TippenState) -> None:
    undecided = [s for s in seats_from(game.num_players, state.dealer + 1) if state.bids[s] is Bid.NONE]
    if state.forced:
        for s in undecided:
            state.bids[s] = Bid.FORCED
        _after_bidding(game, state)
        return
    state.phase = Phase.BID
    ask_in_turn(state, undecided)


def bid(game: Tippen, state: TippenState, seat: int, play_deal: bool) -> None:
    """Tap (play this deal) or pass, in turn."""
    state.bids[seat] = Bid.PLAY if play_deal else Bid.PASS
    if not ask_next(state):
        _after_bidding(game, state)


def _after_bidding(game: Tippen, state: TippenState) -> None:
    active = [s for s in range(game.num_players) if state.active(s)]
    if not active:  # all pass: the next dealer antes too and deals
        game.end_deal(state, "all_passed")
    elif len(active) == 1:  # a lone player wins the pot
        state.ledger.take_out(active[0], state.ledger.pot)
        game.end_deal(state, "lone_player")
    elif game.rules.exchange:
        state.phase = Phase.EXCHANGE
        if not game.exchange.begin(state, seats_from(game.num_players, state.dealer + 1, state.active)):
            play.begin_play(game, state)
    else:
        play.begin_play(game, state)


# ----------------------------------------------------------------- exchange
def exchange_limit(state: TippenState, rules: TippenRules) -> int:
    """Up to the rule set's number of cards, as far as the talon lasts (the same for every player)."""
    return min(rules.exchange, len(state.talon))


def legal_exchange(game: Tippen, state: TippenState) -> list[int]:
    """Discard another card (up to the limit) or end the exchange."""
    return game.exchange.legal(state)


def exchange_discard(game: Tippen, state: TippenState, seat: int, card_id: int) -> None:
    if not game.exchange.discard(state, seat, card_id):
        play.begin_play(game, state)


def finish_exchange(game: Tippen, state: TippenState, seat: int) -> None:
    """The talon replaces as many cards as were discarded; the next player exchanges."""
    if not game.exchange.finish(state, seat):
        play.begin_play(game, state)
