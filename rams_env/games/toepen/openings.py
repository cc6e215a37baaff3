"""Toepen before the first card: dirty hands and their challenges, announcements, the poverty raise.

Kept apart because these are the deal's optional openings ("Deal", "Announcing tens and
jacks", "Variations"), each switched by a rule and each a source of bluffing, and they
change for other reasons than knocking and trick play. They hand over to play.py: the
poverty raise asks for stays and folds, then trick play begins. Plain functions of
(game, state, ...), like observe.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import rank_of
from rams_env.core.seating import seats_from
from rams_env.games.toepen import play
from rams_env.games.toepen.state import HAND_SIZE, Phase, Signal, ToepenState

if TYPE_CHECKING:
    from rams_env.games.toepen.game import Toepen

DIRTY_RANKS = frozenset({"A", "K", "Q", "J"})
"""A hand of only these ranks may be discarded honestly ("Deal")."""


# ---------------------------------------------------------- dirty hands ("Deal")
def begin_dirty(game: Toepen, state: ToepenState) -> None:
    if game.rules.dirty_hands and len(state.stock) >= HAND_SIZE:
        state.queue = seats_from(game.num_players, state.leader, state.in_play)
        state.phase = Phase.DIRTY
        state.to_act = state.queue[0]
    else:
        _begin_announce(game, state)


def dirty_decision(game: Toepen, state: ToepenState, seat: int, discard: bool) -> None:
    """Keep the hand, or discard it as dirty (perhaps a bluff) for four new cards, open to challenge."""
    if not discard:
        state.queue.pop(0)
        _continue_dirty(game, state)
        return
    state.claim, state.claimant = state.hands[seat], seat
    state.hands[seat], state.stock = state.stock[:HAND_SIZE], state.stock[HAND_SIZE:]
    state.redraws[seat] += 1
    state.phase = Phase.CHALLENGE
    state.challengers = seats_from(game.num_players, seat + 1, lambda s: state.in_play(s) and s != seat)
    state.to_act = state.challengers[0]


def challenge_decision(game: Toepen, state: ToepenState, seat: int, challenge: bool) -> None:
    """A challenge turns the claim face up: whoever was wrong loses a life."""
    claimant = state.claimant
    if challenge:
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
            return
        state.face_down[claimant].extend(state.claim)
    state.claim, state.claimant = [], None
    _continue_dirty(game, state)


def _continue_dirty(game: Toepen, state: ToepenState) -> None:
    if state.queue and len(state.stock) >= HAND_SIZE:
        state.phase = Phase.DIRTY
        state.to_act = state.queue[0]
    else:
        _begin_announce(game, state)


# ---------------------------------------------- announcements ("Announcing tens...")
def _count(hand: list[int], rank: str) -> int:
    return sum(rank_of(c) == rank for c in hand)


def may_announce_jacks(state: ToepenState, seat: int) -> bool:
    """Three or four jacks may whistle or stand up (three or four tens already had to)."""
    hand = state.hands[seat]
    return _count(hand, "J") >= 3 and _count(hand, "10") < 3


def _begin_announce(game: Toepen, state: ToepenState) -> None:
    """Tens are announced at once (they must be); then every player still in is asked in turn whether she
    announces jacks, ``silent`` being the only answer without them, so that being asked reveals nothing."""
    if not game.rules.announcements:
        _begin_poverty(game, state)
        return
    seats = seats_from(game.num_players, state.leader, state.in_play)
    for seat in seats:
        tens = _count(state.hands[seat], "10")
        if tens >= 3:
            state.signals[seat] = Signal.STAND if tens == 4 else Signal.WHISTLE
    game.jack_announcement.begin(state, seats)
    state.phase = Phase.ANNOUNCE


def announce_decision(game: Toepen, state: ToepenState, seat: int, announce: bool) -> None:
    if announce:
        state.signals[seat] = Signal.STAND if _count(state.hands[seat], "J") == 4 else Signal.WHISTLE
    if not game.jack_announcement.ask_next(state):
        _begin_poverty(game, state)


# ------------------------------------------------------- poverty ("Variations")
def _poor(game: Toepen, state: ToepenState, seat: int) -> bool:
    return state.lives_left(seat, game.rules.lives) == 1


def _begin_poverty(game: Toepen, state: ToepenState) -> None:
    in_play = seats_from(game.num_players, state.leader, state.in_play)
    if game.rules.poverty and any(_poor(game, state, s) for s in in_play):
        state.stake = 2
        state.breakdown["poverty"] = True
        responders = [s for s in in_play if not _poor(game, state, s)]
        if responders:
            play.ask_responses(state, responders, resume=None)
            return
    play.begin_trick_play(game, state)
