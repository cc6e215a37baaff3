"""Tippen's privileges before the bidding: the dealer's knock or sniff, robbing the trump card.

Kept apart because these are the rule sets' optional extras (Grupp and Alvensleben
sniffing, knocking, robbing with the trump seven, dropping out after a sniff), each
of which may change without touching bidding, play or settlement. Whoever takes the
upcard discards one card; then the robbing offer, then the bidding. Plain functions
of (game, state, ...): legal actions, handlers and ``enter`` of the phase table in game.py,
each returning the phase that follows (see rams_env/core/phases.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import rank_of, suit_of
from rams_env.core.exchange import discard_face_down
from rams_env.core.phases import Next
from rams_env.core.seating import seats_from
from rams_env.games.tippen.rules import DealerOption
from rams_env.games.tippen.state import Act, Bid, Phase, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen


def legal_dealer(game: Tippen, state: TippenState) -> list[int]:
    """The rule set's privilege (knock or sniff), or decline it."""
    privilege = Act.KNOCK if game.rules.dealer_option is DealerOption.KNOCK else Act.SNIFF
    return [game.ids[privilege], game.ids[Act.DECLINE]]


def legal_discard(game: Tippen, state: TippenState) -> list[int]:
    """Any card of the hand, face down, for the upcard taken."""
    return game.actions.card_actions(Act.DISCARD, state.hands[state.to_act])


def dealer_decision(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    """The dealer knocks or sniffs (taking the trump card, to discard one) or declines."""
    if name is Act.DECLINE:
        return Phase.ROB
    state.privileged, state.bids[seat] = seat, Bid.PRIVILEGED
    state.hands[seat].append(state.trump_card)
    state.upcard_taken_by = seat
    state.upcard_public = game.rules.dealer_option is DealerOption.SNIFF_ALVENSLEBEN  # else taken unseen
    return Phase.DISCARD


def holds_trump_seven(state: TippenState, seat: int) -> bool:
    return any(rank_of(c) == "7" and suit_of(c) == state.trump for c in state.hands[seat])


def offer_robbing(game: Tippen, state: TippenState) -> Next:
    """While the upcard lies on the table and is not the trump seven itself, every player is asked in turn
    from forehand whether she robs it (only the holder of the trump seven may): asking the holder alone
    would tell everybody who holds it. Otherwise the bidding starts."""
    upcard_is_seven = rank_of(state.trump_card) == "7"
    if game.rules.robbing and state.upcard_taken_by is None and not upcard_is_seven:
        game.robbing.begin(state, seats_from(game.num_players, state.dealer + 1))
        return None
    return Phase.BID


def legal_rob(game: Tippen, state: TippenState) -> list[int]:
    return game.robbing.legal(state)


def rob_decision(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    """The holder takes the upcard (to discard one card); a decline passes the question on."""
    if name is Act.DECLINE:
        return None if game.robbing.ask_next(state) else Phase.BID
    state.queue = []  # nobody else can hold the trump seven: the others are not asked
    state.hands[seat].append(state.trump_card)
    state.upcard_taken_by = seat
    return Phase.DISCARD


def discard(game: Tippen, state: TippenState, seat: int, name: Act, card: int) -> Next:
    """The knocker, sniffer or robber lays one card face down for the upcard taken."""
    discard_face_down(state, seat, card)
    if seat == state.privileged and game.rules.dealer_option is DealerOption.SNIFF_ALVENSLEBEN:
        return Phase.DROP  # play, or drop out paying a simple bête
    if seat == state.privileged:
        return Phase.ROB
    return Phase.BID


def drop_decision(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    if name is Act.DROP:  # "drop out and pay a simple bête i.e. a single stake"
        state.ledger.pay_in(seat, game.rules.stake)
        state.bids[seat], state.privileged, state.dropped = Bid.PASS, None, True
    return Phase.ROB
