"""Fipsen's auction and the declarer's preparations (the Holstein and Mecklenburg games).

Kept apart from card play and scoring because this is where the regional variants differ
most: who may bid what on the ladder (open, Prisdorf's holding, Duttfips' single round), and
what the winner then does (pick up skat, Kieker cards or Dutt, discard, concede a Kieker,
name trumps). Plain functions of (game, state, ...), like observe.py; the engine dispatches here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import card, rank_of
from rams_env.core.exchange import discard_face_down
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.fipsen import play, settle
from rams_env.games.fipsen.contracts import Contract, Talon, Trumps
from rams_env.games.fipsen.rules import Auction, Variant
from rams_env.games.fipsen.state import FipsenState, Phase

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

COURTS = ("K", "Q", "J")
TALON_DISCARDS = {Talon.NONE: 0, Talon.SKAT: 2, Talon.KIEKER: 5, Talon.KIEKER_ALL: 7, Talon.DUTT: 5}
KIEKER_CONCESSION = 5  # Grossenaspe: "the declarer may fold and concede 5 points"
MAX_REDEALS = 50
"""After this many all-pass redeals in a row the deal ends unplayed (keeps an episode finite)."""


# ---------------------------------------------------------------------- bids
def eligible(state: FipsenState, seat: int, contract: Contract) -> bool:
    """Whether ``seat`` holds what ``contract`` needs (no courts, the Rutenas, a Siebener)."""
    hand, needs = state.hands[seat], contract.needs
    if needs == "no_courts":
        return not any(rank_of(c) in COURTS for c in hand)
    if needs == "rutenas":
        return card("Ad") in hand
    if needs == "siebener":
        return sum(rank_of(c) == "7" for c in hand) == 4 and any(rank_of(c) == "A" for c in hand)
    return True


def bids_above(game: Fipsen, state: FipsenState, seat: int, level: int | None) -> list[int]:
    low = -1 if level is None else level
    return [game.actions.id("bid", i) for i, c in enumerate(game.ladder) if i > low and eligible(state, seat, c)]


def legal(game: Fipsen, state: FipsenState, seat: int) -> list[int]:
    """Legal auction actions: bids above the highest, pass, and (Prisdorf) hold."""
    ids, auction = game.ids, game.spec.auction
    bids = bids_above(game, state, seat, state.highest)
    if auction is Auction.SINGLE_ROUND and state.highest is None:
        return bids  # Duttfips: forehand may not pass
    if auction is Auction.HOLD and state.holder_to_answer:
        return sorted([ids["hold"], ids["pass"], *bids])
    return sorted([ids["pass"], *bids])


# ------------------------------------------------------------------- auction
def begin(game: Fipsen, state: FipsenState, forehand: int) -> None:
    state.phase = Phase.AUCTION
    ask_in_turn(state, seats_from(game.num_players, forehand))
    if game.spec.auction is Auction.HOLD:  # "Beginning with forehand": she opens (bid or pass), nobody holds yet
        state.holder, state.challenger = None, forehand


def step(game: Fipsen, state: FipsenState, seat: int, name: str, level: int) -> None:
    """One bid, hold or pass, under the variant's auction."""
    if name == "bid":
        state.highest, state.highest_bidder = level, seat
        if game.ladder[level].needs == "siebener":  # wins without play
            settle.award(game, state, seat, level, made=True, reason="siebener_fips")
            return
    elif name == "pass":
        state.passed[seat] = True
    if game.spec.auction is Auction.HOLD:
        _hold_step(game, state, seat, name)
    elif game.spec.auction is Auction.SINGLE_ROUND:
        _next_bidder(game, state, state.to_act if ask_next(state) else None)
    else:
        _open_step(game, state, seat)


def _open_step(game: Fipsen, state: FipsenState, seat: int) -> None:
    """In turn: bid higher or pass (for good) until one bidder is left."""
    n = game.num_players
    nxt = next_seat(n, seat, lambda s: not state.passed[s] and s != state.highest_bidder)
    if state.highest is None and all(state.passed):
        nxt = None
    _next_bidder(game, state, nxt)


