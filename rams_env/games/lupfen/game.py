"""Lupfen: the rules engine. Source: 002_2dae4dad0cbb3ec9.txt.

A deal is a force round when the pot is empty (everyone antes, the top card is turned
for trump, everyone plays) and a Lupfen round otherwise (players lift the trump or pass,
the others then play along or pass). Three tricks, follow suit else trump; each trick
earns a third of the pot and a trickless player pays the pot. Three Unters win at once,
scrap calls the deal off, a Ständer is announced.

PHASE_TABLE (at the end of this module) lists the deal's phases, each with its legal actions,
its handler and the phases that may follow; each handler returns the phase that follows, so a
move goes apply_action -> handler -> the next phase's ``enter``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import LUPFEN_20, SUITS, RankOrder, rank_of, suit_of
from rams_env.core.game import DealSpec, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.phases import END, Next, PhaseTable, Step, dealer_acts, offer
from rams_env.core.potgame import PotGame, shove_segments
from rams_env.core.private_choice import PrivateChoice
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.trickplay import play_card
from rams_env.core.tricks import PlayRules, TrickOrder
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.lupfen import observe
from rams_env.games.lupfen.rules import HAND_SIZE, TRICKS, LupfenRules, SessionEnd
from rams_env.games.lupfen.state import Act, Bid, LupfenState, Phase, Round

RANKS = RankOrder.parse("A 10 K Q J")
"""Sow, 10, King, Ober, Unter ("Rules")."""
PLAY_RULES = PlayRules(follow=True, trump_when_void=True)
"""Follow suit; if void, must trump ("Force")."""
HEARTS = SUITS.index("h")


JOINED = Bid.JOIN
PLAY, LIFT, PASS, LOOK, BLIND, MIT, SCRAP = Act.PLAY, Act.LIFT, Act.PASS, Act.LOOK, Act.BLIND, Act.MIT, Act.SCRAP
"""Read at every decision, so bound to module names (see ``StateEnum``: a member read from its class is dear)."""


def three_unters(hand: list[int]) -> bool:
    return len(hand) == 3 and all(rank_of(c) == "J" for c in hand)


def scrap_hand(hand: list[int]) -> bool:
    """Two Unters and an Ober: the weakest hand ("Scrap")."""
    return len(hand) == 3 and sorted(rank_of(c) for c in hand) == ["J", "J", "Q"]


class Lupfen(PotGame):
    """Lupfen for 3 to 6 players; see docs/rules/lupfen.md."""

    name = "lupfen"
    rules_type = LupfenRules
    state_type = LupfenState
    play_phase = Phase.PLAY
    observer = observe
    default_players = 4
    card_places = {"hands": Place.SEATS, "stock": Place.PILE}
    rules: LupfenRules

    def __init__(self, num_players: int | None = None, rules: LupfenRules | None = None, *, session=False):
        super().__init__(num_players, rules, session=session)
        self.trick_orders = tuple(TrickOrder(RANKS, trump=t) for t in range(len(SUITS)))
        self.scrap_offer = PrivateChoice((self.ids[Act.SCRAP], self.ids[Act.KEEP]), self.ids[Act.KEEP],
                                         lambda state, seat: scrap_hand(state.hands[seat]))
        """Every player in the game is asked; only a holder of two Unters and an Ober may scrap."""

    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            play_segment(LUPFEN_20),
            Segment(Act.LIFT, doc="turn the top card of the stock for trump and play"),
            Segment(Act.MIT, doc="play along after a lift, undertaking a trick"),
            Segment(Act.PASS, doc="drop out of this deal"),
            Segment(Act.BLIND, doc="lift before looking at the hand (blind Lupf)"),
            Segment(Act.LOOK, doc="look at the hand (no blind lift)"),
            Segment(Act.SCRAP, doc="two Unters and an Ober: call the deal off"),
            Segment(Act.DECLARE, doc="declare three Unters (wins the deal)"),
            Segment(Act.KEEP, doc="do not call scrap (the only answer without two Unters and an Ober)"),
            *shove_segments("fee"),
        ], names=Act)

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players)

    # ------------------------------------------------------------ session/deal
    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"pot": int(3 * rng.integers(0, 12))}

    @property
    def measured_mid_session(self) -> bool:
        """Always: a session's first deal, with an empty pot, is a force round where nobody chooses to play."""
        return True

    def start_deal(self, state: LupfenState, deal: DealSpec | None) -> None:
        n = self.num_players
        self._clear_deal(state, redeal=False)
        state.round = Round.FORCE if state.ledger.pot == 0 else Round.LUPFEN
        state.pending_deal = deal
        if self.rules.dealer_fee:
            state.ledger.pay_in(state.dealer, self.rules.dealer_fee)
        if self.rules.shoving:
            state.hands, state.stock = [[] for _ in range(n)], list(LUPFEN_20.cards)  # not dealt yet
            PHASE_TABLE.start(self, state, Phase.SHOVE)
        else:
            PHASE_TABLE.start(self, state, self._deal(state))
        self.update_scores(state)

    def session_over(self, state: LupfenState) -> bool:
        """After the session's deals, or (``pot_empty``) once a Lupfen round has shared the whole pot out."""
        if super().session_over(state):
            return True
        shared_out = state.round is Round.LUPFEN and state.ledger.pot == 0
        return self.rules.session_end is SessionEnd.POT_EMPTY and shared_out

    def _clear_deal(self, state: LupfenState, redeal: bool) -> None:
        """The per-deal fields (``redeal``: a scrap deals again); where blind lifts are allowed, nobody has looked."""
        state.clear_deal(redeal)
        state.looked = [not self.rules.blind_lift] * self.num_players

    def _deal(self, state: LupfenState) -> Next:
        """Deal three cards each; a force round antes and turns the trump: the game is on at once."""
        self._clear_deal(state, redeal=True)
        state.hands, state.stock = self.complete_deal(state, state.pending_deal, HAND_SIZE)
        state.pending_deal = None
        if self.rules.staender:
            state.staender = [len({suit_of(c) for c in h}) == 1 for h in state.hands]
        if state.round is Round.FORCE:
            return self._begin_force(state)
        return Phase.LIFT

    def _begin_force(self, state: LupfenState) -> Next:
        if state.redeals == 0:
            for seat in range(self.num_players):
                state.ledger.pay_in(seat, self.rules.ante)
        state.bids = [Bid.FORCED] * self.num_players
        state.looked = [True] * self.num_players  # nothing to lift blind in a force round
        self._turn_trump(state)
        return Phase.DECLARE

    def _turn_trump(self, state: LupfenState) -> None:
        state.turned = state.stock[0]
        state.trump = suit_of(state.turned)

    def legal_play(self, state: LupfenState) -> list[int]:
        hand_cards = self.trick_orders[state.trump].legal_plays(state.hands[state.to_act], [c for _, c in state.trick],
                                                           PLAY_RULES)
        return self.actions.card_actions(PLAY, hand_cards)

    def shove_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        """Shoving: the fee stays in the pot and the next player deals, paying a fee too.

        Each player may shove once per deal, so a deal always happens.
        """
        if name is Act.SHOVE:
            self.shove(state, seat, self.rules.dealer_fee)
            state.round = Round.FORCE if state.ledger.pot == 0 else Round.LUPFEN
            return None
        return self._deal(state)

    # ----------------------------------------------------------- Lupfen round
    def begin_lifting(self, state: LupfenState) -> Next:
        ask_in_turn(state, seats_from(self.num_players, state.dealer + 1))
        return None

    def legal_lift(self, state: LupfenState) -> list[int]:
        """Blind or look first (blind lifting); two aces must lift (compulsory lift)."""
        ids, seat = self.ids, state.to_act
        if not state.looked[seat]:
            return [ids[BLIND], ids[LOOK]]
        if self.rules.compulsory_lift and sum(rank_of(c) == "A" for c in state.hands[seat]) >= 2:
            return [ids[LIFT]]
        return [ids[LIFT], ids[PASS]]

    def lift_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        if name is LOOK:
            state.looked[seat] = True
            return None
        if name is PASS:
            return self._lift_pass(state, seat)
        return self._lift(state, seat, blind=name is BLIND)

    def _lift(self, state: LupfenState, seat: int, blind: bool) -> Next:
        state.bids[seat], state.lifter, state.blind = Bid.LIFT, seat, blind
        state.looked[seat] = True
        self._turn_trump(state)
        return Phase.JOIN

    def _lift_pass(self, state: LupfenState, seat: int) -> Next:
        state.bids[seat] = Bid.PASS
        if ask_next(state):
            return None
        self.end_deal(state, "nobody_lifted")  # nobody lifts: thrown in, the pot stays
        return END

    def legal_join(self, state: LupfenState) -> list[int]:
        if self.rules.compulsory_hearts and state.trump == HEARTS:
            return [self.ids[MIT]]
        return [self.ids[MIT], self.ids[PASS]]

    def join_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        state.bids[seat] = JOINED if name is MIT else Bid.PASS
        return self.next_decider(state)

    def next_decider(self, state: LupfenState) -> Next:
        """The seat to act has lifted, joined or passed: the next one after the lift plays along or passes;
        then the game is on, or the lifter wins."""
        if ask_next(state):
            state.looked[state.to_act] = True  # the lift is on the table: everybody looks now
            return None
        if not any(state.bids[s] is JOINED for s in range(self.num_players)):
            state.ledger.take_out(state.lifter, state.ledger.pot)  # nobody plays: the lifter wins the pot
            self.end_deal(state, "lifter_alone")
            return END
        return Phase.DECLARE

    # ------------------------------------------------------ special combinations
    def _three_unters_holder(self, state: LupfenState) -> int | None:
        if not self.rules.three_unters:
            return None
        return next((s for s in range(self.num_players) if state.active(s) and three_unters(state.hands[s])), None)

    def begin_declare(self, state: LupfenState) -> Next:
        """Three Unters are declared once the game is on (the holder's only action), else the scrap offer."""
        holder = self._three_unters_holder(state)
        if holder is not None:
            state.to_act = holder
            return None
        return Phase.SCRAP

    def three_unters_win(self, state: LupfenState, holder: int, name: Act, item: int) -> Next:
        """The holder takes the pot; every other player in the game pays the pot ("Three Unters")."""
        pot = state.ledger.pot
        state.ledger.take_out(holder, pot)
        for s in range(self.num_players):
            if s != holder and state.active(s):
                state.ledger.pay_in(s, pot)
        state.breakdown["three_unters"] = holder
        self.end_deal(state, "three_unters")
        return END

    def begin_scrap(self, state: LupfenState) -> Next:
        """Just before play every player in the game is asked in turn: scrap or keep (keep alone without
        the combination), so that nobody learns who holds it from being asked."""
        seats = seats_from(self.num_players, state.dealer + 1, state.active) if self.rules.scrap else []
        return None if self.scrap_offer.begin(state, seats) else Phase.PLAY

    def legal_scrap(self, state: LupfenState) -> list[int]:
        return self.scrap_offer.legal(state)

    def scrap_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        if name is SCRAP:  # the deal starts again: same dealer, no payment ("Scrap")
            state.redeals += 1
            state.breakdown.setdefault("scrapped_by", []).append(seat)
            return self._deal(state)
        return None if self.scrap_offer.ask_next(state) else Phase.PLAY

    # ------------------------------------------------------------------ tricks
    def enter_play(self, state: LupfenState) -> Next:
        """The first player in the game after the dealer leads."""
        self.begin_play(state, next_seat(self.num_players, state.dealer, state.active))
        return None

    def play(self, state: LupfenState, seat: int, name: Act, card: int) -> Next:
        trick = play_card(state, seat, card, self.trick_orders[state.trump], state.active)
        if trick is not None and state.tricks_played == TRICKS:
            self.settle(state)  # a third of the pot per trick; a trickless player pays the pot (double when blind)
            self.end_deal(state, "played")
            return END
        return None

    def seat_bete(self, state: LupfenState, seat: int, pot: int) -> int:
        return self.rules.bete_for(pot, state.tricks_won[seat], blind=state.blind)

    def deal_facts(self, state: LupfenState) -> dict[str, Any]:
        return {**super().deal_facts(state), "round": state.round.value, "lifter": state.lifter}

    # ------------------------------------------------------------ observation

    def shuffle_unseen(self, state: LupfenState, seat: int, rng: np.random.Generator) -> LupfenState:
        clone = state.clone()
        groups = [clone.hands[s] for s in range(self.num_players) if s != seat or not state.looked[seat]]
        stock = clone.stock[1:] if clone.turned is not None else clone.stock  # the turned card is public
        groups.append(stock)
        redeal_unseen(groups, rng)
        if clone.turned is not None:
            clone.stock[1:] = stock
        return clone

    def compulsory_reveals(self, state: LupfenState) -> tuple[list[bool], int | None]:
        """A Ständer is announced on receipt; three Unters are declared as soon as the game is on."""
        game_on = state.phase in (Phase.DECLARE, Phase.SCRAP, Phase.PLAY)
        return list(state.staender), self._three_unters_holder(state) if game_on else None

    def card_places_now(self, state: LupfenState) -> list[list[int]]:
        return [*state.hands, *state.played, state.stock]


