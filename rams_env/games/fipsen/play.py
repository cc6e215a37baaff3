"""Fipsen's card play: Thedinghausen's fipsen call, the legal cards, and each trick's consequence.

Kept apart from the auction and from scoring because the two families play differently
(Thedinghausen: follow and overtake, else trump and overtrump, every trick counts in the race;
Holstein and Mecklenburg: follow suit else any card, play stops once Grossenaspe's bid is
decided) while the trick itself is the shared one in trickplay.py. Plain functions of
(game, state, ...): legal actions, handlers and ``enter`` of the phase table in game.py, each
returning the phase that follows (see rams_env/core/phases.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.phases import END, Next
from rams_env.core.seating import seats_from
from rams_env.core.trickplay import play_card as play_trick_card
from rams_env.core.tricks import PlayRules
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.fipsen import settle
from rams_env.games.fipsen.state import TRICKS, Act, FipsenState, Phase

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

HOLSTEIN_PLAY = PlayRules(follow=True)  # "follow suit if able, otherwise may discard"
THEDINGHAUSEN_PLAY = PlayRules(follow=True, trump_when_void=True, head=True)  # overtake; trump and overtrump


def legal(game: Fipsen, state: FipsenState) -> list[int]:
    """The cards the player to act may play to the current trick, as action ids."""
    rules = THEDINGHAUSEN_PLAY if game.thedinghausen else HOLSTEIN_PLAY
    cards_ = game.order(state).legal_plays(state.hands[state.to_act], [c for _, c in state.trick], rules)
    return game.actions.card_actions(Act.PLAY, cards_)


def begin_call(game: Fipsen, state: FipsenState) -> Next:
    """Thedinghausen: everyone in turn from forehand may call "fipsen"."""
    ask_in_turn(state, seats_from(game.num_players, state.dealer + 1))
    return None


def call(game: Fipsen, state: FipsenState, seat: int, name: Act, item: int) -> Next:
    """Thedinghausen: in turn, announce "fipsen" (all five tricks) or pass; a call starts play at once."""
    if name is Act.FIPSEN:
        state.fipsen = seat
        return Phase.PLAY
    return None if ask_next(state) else Phase.PLAY


def begin_play(game: Fipsen, state: FipsenState) -> Next:
    """The leader leads: forehand to the first trick, the last trick's winner after Grossenaspe's play-on."""
    if state.tricks_played == 0:
        state.leader = (state.dealer + 1) % game.num_players
    state.to_act = state.leader
    return None


def play_card(game: Fipsen, state: FipsenState, seat: int, name: Act, card: int) -> Next:
    if play_trick_card(state, seat, card, game.order(state), lambda s: True) is None:
        return None
    if game.thedinghausen:
        settle.race_trick(game, state, state.leader)
        return END if state.tricks_played == TRICKS else None  # the fifth trick settles the deal
    return _check_contract(game, state)


def _check_contract(game: Fipsen, state: FipsenState) -> Next:
    """Grossenaspe ends play once the bid is made or lost; elsewhere all five tricks are played."""
    contract, seat = game.ladder[state.contract], state.declarer
    target = TRICKS if state.playing_on else contract.tricks
    won, lost = state.tricks_won[seat], state.tricks_played - state.tricks_won[seat]
    if game.spec.play_on and lost > TRICKS - target:
        settle.award(game, state, seat, state.contract, made=state.playing_on, reason="failed",
                     failed_durch=state.playing_on)
        return END
    if state.tricks_played == TRICKS:
        settle.award(game, state, seat, state.contract, made=won >= target, reason="played",
                     durch=won == TRICKS)
        return END
    if game.spec.play_on and won >= target and not state.playing_on and target < TRICKS:
        state.to_act = seat  # only while tricks remain to play for
        return Phase.PLAY_ON
    return None


def play_on(game: Fipsen, state: FipsenState, seat: int, name: Act, item: int) -> Next:
    """Grossenaspe: the bid is made; play on for a Durch (doubled, or lost), or stop and score it."""
    if name is Act.PLAY_ON:
        state.playing_on = True
        return Phase.PLAY
    settle.award(game, state, seat, state.contract, made=True, reason="stopped")
    return END
