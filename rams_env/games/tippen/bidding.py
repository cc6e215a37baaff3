"""Tippen's bidding and exchange: who plays the deal, and (modern rules) the cards they swap.

Kept apart because it decides who takes part: forced play while the pot holds only the
basic stake, tap or pass in turn, everybody passing, a lone player taking the pot, then
the exchange with the talon, one discard at a time. Plain functions of (game, state, ...):
legal actions, handlers and ``enter`` of the phase table in game.py, each returning the phase
that follows (see rams_env/core/phases.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.phases import END, Next
from rams_env.core.seating import seats_from
from rams_env.games.tippen import play
from rams_env.games.tippen.state import Act, Bid, Phase, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen


# ------------------------------------------------------------------ bidding
def begin_bidding(game: Tippen, state: TippenState) -> Next:
    """Everyone undecided taps or passes in turn from forehand; while play is forced, all play at once."""
    undecided = [s for s in seats_from(game.num_players, state.dealer + 1) if state.bids[s] is Bid.NONE]
    if state.forced:
        for s in undecided:
            state.bids[s] = Bid.FORCED
        return _after_bidding(game, state)
    state.queue = undecided
    state.to_act = undecided[0]
    return None


def bid(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    """Tap (play this deal) or pass, in turn."""
    state.bids[seat] = Bid.PLAY if name is Act.TAP else Bid.PASS
    state.queue.pop(0)
    if state.queue:
        state.to_act = state.queue[0]
        return None
    return _after_bidding(game, state)


def _after_bidding(game: Tippen, state: TippenState) -> Next:
    active = [s for s in range(game.num_players) if state.active(s)]
    if not active:  # all pass: the next dealer antes too and deals
        play.end_deal(game, state, "all_passed")
        return END
    if len(active) == 1:  # a lone player wins the pot
        state.ledger.take_out(active[0], state.ledger.pot)
        play.end_deal(game, state, "lone_player")
        return END
    return Phase.EXCHANGE if game.rules.exchange else Phase.PLAY


# ----------------------------------------------------------------- exchange
def exchange_limit(game: Tippen, state: TippenState) -> int:
    return min(game.rules.exchange, len(state.talon))


def legal_exchange(game: Tippen, state: TippenState) -> list[int]:
    """Discard another card (up to the limit) or end the exchange."""
    seat, limit = state.to_act, exchange_limit(game, state)
    legal = []
    if state.pending < limit:
        start, index = game.actions.start[Act.DISCARD], game.pack().index
        legal = sorted(start + index[c] for c in state.hands[seat])
    return legal + [game.ids[Act.DONE]]


def begin_exchange(game: Tippen, state: TippenState) -> Next:
    """The active players exchange in turn from forehand."""
    state.queue = seats_from(game.num_players, state.dealer + 1, state.active)
    return _next_exchanger(game, state)


def exchange(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    """One more card discarded, or ``done``: the talon replaces the cards discarded."""
    if name is Act.DONE:
        return finish_exchange(game, state, seat)
    return exchange_discard(game, state, seat, game.pack().cards[item])


def exchange_discard(game: Tippen, state: TippenState, seat: int, card_id: int) -> Next:
    state.hands[seat].remove(card_id)
    state.face_down[seat].append(card_id)
    state.pending += 1
    if state.pending == exchange_limit(game, state):
        return finish_exchange(game, state, seat)
    return None


def _next_exchanger(game: Tippen, state: TippenState) -> Next:
    if state.queue and exchange_limit(game, state) > 0:
        state.to_act, state.pending = state.queue[0], 0
        return None
    return Phase.PLAY


def finish_exchange(game: Tippen, state: TippenState, seat: int) -> Next:
    """The talon replaces as many cards as were discarded; the next player exchanges."""
    state.hands[seat].extend(state.talon[:state.pending])
    state.talon = state.talon[state.pending:]
    state.exchanged[seat] = state.pending
    state.queue.pop(0)
    return _next_exchanger(game, state)
