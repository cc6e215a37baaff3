"""Tippen's card play and settlement: the legal cards, the tricks, shares and bêtes.

Kept apart because the rule sets differ here in their own way (heading, trumping, the 1859
trump lead and trump ace to the second trick; a third of the pot or one counter per trick;
a bête of the pot or one stake; the privileged dealer's scale), while the trick itself is the
shared one in trickplay.py. Every way a deal ends goes through :func:`end_deal`. Plain
functions of (game, state, ...); the phase table in game.py calls the play phase's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rams_env.core.cards import rank_of, suit_of
from rams_env.core.phases import END, Next
from rams_env.core.potgame import net_results
from rams_env.core.seating import next_seat
from rams_env.core.trickplay import play_card as play_trick_card
from rams_env.core.tricks import Lead
from rams_env.games.tippen.rules import Bete, DealerOption, TrickPays
from rams_env.games.tippen.state import Act, TippenState

if TYPE_CHECKING:
    from rams_env.games.tippen.game import Tippen


# -------------------------------------------------------------------- tricks
def legal(game: Tippen, state: TippenState) -> list[int]:
    """The cards the player to act may play, as action ids."""
    seat, start, index = state.to_act, game.actions.start[Act.PLAY], game.pack().index
    order = game.order(state)
    hand, lead = state.hands[seat], Lead.ANY
    if (not state.trick and state.tricks_played == 0 and game.rules.first_lead_trump
            and sum(state.active(s) for s in range(game.num_players)) >= 3):
        lead = Lead.TRUMP_IF_ABLE  # 1859: "the first must lead a trump" (at three players or more)
    ace = next((c for c in hand if rank_of(c) == "A" and suit_of(c) == state.trump), None)
    if (not state.trick and state.tricks_played == 1 and game.rules.ace_to_second_trick
            and seat == state.first_trick_winner and ace is not None):
        return [start + index[ace]]  # 1859: the first trick's winner leads the trump ace
    cards_ = order.legal_plays(hand, [c for _, c in state.trick], game.play_rules, lead)
    return sorted(start + index[c] for c in cards_)


def begin_play(game: Tippen, state: TippenState) -> Next:
    state.pending = 0
    state.pot_at_play = state.ledger.pot
    state.leader = state.to_act = next_seat(game.num_players, state.dealer, state.active)
    return None


def play_card(game: Tippen, state: TippenState, seat: int, name: Act, item: int) -> Next:
    if play_trick_card(state, seat, game.pack().cards[item], game.order(state), state.active) is None:
        return None
    if state.tricks_played == 1:
        state.first_trick_winner = state.leader
    if state.tricks_played == game.rules.hand_size:
        _settle(game, state)
        return END
    return None


# ---------------------------------------------------------------- settlement
def _per_trick(game: Tippen, pot: int) -> int:
    pays, stake = game.rules.trick_pays, game.rules.stake
    if pays is TrickPays.COUNTER or (pays is TrickPays.COUNTER_THEN_THIRD and pot == stake):
        return 1
    return pot // 3


def _bete(game: Tippen, pot: int) -> int:
    return pot if game.rules.bete is Bete.POT else game.rules.stake


def _penalty(game: Tippen, state: TippenState, seat: int, pot: int) -> int:
    """What a player pays after play: the bête, or the privileged dealer's own scale."""
    tricks, bete, option = state.tricks_won[seat], _bete(game, pot), game.rules.dealer_option
    if seat != state.privileged:
        return bete if tricks == 0 else 0
    if option is DealerOption.KNOCK:  # "double stake" with no trick, "single stake" with one
        return game.rules.stake * max(0, 2 - tricks)
    if option is DealerOption.SNIFF_GRUPP:  # must take two tricks: single bête for one, double for none
        return bete * max(0, 2 - tricks)
    return 2 * bete if tricks == 0 else 0  # Alvensleben: a sniffer without a trick pays a double bête


def _settle(game: Tippen, state: TippenState) -> None:
    ledger, pot = state.ledger, state.pot_at_play
    active = [s for s in range(game.num_players) if state.active(s)]
    per_trick = _per_trick(game, pot)
    shares = {s: per_trick * state.tricks_won[s] for s in active}
    penalties = {s: _penalty(game, state, s, pot) for s in active}
    ledger.settle_tricks(shares, penalties)
    state.breakdown.update({"shares": shares, "betes": penalties, "pot_at_play": pot,
                            "tricks_won": list(state.tricks_won)})
    end_deal(game, state, "played")


def end_deal(game: Tippen, state: TippenState, reason: str) -> None:
    state.breakdown.update({"reason": reason, "privileged": state.privileged, "pot": state.ledger.pot,
                            "set_aside": state.ledger.set_aside, "paid_in": list(state.ledger.paid_in)})
    state.dealer = (state.dealer + 1) % game.num_players
    state.deal_over, state.to_act, state.queue = True, None, []


def update_scores(state: TippenState) -> None:
    state.scores = net_results(state.ledger, state.session_start)
