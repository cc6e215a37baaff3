"""Toepen's four tricks with knocks, stays and folds, and the settlement in lives.

Kept apart from the deal's openings because knocking and card play are one loop: a knock
(on one's turn, or in any-time windows after every card) asks everyone still in to stay or
fold, then play resumes; a trick whose last player folded is complete. Toepen keeps its own
trick bookkeeping instead of trickplay.py because folded players and the folded-winner
rule change who plays and who wins. Plain functions of (game, state, ...): legal actions, handlers
and ``enter`` of the phase table in game.py, each returning the phase that follows
(see rams_env/core/phases.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rams_env.core.phases import END, Next
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.tricks import PlayRules, winner_with_precedence
from rams_env.core.turns import ask_first
from rams_env.games.toepen.rules import FoldedWinner, KnockTiming
from rams_env.games.toepen.state import TRICKS, Act, Phase, ToepenState

if TYPE_CHECKING:
    from rams_env.games.toepen.game import Toepen

FOLLOW_SUIT = PlayRules(follow=True)
"""Must follow suit, else any card; no trumps ("Play of the cards")."""


KNOCK, FOLD, BEFORE_PLAY, ANY_TIME = Act.KNOCK, Act.FOLD, KnockTiming.BEFORE_PLAY, KnockTiming.ANY_TIME
"""Read at every decision, so bound to module names (see ``StateEnum``: a member read from its class is dear)."""


# ---------------------------------------------------------- knocking ("Knocking")
def knock(game: Toepen, state: ToepenState, seat: int) -> Next:
    state.stake += 1
    state.knocks += 1
    state.knocked_by[seat] += 1
    state.last_knocker = seat
    resume = state.phase
    if resume is Phase.WINDOW:
        state.queue.pop(0)
    others = seats_from(game.num_players, seat + 1, lambda s: state.in_play(s) and s != seat)
    return ask_responses(state, others, resume)


def ask_responses(state: ToepenState, responders: list[int], resume: Phase | None) -> Next:
    """Each of ``responders`` stays or folds; then play goes back to ``resume`` (None: trick play begins)."""
    state.responders, state.resume = responders, resume
    state.to_act = responders[0]
    return Phase.RESPOND


def respond(game: Toepen, state: ToepenState, seat: int, name: Act, item: int) -> Next:
    """Folding costs the stake as it was before the knock ("Knocking")."""
    if name is FOLD:
        state.folded[seat] = True
        lose(state, seat, state.stake - 1)
        state.face_down[seat].extend(state.hands[seat])
        state.hands[seat] = []
    state.responders.pop(0)
    if state.responders:
        state.to_act = state.responders[0]
        return None
    still_in = [s for s in range(game.num_players) if state.in_play(s)]
    if len(still_in) == 1:
        _settle(game, state, winner=still_in[0], reason="all_folded")
        return END
    if state.resume is None:
        return begin_trick_play(game, state)
    return state.resume  # the knock window goes on, or card play


def _open_window(game: Toepen, state: ToepenState) -> Next:
    """Any-time knocking: each player still in, from the one to play on, may knock once."""
    state.queue = seats_from(game.num_players, _next_to_play(game, state), state.in_play)
    return Phase.WINDOW


def continue_window(game: Toepen, state: ToepenState) -> Next:
    """The next player in the window who may knock decides; when none is left, play resumes."""
    if ask_first(state, lambda seat: game.can_knock(state, seat)):
        return None
    return Phase.PLAY


def window(game: Toepen, state: ToepenState, seat: int, name: Act, item: int) -> Next:
    """Knock (everyone else still in stays or folds), or pass the window on."""
    if name is KNOCK:
        return knock(game, state, seat)
    state.queue.pop(0)
    return Phase.WINDOW


# ------------------------------------------------------ tricks ("Play of the cards")
def legal(game: Toepen, state: ToepenState) -> list[int]:
    """The cards the player to act may play (and, with before-play knocking, knock), as action ids."""
    seat = state.to_act
    cards = game.order.legal_plays(state.hands[seat], [c for _, c in state.trick], FOLLOW_SUIT)
    legal_ids = game.actions.card_actions("play", cards)
    if game.rules.knock_timing is BEFORE_PLAY and game.can_knock(state, seat):
        legal_ids.append(game.ids[KNOCK])
    return legal_ids


def begin_trick_play(game: Toepen, state: ToepenState) -> Next:
    return _open_window(game, state) if game.rules.knock_timing is ANY_TIME else Phase.PLAY


def resume_play(game: Toepen, state: ToepenState) -> Next:
    """Back to card play; a trick whose last player to act has folded is complete."""
    state.to_act = _next_to_play(game, state)
    return _finish_trick(game, state) if state.to_act is None else None


def _next_to_play(game: Toepen, state: ToepenState) -> int | None:
    """Leader (or the next player still in, if the leader folded), then clockwise."""
    if not state.trick:
        return next_seat(game.num_players, state.leader - 1, state.in_play)
    done = {s for s, _ in state.trick}
    seat = next_seat(game.num_players, state.trick[-1][0], lambda s: state.in_play(s) and s not in done)
    return seat


def play(game: Toepen, state: ToepenState, seat: int, name: Act, card: int) -> Next:
    """A card to the trick, or (before-play knocking) a knock first."""
    if name is KNOCK:
        return knock(game, state, seat)
    return play_card(game, state, seat, card)


def play_card(game: Toepen, state: ToepenState, seat: int, card: int) -> Next:
    state.hands[seat].remove(card)
    state.trick.append((seat, card))
    state.played[seat].append(card)
    if _next_to_play(game, state) is None:
        return _finish_trick(game, state)
    if game.rules.knock_timing is ANY_TIME:
        return _open_window(game, state)
    state.to_act = _next_to_play(game, state)
    return None


def trick_winner(game: Toepen, trick: list[tuple[int, int]], in_play: Sequence[bool]) -> int:
    """The seat taking ``trick`` ((seat, card) in play order); ``in_play[s]``: seat ``s`` has not folded
    (read only under the rule that a folded player cannot take a trick). Public: the bluff study's
    play-outs (evaluation/bluff/winchance.py) call it."""
    if game.rules.folded_winner is FoldedWinner.KEEPS_TRICK:
        return trick[game.order.winning_index([c for _, c in trick])][0]
    return winner_with_precedence(game.order, trick, in_play, game.precedence)


def _trick_winner(game: Toepen, state: ToepenState) -> int:
    return trick_winner(game, state.trick, [state.in_play(s) for s in range(game.num_players)])


def _finish_trick(game: Toepen, state: ToepenState) -> Next:
    winner = _trick_winner(game, state)
    state.tricks_won[winner] += 1
    state.tricks_played += 1
    state.leader, state.trick = winner, []
    if state.tricks_played == TRICKS:
        state.last_trick_winner = winner
        _settle(game, state, winner, reason="last_trick")
        return END
    return begin_trick_play(game, state)


# ----------------------------------------------------------------- settlement
def lose(state: ToepenState, seat: int, lives: int) -> None:
    state.lives_lost[seat] += lives
    state.deal_lost[seat] += lives
    state.scores[seat] -= lives


def _settle(game: Toepen, state: ToepenState, winner: int, reason: str) -> None:
    """Everyone still in except the winner loses the stake; a folded winner saves no one."""
    for seat in range(game.num_players):
        if state.in_play(seat) and (seat != winner or state.folded[winner]):
            lose(state, seat, state.stake)
    state.breakdown.update({
        "reason": reason, "winner": winner, "stake": state.stake, "knocks": state.knocks,
        "folded": list(state.folded), "lives_lost": list(state.deal_lost),
    })
    if game.rules.play_on:
        state.out = [x >= game.rules.lives for x in state.lives_lost]
    state.dealer = winner  # "The winner of the fourth and last trick will deal the next hand"
    state.deal_over, state.to_act, state.queue = True, None, []
