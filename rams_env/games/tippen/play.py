"""Tippen's card play: the legal cards and the tricks.

Kept apart because the rule sets differ here in their own way (heading, trumping, the 1859
trump lead and trump ace to the second trick), while the trick itself is the shared one in
trickplay.py and the settlement the pot games' (rams_env/core/potgame.py, with the shares and
bêtes of TippenRules). Plain functions of (game, state, ...); the phase table in game.py calls them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import rank_of, suit_of
from rams_env.core.phases import END, Next
from rams_env.core.seating import next_seat
from rams_env.core.trickplay import play_card as play_trick_card
from rams_env.core.tricks import Lead
from rams_env.games.tippen.state import Act, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen


PLAY, FREE_LEAD = Act.PLAY, Lead.ANY
"""Read at every decision, so bound to module names (see ``StateEnum``: a member read from its class is dear)."""


# -------------------------------------------------------------------- tricks
def legal(game: Tippen, state: TippenState) -> list[int]:
    """The cards the player to act may play, as action ids."""
    seat, order = state.to_act, game.order(state)
    hand, lead = state.hands[seat], FREE_LEAD
    if (not state.trick and state.tricks_played == 0 and game.rules.first_lead_trump
            and sum(state.active(s) for s in range(game.num_players)) >= 3):
        lead = Lead.TRUMP_IF_ABLE  # 1859: "the first must lead a trump" (at three players or more)
    if (not state.trick and state.tricks_played == 1 and game.rules.ace_to_second_trick
            and seat == state.first_trick_winner):  # the hand searched only then: legal runs at every card
        ace = next((c for c in hand if rank_of(c) == "A" and suit_of(c) == state.trump), None)
        if ace is not None:
            return game.actions.card_actions(Act.PLAY, [ace])  # 1859: the first trick's winner leads the trump ace
    cards_ = order.legal_plays(hand, [c for _, c in state.trick], game.play_rules, lead)
    return game.actions.card_actions(PLAY, cards_)


def begin_play(game: Tippen, state: TippenState) -> Next:
    state.pending = 0
    game.begin_play(state, next_seat(game.num_players, state.dealer, state.active))
    return None


def play_card(game: Tippen, state: TippenState, seat: int, name: Act, card: int) -> Next:
    if play_trick_card(state, seat, card, game.order(state), state.active) is None:
        return None
    if state.tricks_played == 1:
        state.first_trick_winner = state.leader
    if state.tricks_played == game.rules.hand_size:
        game.settle(state)
        game.end_deal(state, "played")
        return END
    return None