PHASE_TABLE = PhaseTable({
    Phase.SHOVE: Step(Lupfen.shove_actions, Lupfen.shove_decision, then=(Phase.LIFT, Phase.DECLARE), enter=dealer_acts),
    Phase.LIFT: Step(Lupfen.legal_lift, Lupfen.lift_decision, then=(Phase.JOIN, END), enter=Lupfen.begin_lifting),
    Phase.JOIN: Step(Lupfen.legal_join, Lupfen.join_decision, then=(Phase.DECLARE, END), enter=Lupfen.next_decider),
    Phase.DECLARE: Step(offer(Act.DECLARE), Lupfen.three_unters_win, then=(Phase.SCRAP, END),
                        enter=Lupfen.begin_declare),
    Phase.SCRAP: Step(Lupfen.legal_scrap, Lupfen.scrap_decision, then=(Phase.LIFT, Phase.DECLARE, Phase.PLAY),
                      enter=Lupfen.begin_scrap),
    Phase.PLAY: Step(Lupfen.legal_play, Lupfen.play, then=(END,), enter=Lupfen.enter_play),
}, first=(Phase.SHOVE, Phase.LIFT, Phase.DECLARE))
"""Lupfen's deal: each phase's legal actions, handler, set-up, and the phases that may follow.

The shove (variation); in a Lupfen round the lift in turn and, after a lift, playing along; a force round
starts with the game on. Once it is on, three Unters are declared (winning at once), else everyone is asked
whether to scrap (dealing again), then the three tricks.
"""
Lupfen.phase_table = PHASE_TABLE
