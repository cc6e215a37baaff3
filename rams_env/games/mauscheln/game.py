"""Mauscheln (Vierblatt): the rules engine. Source: 003_c37dfd1970c91b7f.txt.

A deal runs: the dealer pays the Pinke and deals four cards each around a turned trump
-> quartet redeals (option) -> the dealer's knock (option) -> sneak or pass -> join or
pass -> exchanges with the talon -> four tricks (follow, else trump, head the trick)
-> shares per trick and bêtes, all through the chip ledger.

PHASE_TABLE (at the end of this module) lists the deal's phases, each with its legal actions,
its handler and the phases that may follow; each handler returns the phase that follows, so a
move goes apply_action -> handler -> the next phase's ``enter``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import NATURAL_ORDER, SUITS, card, rank_of, suit_of
from rams_env.core.exchange import TalonExchange, exchange_segments
from rams_env.core.game import DealSpec, OptionError, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.phases import END, Next, PhaseTable, Step, dealer_acts, offer
from rams_env.core.potgame import PotGame
from rams_env.core.seating import seats_from
from rams_env.core.trickplay import play_card
from rams_env.core.tricks import PlayRules, TrickOrder
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.mauscheln import observe
from rams_env.games.mauscheln.rules import HAND_SIZE, TRICKS, MauschelnRules
from rams_env.games.mauscheln.state import Act, Bid, MauschelnState, Phase

PLAY_RULES = PlayRules(follow=True, trump_when_void=True, head=True)
"""Follow suit, else trump; head the trick if able ("Playing")."""
BELLI, WELI = card("7d"), card("6d")


KNOCKING, PLAY = Phase.KNOCK, Act.PLAY
"""Read at every decision, so bound to module names (see ``StateEnum``: a member read from its class is dear)."""


class Mauscheln(PotGame):
    """Mauscheln for 3 to 5 players (up to 10 with the 52-card pack); see docs/rules/mauscheln.md."""

    name = "mauscheln"
    rules_type = MauschelnRules
    state_type = MauschelnState
    play_phase = Phase.PLAY
    observer = observe
    default_players = 4
    deal_options = ("hands", "stock", "turned")
    card_places = {"hands": Place.SEATS, "face_down": Place.SEATS, "talon": Place.PILE}
    rules: MauschelnRules

    def __init__(self, num_players: int | None = None, rules: MauschelnRules | None = None, *, session=False):
        super().__init__(num_players, rules, session=session)
        self.exchange = TalonExchange(self.actions, self._exchange_limit, self._minimum_discards,
                                      self._give_turn_up)
        """Up to four cards with the talon ("Exchanging"); a knocking dealer exchanges first, for the turn-up."""
        top_trumps = [BELLI] if self.rules.belli else [WELI] if self.rules.weli else []
        self.trick_orders = tuple(TrickOrder(NATURAL_ORDER, trump=t, top_trumps=top_trumps, top_trumps_below=1)
                                  for t in range(len(SUITS)))

    # ------------------------------------------------------------ declarations
    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            play_segment(self.pack()),
            *exchange_segments(self.pack(), "put this card on the bonfire (exchange)"),
            Segment(Act.SNEAK, doc="undertake to win at least two tricks"),
            Segment(Act.JOIN, doc="play along with the sneaker, undertaking a trick"),
            Segment(Act.PASS, doc="drop out of this deal"),
            Segment(Act.KNOCK, doc="dealer: take the game on the high turn-up, unseen hand"),
            Segment(Act.DECLINE, doc="dealer: do not knock"),
        ], names=Act)

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players, self.pack(), self.rules.pinke)

    def order(self, state: MauschelnState) -> TrickOrder:
        """Card strengths with this deal's trump (built once per suit)."""
        return self.trick_orders[state.trump]

    # ------------------------------------------------------------ session/deal
    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"pot": int(self.rules.pinke * rng.integers(0, 8))}

    def check_deal(self, hands, extra) -> None:
        if "turned" in extra and len(extra["turned"]) != 1:
            raise OptionError("option 'deal': 'turned' is one card")

    def start_deal(self, state: MauschelnState, deal: DealSpec | None) -> None:
        state.clear_deal()
        state.ledger.pay_in(state.dealer, self.rules.pinke)  # the Pinke ("Dealing")
        state.hands, stock = self.complete_deal(state, deal, HAND_SIZE)
        turned = deal.extra.get("turned") if deal is not None else None
        state.turned = turned[0] if turned else stock.pop(0)
        state.talon = stock
        state.trump = suit_of(state.turned)
        self.update_scores(state)  # before any quartet is paid for: the first action's reward counts those
        if self.rules.quartets:
            self._redeal_quartets(state)
        knock = self.rules.dealer_knock and rank_of(state.turned) in self.rules.knock_ranks
        PHASE_TABLE.start(self, state, Phase.KNOCK if knock else Phase.SNEAK)

    def legal_play(self, state: MauschelnState) -> list[int]:
        cards_ = self.order(state).legal_plays(state.hands[state.to_act], [c for _, c in state.trick], PLAY_RULES)
        return self.actions.card_actions(PLAY, cards_)

    def legal_exchange(self, state: MauschelnState) -> list[int]:
        return self.exchange.legal(state)

    def _exchange_limit(self, state: MauschelnState, seat: int) -> int:
        """Up to four cards, as far as the talon lasts (a knocking dealer also gets the turn-up)."""
        supply = len(state.talon) + (1 if self._takes_turn_up(state, seat) else 0)
        return min(self.rules.max_exchange, supply)

    def _minimum_discards(self, state: MauschelnState, seat: int) -> int:
        return 1 if self._takes_turn_up(state, seat) else 0

    def _takes_turn_up(self, state: MauschelnState, seat: int) -> bool:
        return state.knocked and seat == state.dealer

    def _give_turn_up(self, state: MauschelnState, seat: int, count: int) -> int:
        """The knocking dealer's first replacement is the turn-up; the rest come from the talon."""
        if not self._takes_turn_up(state, seat):
            return 0
        state.hands[seat].append(state.turned)
        state.turn_up_taken = True
        return 1

    # ----------------------------------------------------------- the deal
    def _redeal_quartets(self, state: MauschelnState) -> None:
        """Four of a kind goes on the bonfire; the holder pays the Pinke and gets a new hand ("Quartets")."""
        for seat in seats_from(self.num_players, state.dealer + 1):
            while _is_quartet(state.hands[seat]) and len(state.talon) >= HAND_SIZE:
                state.face_down[seat].extend(state.hands[seat])
                state.ledger.pay_in(seat, self.rules.pinke)
                state.hands[seat], state.talon = state.talon[:HAND_SIZE], state.talon[HAND_SIZE:]
                state.quartets[seat] += 1

    def dealer_decision(self, state: MauschelnState, seat: int, name: Act, item: int) -> Next:
        """The dealer knocks on a high turn-up (she sneaks, unseen hand) or declines."""
        if name is Act.DECLINE:
            return Phase.SNEAK
        state.knocked, state.sneaker = True, state.dealer
        state.bids[state.dealer] = Bid.SNEAK
        return Phase.JOIN

    def begin_sneaking(self, state: MauschelnState) -> Next:
        ask_in_turn(state, seats_from(self.num_players, state.dealer + 1))
        return None

    def sneak_decision(self, state: MauschelnState, seat: int, name: Act, item: int) -> Next:
        sneak = name is Act.SNEAK
        state.bids[seat] = Bid.SNEAK if sneak else Bid.PASS
        if sneak:
            state.sneaker = seat
            return Phase.JOIN
        if ask_next(state):
            return None
        self.end_deal(state, "thrown_in")  # nobody sneaks: the cards are thrown in and the next player deals
        return END

    def begin_joining(self, state: MauschelnState) -> Next:
        ask_in_turn(state, seats_from(self.num_players, state.sneaker + 1, lambda s: s != state.sneaker))
        return None

    def join_decision(self, state: MauschelnState, seat: int, name: Act, item: int) -> Next:
        state.bids[seat] = Bid.JOIN if name is Act.JOIN else Bid.PASS
        if ask_next(state):
            return None
        if not any(state.bids[s] is Bid.JOIN for s in range(self.num_players)):
            state.ledger.take_out(state.sneaker, state.ledger.pot)  # all fold: the sneaker takes the pot
            self.end_deal(state, "all_passed")
            return END
        return Phase.EXCHANGE

    # ------------------------------------------------------------ exchange
    def begin_exchange(self, state: MauschelnState) -> Next:
        """Active players in turn from forehand; a knocking dealer first ("Knocking")."""
        order = seats_from(self.num_players, state.dealer + 1, state.active)
        if state.knocked:
            order = [state.dealer] + [s for s in order if s != state.dealer]
        return None if self.exchange.begin(state, order) else Phase.PLAY

    def exchange_card(self, state: MauschelnState, seat: int, name: Act, item: int) -> Next:
        """One more card on the bonfire, or ``done``: the talon (and a knocker's turn-up) replaces them."""
        return None if self.exchange.act(state, seat, name, item) else Phase.PLAY

    # --------------------------------------------------------------- tricks
    def enter_play(self, state: MauschelnState) -> Next:
        """The sneaker leads the first trick."""
        self.begin_play(state, state.sneaker)
        return None

    def play(self, state: MauschelnState, seat: int, name: Act, card: int) -> Next:
        trick = play_card(state, seat, card, self.order(state), state.active)
        if trick is None:
            return None
        winning_card = next(c for s, c in trick if s == state.leader)
        if self.rules.belli_penalty and rank_of(winning_card) == "A" and suit_of(winning_card) == state.trump:
            state.belli_lost_by += [s for s, c in trick if c == BELLI]
        if state.tricks_played == TRICKS:
            self._settle(state)
            return END
        return None

    def _settle(self, state: MauschelnState) -> None:
        """Shares per trick out of the pot, then bêtes into it ("Scoring"), then the Belli penalties."""
        self.settle(state)
        for s in state.belli_lost_by:
            state.ledger.pay_in(s, self.rules.belli_penalty)
        state.breakdown["belli_penalties"] = list(state.belli_lost_by)
        self.end_deal(state, "played")

    def seat_bete(self, state: MauschelnState, seat: int, pot: int) -> int:
        return self.rules.bete_for(pot, state.tricks_won[seat], sneaker=seat == state.sneaker)

    def deal_facts(self, state: MauschelnState) -> dict[str, Any]:
        return {**super().deal_facts(state), "sneaker": state.sneaker}

    # ----------------------------------------------------------- observation
    def hand_is_hidden(self, state: MauschelnState, seat: int) -> bool:
        """The knocking dealer decides before looking at the hand ("Knocking")."""
        return state.phase is KNOCKING and seat == state.dealer

    def shuffle_unseen(self, state: MauschelnState, seat: int, rng: np.random.Generator) -> MauschelnState:
        clone = state.clone()
        others = [s for s in range(self.num_players) if s != seat]
        groups = [clone.hands[s] for s in others] + [clone.face_down[s] for s in others] + [clone.talon]
        if self.hand_is_hidden(state, seat):
            groups.append(clone.hands[seat])
        redeal_unseen(groups, rng)
        return clone

    def compulsory_reveals(self, state: MauschelnState) -> list[int]:
        """A quartet goes on the bonfire and its holder pays the Pinke, in front of everybody ("Quartets")."""
        return list(state.quartets)

    def card_places_now(self, state: MauschelnState) -> list[list[int]]:
        turn_up = [] if state.turn_up_taken else [[state.turned]]
        return [*state.hands, *state.face_down, *state.played, state.talon, *turn_up]


