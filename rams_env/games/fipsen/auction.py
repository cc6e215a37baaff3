"""Fipsen's auction and the declarer's preparations (the Holstein and Mecklenburg games).

Kept apart from card play and scoring because this is where the regional variants differ
most: who may bid what on the ladder (open, Prisdorf's holding, Duttfips' single round), and
what the winner then does (pick up skat, Kieker cards or Dutt, discard, concede a Kieker,
name trumps). Plain functions of (game, state, ...): legal actions, handlers and ``enter`` of the
phase table in game.py, each returning the phase that follows (see rams_env/core/phases.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import NUM_CARD_CODES, card, rank_of
from rams_env.core.exchange import discard_face_down
from rams_env.core.phases import END, Next
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.fipsen import settle
from rams_env.games.fipsen.contracts import Contract, Talon, Trumps
from rams_env.games.fipsen.rules import Auction, Variant
from rams_env.games.fipsen.state import Act, FipsenState, Phase

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

COURTS = ("K", "Q", "J")
TALON_DISCARDS = {Talon.NONE: 0, Talon.SKAT: 2, Talon.KIEKER: 5, Talon.KIEKER_ALL: 7, Talon.DUTT: 5}
KIEKER_CONCESSION = 5  # Grossenaspe: "the declarer may fold and concede 5 points"
MAX_REDEALS = 50
"""After this many all-pass redeals in a row the deal ends unplayed (keeps an episode finite)."""


# ---------------------------------------------------------------------- bids
def _ids_of_rank(*ranks: str) -> frozenset[int]:
    """Every card id of ``ranks``: a hand is tested against it in C (the auction asks at every bid)."""
    return frozenset(c for c in range(NUM_CARD_CODES) if rank_of(c) in ranks)


COURT_IDS, SEVEN_IDS, ACE_IDS = _ids_of_rank(*COURTS), _ids_of_rank("7"), _ids_of_rank("A")
RUTENAS = card("Ad")


def eligible(state: FipsenState, seat: int, contract: Contract) -> bool:
    """Whether ``seat`` holds what ``contract`` needs (no courts, the Rutenas, a Siebener)."""
    hand, needs = state.hands[seat], contract.needs
    if needs == "no_courts":
        return COURT_IDS.isdisjoint(hand)
    if needs == "rutenas":
        return RUTENAS in hand
    if needs == "siebener":
        return len(SEVEN_IDS.intersection(hand)) == 4 and not ACE_IDS.isdisjoint(hand)
    return True


def bids_above(game: Fipsen, state: FipsenState, seat: int, level: int | None) -> list[int]:
    low, first = -1 if level is None else level, game.actions.id(Act.BID)
    return [first + i for i, c in enumerate(game.ladder) if i > low and eligible(state, seat, c)]


def legal(game: Fipsen, state: FipsenState) -> list[int]:
    """Legal auction actions: bids above the highest, pass, and (Prisdorf) hold."""
    ids, auction = game.ids, game.spec.auction
    bids = bids_above(game, state, state.to_act, state.highest)
    if auction is Auction.SINGLE_ROUND and state.highest is None:
        return bids  # Duttfips: forehand may not pass
    if auction is Auction.HOLD and state.holder_to_answer:
        return sorted([ids[Act.HOLD], ids[Act.PASS], *bids])
    return sorted([ids[Act.PASS], *bids])


# ------------------------------------------------------------------- auction
def begin(game: Fipsen, state: FipsenState) -> Next:
    """Forehand opens; the others follow in turn (Prisdorf: each enters against the holder)."""
    forehand = (state.dealer + 1) % game.num_players
    ask_in_turn(state, seats_from(game.num_players, forehand))
    if game.spec.auction is Auction.HOLD:  # "Beginning with forehand": she opens (bid or pass), nobody holds yet
        state.holder, state.challenger = None, forehand
    return None


def step(game: Fipsen, state: FipsenState, seat: int, name: Act, level: int) -> Next:
    """One bid, hold or pass, under the variant's auction."""
    if name is Act.BID:
        state.highest, state.highest_bidder = level, seat
        if game.ladder[level].needs == "siebener":  # wins without play
            settle.award(game, state, seat, level, made=True, reason="siebener_fips")
            return END
    elif name is Act.PASS:
        state.passed[seat] = True
    if game.spec.auction is Auction.HOLD:
        return _hold_step(game, state, seat, name)
    if game.spec.auction is Auction.SINGLE_ROUND:
        return _next_bidder(game, state, state.to_act if ask_next(state) else None)
    return _open_step(game, state, seat)


