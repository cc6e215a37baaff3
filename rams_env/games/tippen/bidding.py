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
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.tippen.rules import TippenRules
from rams_env.games.tippen.state import Act, Bid, Phase, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen


UNDECIDED, TAP, TAPPED, PASSED = Bid.NONE, Act.TAP, Bid.PLAY, Bid.PASS
"""Read at every bid, so bound to module names (see ``StateEnum``: a member read from its class is dear)."""


# ------------------------------------------------------------------ bidding
def begin_bidding(game: Tippen, state: TippenState) -> Next:
    """Everyone undecided taps or passes in turn from forehand; while play is forced, all play at once."""
    undecided = [s for s in seats_from(game.num_players, state.dealer + 1) if state.bids[s] is UNDECIDED]
    if state.forced:
        for s in undecided:
            state.bids[s] = Bid.FORCED
        return _after_bidding(game, state)
    ask_in_turn(state, undecided)
    return None


def bid(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    """Tap (play this deal) or pass, in turn."""
    state.bids[seat] = TAPPED if name is TAP else PASSED
    if ask_next(state):
        return None
    return _after_bidding(game, state)


def _after_bidding(game: Tippen, state: TippenState) -> Next:
    active = [s for s in range(game.num_players) if state.active(s)]
    if not active:  # all pass: the next dealer antes too and deals
        game.end_deal(state, "all_passed")
        return END
    if len(active) == 1:  # a lone player wins the pot
        state.ledger.take_out(active[0], state.ledger.pot)
        game.end_deal(state, "lone_player")
        return END
    return Phase.EXCHANGE if game.rules.exchange else Phase.PLAY


# ----------------------------------------------------------------- exchange
def exchange_limit(state: TippenState, rules: TippenRules) -> int:
    """Up to the rule set's number of cards, as far as the talon lasts (the same for every player)."""
    return min(rules.exchange, len(state.talon))


def legal_exchange(game: Tippen, state: TippenState) -> list[int]:
    """Discard another card (up to the limit) or end the exchange."""
    return game.exchange.legal(state)


def begin_exchange(game: Tippen, state: TippenState) -> Next:
    """The active players exchange in turn from forehand."""
    seats = seats_from(game.num_players, state.dealer + 1, state.active)
    return None if game.exchange.begin(state, seats) else Phase.PLAY


def exchange(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    """One more card discarded, or ``done``: the talon replaces the cards discarded; the next player exchanges."""
    return None if game.exchange.act(state, seat, name, item) else Phase.PLAY
