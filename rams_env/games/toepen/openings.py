"""Toepen before the first card: dirty hands and their challenges, announcements, the poverty raise.

Kept apart because these are the deal's optional openings ("Deal", "Announcing tens and
jacks", "Variations"), each switched by a rule and each a source of bluffing, and they
change for other reasons than knocking and trick play. Plain functions of (game, state, ...):
legal actions, handlers and ``enter`` of the phase table in game.py, each returning the phase
that follows (see rams_env/core/phases.py); the poverty raise hands over to play.py's phases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import rank_of
from rams_env.core.phases import Next
from rams_env.core.seating import seats_from
from rams_env.core.turns import ask_first
from rams_env.games.toepen import play
from rams_env.games.toepen.state import HAND_SIZE, Act, Phase, Signal, ToepenState

if TYPE_CHECKING:
    from rams_env.games.toepen.game import Toepen

DIRTY_RANKS = frozenset({"A", "K", "Q", "J"})
"""A hand of only these ranks may be discarded honestly ("Deal")."""


# ---------------------------------------------------------- dirty hands ("Deal")
def begin_dirty(game: Toepen, state: ToepenState) -> Next:
    """Every player still in may discard her hand, in turn from the leader, while the stock lasts."""
    if game.rules.dirty_hands and len(state.stock) >= HAND_SIZE:
        state.queue = seats_from(game.num_players, state.leader, state.in_play)
    return Phase.DIRTY


def continue_dirty(game: Toepen, state: ToepenState) -> Next:
    """The next player to decide on her hand (the claimant again after a claim); none left: announcements."""
    if len(state.stock) >= HAND_SIZE and ask_first(state):
        return None
    return Phase.ANNOUNCE


def dirty_decision(game: Toepen, state: ToepenState, seat: int, name: Act, item: int) -> Next:
    """Keep the hand, or discard it as dirty (perhaps a bluff) for four new cards, open to challenge."""
    if name is Act.KEEP:
        state.queue.pop(0)
        return Phase.DIRTY
    state.claim, state.claimant = state.hands[seat], seat
    state.hands[seat], state.stock = state.stock[:HAND_SIZE], state.stock[HAND_SIZE:]
    state.redraws[seat] += 1
    state.challengers = seats_from(game.num_players, seat + 1, lambda s: state.in_play(s) and s != seat)
    state.to_act = state.challengers[0]
    return Phase.CHALLENGE


def challenge_decision(game: Toepen, state: ToepenState, seat: int, name: Act, item: int) -> Next:
    """A challenge turns the claim face up: whoever was wrong loses a life."""
    claimant = state.claimant
    if name is Act.CHALLENGE:
        honest = all(rank_of(c) in DIRTY_RANKS for c in state.claim)
        play.lose(state, seat if honest else claimant, 1)
        state.revealed.extend(state.claim)
        state.breakdown.setdefault("challenges", []).append(
            {"claimant": claimant, "challenger": seat, "honest": honest})
        state.challengers = []
    else:
        state.challengers.pop(0)
        if state.challengers:
            state.to_act = state.challengers[0]
            return None
        state.face_down[claimant].extend(state.claim)
    state.claim, state.claimant = [], None
    return Phase.DIRTY


# ---------------------------------------------- announcements ("Announcing tens...")
def _count(hand: list[int], rank: str) -> int:
    return sum(rank_of(c) == rank for c in hand)


def may_announce_jacks(state: ToepenState, seat: int) -> bool:
    """Three or four jacks may whistle or stand up (three or four tens already had to)."""
    hand = state.hands[seat]
    return _count(hand, "J") >= 3 and _count(hand, "10") < 3


def begin_announce(game: Toepen, state: ToepenState) -> Next:
    """Tens are announced at once (they must be); then every player still in is asked in turn whether she
    announces jacks, ``silent`` being the only answer without them, so that being asked reveals nothing."""
    if not game.rules.announcements:
        return _begin_poverty(game, state)
    seats = seats_from(game.num_players, state.leader, state.in_play)
    for seat in seats:
        tens = _count(state.hands[seat], "10")
        if tens >= 3:
            state.signals[seat] = Signal.STAND if tens == 4 else Signal.WHISTLE
    game.jack_announcement.begin(state, seats)
    return None


def legal_announce(game: Toepen, state: ToepenState) -> list[int]:
    return game.jack_announcement.legal(state)


def announce_decision(game: Toepen, state: ToepenState, seat: int, name: Act, item: int) -> Next:
    if name is Act.ANNOUNCE:
        state.signals[seat] = Signal.STAND if _count(state.hands[seat], "J") == 4 else Signal.WHISTLE
    return None if game.jack_announcement.ask_next(state) else _begin_poverty(game, state)


# ------------------------------------------------------- poverty ("Variations")
def _poor(game: Toepen, state: ToepenState, seat: int) -> bool:
    return state.lives_left(seat, game.rules.lives) == 1


def _begin_poverty(game: Toepen, state: ToepenState) -> Next:
    """With a player on her last life the stake opens at two: the others stay or fold; then trick play."""
    in_play = seats_from(game.num_players, state.leader, state.in_play)
    if game.rules.poverty and any(_poor(game, state, s) for s in in_play):
        state.stake = 2
        state.breakdown["poverty"] = True
        responders = [s for s in in_play if not _poor(game, state, s)]
        if responders:
            return play.ask_responses(state, responders, resume=None)
    return play.begin_trick_play(game, state)