def _open_step(game: Fipsen, state: FipsenState, seat: int) -> Next:
    """In turn: bid higher or pass (for good) until one bidder is left."""
    n = game.num_players
    nxt = next_seat(n, seat, lambda s: not state.passed[s] and s != state.highest_bidder)
    if state.highest is None and all(state.passed):
        nxt = None
    return _next_bidder(game, state, nxt)


def _hold_step(game: Fipsen, state: FipsenState, seat: int, name: Act) -> Next:
    """Prisdorf: players enter in turn from forehand; the earlier of the bidding pair holds, bids higher or
    passes on each higher bid of the later one; whoever of the pair passes makes way for the next player."""
    if state.holder is None:  # nobody has bid yet: the entering player opened or passed
        if name is Act.BID:
            state.holder = seat
        return _next_challenger(game, state)
    if seat == state.challenger and name is Act.BID:
        state.holder_to_answer, state.to_act = True, state.holder
        return None
    if seat == state.holder and name is not Act.PASS:  # hold (same level) or bid higher still
        if name is Act.HOLD:
            state.highest_bidder = state.holder
        state.holder_to_answer, state.to_act = False, state.challenger
        return None
    if seat == state.holder:  # the holder passes: the challenger's bid stands and she holds from now on
        state.holder = state.challenger
    state.holder_to_answer = False
    return _next_challenger(game, state)


def _next_challenger(game: Fipsen, state: FipsenState) -> Next:
    """The challenger (first in the queue) is out of the pair or has become its holder: the next player in
    turn enters the auction; when none is left it ends (declarer, or a redeal)."""
    state.challenger = state.to_act if ask_next(state) else None
    if state.challenger is not None:
        return None
    return _next_bidder(game, state, None)


def _next_bidder(game: Fipsen, state: FipsenState, seat: int | None) -> Next:
    if seat is not None:
        state.to_act = seat
        return None
    if state.highest is None:  # all pass: the same dealer deals again
        state.redeals += 1
        if state.redeals > MAX_REDEALS:
            game.end_deal(state, "all_passed")
            return END
        state.clear_deal(redeal=True)
        return game.deal_cards(state, None)
    return _won_auction(game, state)


# -------------------------------------------------------------- the declarer
def _won_auction(game: Fipsen, state: FipsenState) -> Next:
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
    return Phase.DISCARD if state.to_discard else _after_discards(game, state)


def legal_discard(game: Fipsen, state: FipsenState) -> list[int]:
    """Any card of the declarer's hand, face down."""
    return game.actions.card_actions(Act.DISCARD, state.hands[state.to_act])


def discard(game: Fipsen, state: FipsenState, seat: int, name: Act, card: int) -> Next:
    discard_face_down(state, seat, card)
    state.to_discard -= 1
    return _after_discards(game, state) if state.to_discard == 0 else None


def _after_discards(game: Fipsen, state: FipsenState) -> Next:
    contract = game.ladder[state.contract]
    return Phase.KIEKER if contract.talon is Talon.KIEKER_ALL else _choose_trumps(game, state)


def kieker(game: Fipsen, state: FipsenState, seat: int, name: Act, item: int) -> Next:
    if name is Act.CONCEDE:
        settle.record(game, state, seat, -KIEKER_CONCESSION, "kieker_conceded")
        return END
    return _choose_trumps(game, state)


def trump_choices(game: Fipsen) -> list[int]:
    """Any suit of the pack; in Mecklenburg diamonds (the Rutenas alone) is a bid of its own."""
    if game.rules.variant in (Variant.ANSEGGERFIPS, Variant.DUTTFIPS):
        return [s for s in game.suits if s != game.preference]
    return list(game.suits)


def legal_trump(game: Fipsen, state: FipsenState) -> list[int]:
    return [game.actions.id(Act.TRUMP, s) for s in trump_choices(game)]


def name_trumps(game: Fipsen, state: FipsenState, seat: int, name: Act, suit: int) -> Next:
    state.trump = suit
    return Phase.PLAY


def _choose_trumps(game: Fipsen, state: FipsenState) -> Next:
    if game.ladder[state.contract].trumps is Trumps.PREFERENCE:
        state.trump = game.preference
        return Phase.PLAY
    return Phase.TRUMP
