"""Fipsen's card play: Thedinghausen's fipsen call, the legal cards, and each trick's consequence.

Kept apart from the auction and from scoring because the two families play differently
(Thedinghausen: follow and overtake, else trump and overtrump, every trick counts in the race;
Holstein and Mecklenburg: follow suit else any card, play stops once Grossenaspe's bid is
decided) while the trick itself is the shared one in trickplay.py. Plain functions of
(game, state, ...), like observe.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.trickplay import play_card as play_trick_card
from rams_env.core.tricks import PlayRules
from rams_env.core.turns import ask_next
from rams_env.games.fipsen import settle
from rams_env.games.fipsen.state import TRICKS, FipsenState, Phase

if TYPE_CHECKING:
    from rams_env.games.fipsen.game import Fipsen

HOLSTEIN_PLAY = PlayRules(follow=True)  # "follow suit if able, otherwise may discard"
THEDINGHAUSEN_PLAY = PlayRules(follow=True, trump_when_void=True, head=True)  # overtake; trump and overtrump


def legal(game: Fipsen, state: FipsenState, seat: int) -> list[int]:
    """The cards ``seat`` may play to the current trick, as action ids."""
    rules = THEDINGHAUSEN_PLAY if game.thedinghausen else HOLSTEIN_PLAY
    cards_ = game.order(state).legal_plays(state.hands[seat], [c for _, c in state.trick], rules)
    return game.actions.card_actions("play", cards_)


def call(game: Fipsen, state: FipsenState, seat: int, fipsen: bool) -> None:
    """Thedinghausen: in turn, announce "fipsen" (all five tricks) or pass; a call starts play at once."""
    if fipsen:
        state.fipsen = seat
    if fipsen or not ask_next(state):
        begin_play(game, state)


def begin_play(game: Fipsen, state: FipsenState) -> None:
    state.phase = Phase.PLAY
    state.leader = state.to_act = (state.dealer + 1) % game.num_players  # forehand leads


def play_card(game: Fipsen, state: FipsenState, seat: int, card_id: int) -> None:
    if play_trick_card(state, seat, card_id, game.order(state), lambda s: True) is None:
        return
    if game.thedinghausen:
        settle.race_trick(game, state, state.leader)
    else:
        _check_contract(game, state)


def _check_contract(game: Fipsen, state: FipsenState) -> None:
    """Grossenaspe ends play once the bid is made or lost; elsewhere all five tricks are played."""
    contract, seat = game.ladder[state.contract], state.declarer
    target = TRICKS if state.playing_on else contract.tricks
    won, lost = state.tricks_won[seat], state.tricks_played - state.tricks_won[seat]
    if game.spec.play_on and lost > TRICKS - target:
        settle.award(game, state, seat, state.contract, made=state.playing_on, reason="failed",
                     failed_durch=state.playing_on)
    elif state.tricks_played == TRICKS:
        settle.award(game, state, seat, state.contract, made=won >= target, reason="played",
                     durch=won == TRICKS)
    elif game.spec.play_on and won >= target and not state.playing_on and target < TRICKS:
        state.phase, state.to_act = Phase.PLAY_ON, seat  # only while tricks remain to play for


def play_on(game: Fipsen, state: FipsenState, seat: int, on: bool) -> None:
    """Grossenaspe: the bid is made; play on for a Durch (doubled, or lost), or stop and score it."""
    if on:
        state.playing_on, state.phase = True, Phase.PLAY
        state.to_act = state.leader
    else:
        settle.award(game, state, seat, state.contract, made=True, reason="stopped")
