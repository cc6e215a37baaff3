"""Tippen's bidding and exchange: who plays the deal, and (modern rules) the cards they swap.

Kept apart because it decides who takes part: forced play while the pot holds only the
basic stake, tap or pass in turn, everybody passing, a lone player taking the pot, then
the exchange with the talon, one discard at a time. Plain functions of (game, state, ...),
like observe.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.seating import seats_from
from rams_env.games.tippen import play
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
    state.phase, state.queue = Phase.BID, undecided
    state.to_act = undecided[0]


def bid(game: Tippen, state: TippenState, seat: int, play_deal: bool) -> None:
    """Tap (play this deal) or pass, in turn."""
    state.bids[seat] = Bid.PLAY if play_deal else Bid.PASS
    state.queue.pop(0)
    if state.queue:
        state.to_act = state.queue[0]
    else:
        _after_bidding(game, state)


def _after_bidding(game: Tippen, state: TippenState) -> None:
    active = [s for s in range(game.num_players) if state.active(s)]
    if not active:  # all pass: the next dealer antes too and deals
        play.end_deal(game, state, "all_passed")
    elif len(active) == 1:  # a lone player wins the pot
        state.ledger.take_out(active[0], state.ledger.pot)
        play.end_deal(game, state, "lone_player")
    elif game.rules.exchange:
        state.phase = Phase.EXCHANGE
        state.queue = seats_from(game.num_players, state.dealer + 1, state.active)
        _next_exchanger(game, state)
    else:
        play.begin_play(game, state)


# ----------------------------------------------------------------- exchange
def exchange_limit(game: Tippen, state: TippenState) -> int:
    return min(game.rules.exchange, len(state.talon))


def legal_exchange(game: Tippen, state: TippenState) -> list[int]:
    """Discard another card (up to the limit) or end the exchange."""
    seat, limit = state.to_act, exchange_limit(game, state)
    legal = []
    if state.pending < limit:
        start, index = game.actions.start["discard"], game.pack().index
        legal = sorted(start + index[c] for c in state.hands[seat])
    return legal + [game.ids["done"]]


def exchange_discard(game: Tippen, state: TippenState, seat: int, card_id: int) -> None:
    state.hands[seat].remove(card_id)
    state.face_down[seat].append(card_id)
    state.pending += 1
    if state.pending == exchange_limit(game, state):
        finish_exchange(game, state, seat)


def _next_exchanger(game: Tippen, state: TippenState) -> None:
    if state.queue and exchange_limit(game, state) > 0:
        state.to_act, state.pending = state.queue[0], 0
    else:
        play.begin_play(game, state)


def finish_exchange(game: Tippen, state: TippenState, seat: int) -> None:
    """The talon replaces as many cards as were discarded; the next player exchanges."""
    state.hands[seat].extend(state.talon[:state.pending])
    state.talon = state.talon[state.pending:]
    state.exchanged[seat] = state.pending
    state.queue.pop(0)
    _next_exchanger(game, state)