def _hold_step(game: Fipsen, state: FipsenState, seat: int, name: str) -> None:
    """Prisdorf: players enter in turn from forehand; the earlier of the bidding pair holds, bids higher or
    passes on each higher bid of the later one; whoever of the pair passes makes way for the next player."""
    if state.holder is None:  # nobody has bid yet: the entering player opened or passed
        if name == "bid":
            state.holder = seat
        _next_challenger(game, state)
        return
    if seat == state.challenger and name == "bid":
        state.holder_to_answer, state.to_act = True, state.holder
        return
    if seat == state.holder and name != "pass":  # hold (same level) or bid higher still
        if name == "hold":
            state.highest_bidder = state.holder
        state.holder_to_answer, state.to_act = False, state.challenger
        return
    if seat == state.holder:  # the holder passes: the challenger's bid stands and she holds from now on
        state.holder = state.challenger
    state.holder_to_answer = False
    _next_challenger(game, state)


def _next_challenger(game: Fipsen, state: FipsenState) -> None:
    """The challenger (first in the queue) is out of the pair or has become its holder: the next player in
    turn enters the auction; when none is left it ends (declarer, or a redeal)."""
    state.challenger = state.to_act if ask_next(state) else None
    if state.challenger is None:
        _next_bidder(game, state, None)


def _next_bidder(game: Fipsen, state: FipsenState, seat: int | None) -> None:
    if seat is not None:
        state.to_act = seat
    elif state.highest is None:  # all pass: the same dealer deals again
        state.redeals += 1
        if state.redeals > MAX_REDEALS:
            game.end_deal(state, "all_passed")
            return
        state.clear_deal(redeal=True)
        game.deal_cards(state, None)
    else:
        _won_auction(game, state)


# -------------------------------------------------------------- the declarer
def _won_auction(game: Fipsen, state: FipsenState) -> None:
    """The highest bidder declares and picks up what the contract's talon gives her."""
    seat, contract = state.highest_bidder, game.ladder[state.highest]
    state.declarer, state.contract, state.to_act = seat, state.highest, seat
    talon = contract.talon
    if talon is Talon.KIEKER_ALL:
        state.face_down[seat].extend(state.hands[seat])
        state.hands[seat] = []
    if talon in (Talon.SKAT, Talon.DUTT, Talon.KIEKER, Talon.KIEKER_ALL):
        state.hands[seat].extend(state.skat)
        state.skat = []
    if talon in (Talon.KIEKER, Talon.KIEKER_ALL):
        state.hands[seat].extend(state.aside)
        state.aside = []
    state.to_discard = TALON_DISCARDS[talon]
    if state.to_discard:
        state.phase = Phase.DISCARD
    else:
        _after_discards(game, state)


def discard(game: Fipsen, state: FipsenState, seat: int, card_id: int) -> None:
    discard_face_down(state, seat, card_id)
    state.to_discard -= 1
    if state.to_discard == 0:
        _after_discards(game, state)


def _after_discards(game: Fipsen, state: FipsenState) -> None:
    contract = game.ladder[state.contract]
    if contract.talon is Talon.KIEKER_ALL:
        state.phase = Phase.KIEKER
    else:
        _choose_trumps(game, state)


def kieker(game: Fipsen, state: FipsenState, seat: int, concede: bool) -> None:
    if concede:
        settle.record(game, state, seat, -KIEKER_CONCESSION, "kieker_conceded")
    else:
        _choose_trumps(game, state)


def trump_choices(game: Fipsen) -> list[int]:
    """Any suit of the pack; in Mecklenburg diamonds (the Rutenas alone) is a bid of its own."""
    if game.rules.variant in (Variant.ANSEGGERFIPS, Variant.DUTTFIPS):
        return [s for s in game.suits if s != game.preference]
    return list(game.suits)


def _choose_trumps(game: Fipsen, state: FipsenState) -> None:
    if game.ladder[state.contract].trumps is Trumps.PREFERENCE:
        state.trump = game.preference
        play.begin_play(game, state)
    else:
        state.phase = Phase.TRUMP