def _is_quartet(hand: list[int]) -> bool:
    return len(hand) == HAND_SIZE and len({rank_of(c) for c in hand}) == 1


PHASE_TABLE = PhaseTable({
    Phase.KNOCK: Step(offer(Act.KNOCK, Act.DECLINE), Mauscheln.dealer_decision, then=(Phase.SNEAK, Phase.JOIN),
                      enter=dealer_acts),
    Phase.SNEAK: Step(offer(Act.SNEAK, Act.PASS), Mauscheln.sneak_decision, then=(Phase.JOIN, END),
                      enter=Mauscheln.begin_sneaking),
    Phase.JOIN: Step(offer(Act.JOIN, Act.PASS), Mauscheln.join_decision, then=(Phase.EXCHANGE, END),
                     enter=Mauscheln.begin_joining),
    Phase.EXCHANGE: Step(Mauscheln.legal_exchange, Mauscheln.exchange_card, then=(Phase.PLAY,),
                         enter=Mauscheln.begin_exchange),
    Phase.PLAY: Step(Mauscheln.legal_play, Mauscheln.play, then=(END,), enter=Mauscheln.enter_play),
}, first=(Phase.KNOCK, Phase.SNEAK))
"""Mauscheln's deal: each phase's legal actions, handler, set-up, and the phases that may follow.

The dealer's knock on a high turn-up (variation; she becomes the sneaker), else sneak or pass in turn (all
passing throws the cards in); the others join or pass (nobody joining gives the sneaker the pot); the
exchange with the talon; the four tricks.
"""
Mauscheln.phase_table = PHASE_TABLE
