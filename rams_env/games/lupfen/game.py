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

from collections.abc import Mapping
from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment
from rams_env.core.cards import LUPFEN_20, SUITS, Pack, RankOrder, rank_of, suit_of
from rams_env.core.game import DealSpec, Game, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.phases import END, Next, PhaseTable, Step, dealer_acts, offer
from rams_env.core.potgame import POT_CARRY_OPTIONS, ledger_from_carry, net_results
from rams_env.core.private_choice import PrivateChoice
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.trickplay import play_card
from rams_env.core.tricks import PlayRules, TrickOrder
from rams_env.games.lupfen import observe
from rams_env.games.lupfen.rules import LupfenRules, SessionEnd
from rams_env.games.lupfen.state import Act, Bid, LupfenState, Phase, Round

HAND_SIZE = TRICKS = 3
RANKS = RankOrder.parse("A 10 K Q J")
"""Sow, 10, King, Ober, Unter ("Rules")."""
PLAY_RULES = PlayRules(follow=True, trump_when_void=True)
"""Follow suit; if void, must trump ("Force")."""
HEARTS = SUITS.index("h")


def three_unters(hand: list[int]) -> bool:
    return len(hand) == 3 and all(rank_of(c) == "J" for c in hand)


def scrap_hand(hand: list[int]) -> bool:
    """Two Unters and an Ober: the weakest hand ("Scrap")."""
    return len(hand) == 3 and sorted(rank_of(c) for c in hand) == ["J", "J", "Q"]


class Lupfen(Game):
    """Lupfen for 3 to 6 players; see docs/rules/lupfen.md."""

    name = "lupfen"
    rules_type = LupfenRules
    default_players = 4
    carry_options = POT_CARRY_OPTIONS
    card_places = {"hands": Place.SEATS, "stock": Place.PILE}
    rules: LupfenRules

    def __init__(self, num_players: int | None = None, rules: LupfenRules | None = None, *, session=False):
        super().__init__(num_players, rules, session=session)
        self.ids = self.actions.singles
        self._orders = [TrickOrder(RANKS, trump=t) for t in range(len(SUITS))]
        self.scrap_offer = PrivateChoice((self.ids[Act.SCRAP], self.ids[Act.KEEP]), self.ids[Act.KEEP],
                                         lambda state, seat: scrap_hand(state.hands[seat]))
        """Every player in the game is asked; only a holder of two Unters and an Ober may scrap."""

    def player_range(self) -> tuple[int, int]:
        return 3, 6

    def pack(self) -> Pack:
        return LUPFEN_20

    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            Segment(Act.PLAY, LUPFEN_20.codes, bare=True, doc="play this card"),
            Segment(Act.LIFT, doc="turn the top card of the stock for trump and play"),
            Segment(Act.MIT, doc="play along after a lift, undertaking a trick"),
            Segment(Act.PASS, doc="drop out of this deal"),
            Segment(Act.BLIND, doc="lift before looking at the hand (blind Lupf)"),
            Segment(Act.LOOK, doc="look at the hand (no blind lift)"),
            Segment(Act.SCRAP, doc="two Unters and an Ober: call the deal off"),
            Segment(Act.DECLARE, doc="declare three Unters (wins the deal)"),
            Segment(Act.KEEP, doc="do not call scrap (the only answer without two Unters and an Ober)"),
            Segment(Act.DEAL, doc="dealer: deal the cards"),
            Segment(Act.SHOVE, doc="dealer: leave the fee in the pot and pass the deal on"),
        ], names=Act)

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players)

    # ------------------------------------------------------------ session/deal
    def new_session(self, rng: np.random.Generator, dealer: int, carry: Mapping[str, Any]) -> LupfenState:
        n = self.num_players
        ledger = ledger_from_carry(carry, n, self.rules.bankroll)
        return LupfenState(num_players=n, rng=rng, dealer=dealer, ledger=ledger, session_start=list(ledger.bankrolls))

    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"pot": int(3 * rng.integers(0, 12))}

    def start_deal(self, state: LupfenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.ledger.paid_in = [0] * n
        state.shoves, state.redeals, state.breakdown = 0, 0, {}
        state.round = Round.FORCE if state.ledger.pot == 0 else Round.LUPFEN
        state.pending_deal = deal
        if self.rules.dealer_fee:
            state.ledger.pay_in(state.dealer, self.rules.dealer_fee)
        if self.rules.shoving:
            state.hands, state.stock = [[] for _ in range(n)], list(LUPFEN_20.cards)  # not dealt yet
            self._clear_deal(state)
            PHASE_TABLE.start(self, state, Phase.SHOVE)
        else:
            PHASE_TABLE.start(self, state, self._deal(state))
        self._update_scores(state)

    def session_over(self, state: LupfenState) -> bool:
        if state.deals_played >= self.rules.session_deals:
            return True
        return self.rules.session_end is SessionEnd.POT_EMPTY and state.last_round_shared_out

    def _clear_deal(self, state: LupfenState) -> None:
        n = self.num_players
        state.bids, state.looked, state.staender = [Bid.NONE] * n, [not self.rules.blind_lift] * n, [False] * n
        state.trump, state.turned, state.lifter, state.blind = None, None, None, False
        state.queue, state.trick, state.tricks_played = [], [], 0
        state.tricks_won, state.played = [0] * n, [[] for _ in range(n)]
        state.pot_at_play, state.last_round_shared_out = 0, False

    def _deal(self, state: LupfenState) -> Next:
        """Deal three cards each; a force round antes and turns the trump: the game is on at once."""
        self._clear_deal(state)
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

    # -------------------------------------------------------- phases (PHASE_TABLE)
    def legal_actions(self, state: LupfenState) -> list[int]:
        return [] if state.terminal else PHASE_TABLE.legal(self, state)

    def apply_action(self, state: LupfenState, action: int) -> None:
        PHASE_TABLE.apply(self, state, action)
        self._update_scores(state)

    def legal_play(self, state: LupfenState) -> list[int]:
        start, index = self.actions.start[Act.PLAY], LUPFEN_20.index
        hand_cards = self._orders[state.trump].legal_plays(state.hands[state.to_act], [c for _, c in state.trick],
                                                           PLAY_RULES)
        return sorted(start + index[c] for c in hand_cards)

    def legal_shove(self, state: LupfenState) -> list[int]:
        ids = self.ids
        return [ids[Act.DEAL], ids[Act.SHOVE]] if state.shoves < self.num_players - 1 else [ids[Act.DEAL]]

    def shove_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        """Shoving: the fee stays in the pot and the next player deals, paying a fee too.

        Each player may shove once per deal, so a deal always happens.
        """
        if name is Act.SHOVE:
            state.shoves += 1
            state.dealer = (seat + 1) % self.num_players
            state.ledger.pay_in(state.dealer, self.rules.dealer_fee)
            state.round = Round.FORCE if state.ledger.pot == 0 else Round.LUPFEN
            state.to_act = state.dealer
            return None
        return self._deal(state)

    # ----------------------------------------------------------- Lupfen round
    def begin_lifting(self, state: LupfenState) -> Next:
        state.queue = seats_from(self.num_players, state.dealer + 1)
        state.to_act = state.queue[0]
        return None

    def legal_lift(self, state: LupfenState) -> list[int]:
        """Blind or look first (blind lifting); two aces must lift (compulsory lift)."""
        ids, seat = self.ids, state.to_act
        if not state.looked[seat]:
            return [ids[Act.BLIND], ids[Act.LOOK]]
        if self.rules.compulsory_lift and sum(rank_of(c) == "A" for c in state.hands[seat]) >= 2:
            return [ids[Act.LIFT]]
        return [ids[Act.LIFT], ids[Act.PASS]]

    def lift_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        if name is Act.LOOK:
            state.looked[seat] = True
            return None
        if name is Act.PASS:
            return self._lift_pass(state, seat)
        return self._lift(state, seat, blind=name is Act.BLIND)

    def _lift(self, state: LupfenState, seat: int, blind: bool) -> Next:
        state.bids[seat], state.lifter, state.blind = Bid.LIFT, seat, blind
        state.looked[seat] = True
        state.queue.pop(0)
        self._turn_trump(state)
        return Phase.JOIN

    def _lift_pass(self, state: LupfenState, seat: int) -> Next:
        state.bids[seat] = Bid.PASS
        state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
            return None
        self._end_deal(state, "nobody_lifted")  # nobody lifts: thrown in, the pot stays
        return END

    def legal_join(self, state: LupfenState) -> list[int]:
        if self.rules.compulsory_hearts and state.trump == HEARTS:
            return [self.ids[Act.MIT]]
        return [self.ids[Act.MIT], self.ids[Act.PASS]]

    def join_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        state.bids[seat] = Bid.JOIN if name is Act.MIT else Bid.PASS
        state.queue.pop(0)
        return self.next_decider(state)

    def next_decider(self, state: LupfenState) -> Next:
        """The next player after the lift plays along or passes; then the game is on, or the lifter wins."""
        if state.queue:
            state.to_act = state.queue[0]
            state.looked[state.to_act] = True  # the lift is on the table: everybody looks now
            return None
        if not any(state.bids[s] is Bid.JOIN for s in range(self.num_players)):
            state.ledger.take_out(state.lifter, state.ledger.pot)  # nobody plays: the lifter wins the pot
            self._end_deal(state, "lifter_alone")
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
        self._end_deal(state, "three_unters")
        return END

    def begin_scrap(self, state: LupfenState) -> Next:
        """Just before play every player in the game is asked in turn: scrap or keep (keep alone without
        the combination), so that nobody learns who holds it from being asked."""
        seats = seats_from(self.num_players, state.dealer + 1, state.active) if self.rules.scrap else []
        return None if self.scrap_offer.begin(state, seats) else Phase.PLAY

    def legal_scrap(self, state: LupfenState) -> list[int]:
        return self.scrap_offer.legal(state)

    def scrap_decision(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        if name is Act.SCRAP:  # the deal starts again: same dealer, no payment ("Scrap")
            state.redeals += 1
            state.breakdown.setdefault("scrapped_by", []).append(seat)
            return self._deal(state)
        return None if self.scrap_offer.ask_next(state) else Phase.PLAY

    # ------------------------------------------------------------------ tricks
    def begin_play(self, state: LupfenState) -> Next:
        state.pot_at_play = state.ledger.pot
        state.leader = state.to_act = next_seat(self.num_players, state.dealer, state.active)
        return None

    def play(self, state: LupfenState, seat: int, name: Act, item: int) -> Next:
        trick = play_card(state, seat, LUPFEN_20.cards[item], self._orders[state.trump], state.active)
        if trick is not None and state.tricks_played == TRICKS:
            self._settle(state)
            return END
        return None

    def _settle(self, state: LupfenState) -> None:
        """A third of the pot per trick; then every trickless player pays the pot (double when blind)."""
        ledger, pot = state.ledger, state.pot_at_play
        active = [s for s in range(self.num_players) if state.active(s)]
        shares = {s: pot // TRICKS * state.tricks_won[s] for s in active}
        betes = {s: pot * (2 if state.blind else 1) if state.tricks_won[s] == 0 else 0 for s in active}
        ledger.settle_tricks(shares, betes)
        state.breakdown.update({"shares": shares, "betes": betes, "pot_at_play": pot,
                                "tricks_won": list(state.tricks_won)})
        self._end_deal(state, "played")

    def _end_deal(self, state: LupfenState, reason: str) -> None:
        state.breakdown.update({"reason": reason, "round": state.round.value, "lifter": state.lifter,
                                "pot": state.ledger.pot, "paid_in": list(state.ledger.paid_in)})
        state.last_round_shared_out = state.round is Round.LUPFEN and state.ledger.pot == 0
        state.dealer = (state.dealer + 1) % self.num_players
        state.deal_over, state.to_act, state.queue = True, None, []

    def _update_scores(self, state: LupfenState) -> None:
        state.scores = net_results(state.ledger, state.session_start)

    # ------------------------------------------------------------ observation
    def encode(self, state: LupfenState, seat: int, out: np.ndarray) -> None:
        observe.encode(self, state, seat, out)

    def view(self, state: LupfenState, seat: int) -> dict[str, Any]:
        return observe.view(self, state, seat)

    def render(self, state: LupfenState, seat: int | None = None) -> str:
        return observe.render(self, state, seat)

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

    def conserved(self, state: LupfenState) -> dict[str, Any]:
        places = [*state.hands, *state.played, state.stock]
        return {"cards": sorted(c for place in places for c in place), "chips": state.ledger.total}


PHASE_TABLE = PhaseTable({
    Phase.SHOVE: Step(Lupfen.legal_shove, Lupfen.shove_decision, then=(Phase.LIFT, Phase.DECLARE), enter=dealer_acts),
    Phase.LIFT: Step(Lupfen.legal_lift, Lupfen.lift_decision, then=(Phase.JOIN, END), enter=Lupfen.begin_lifting),
    Phase.JOIN: Step(Lupfen.legal_join, Lupfen.join_decision, then=(Phase.DECLARE, END), enter=Lupfen.next_decider),
    Phase.DECLARE: Step(offer(Act.DECLARE), Lupfen.three_unters_win, then=(Phase.SCRAP, END),
                        enter=Lupfen.begin_declare),
    Phase.SCRAP: Step(Lupfen.legal_scrap, Lupfen.scrap_decision, then=(Phase.LIFT, Phase.DECLARE, Phase.PLAY),
                      enter=Lupfen.begin_scrap),
    Phase.PLAY: Step(Lupfen.legal_play, Lupfen.play, then=(END,), enter=Lupfen.begin_play),
}, first=(Phase.SHOVE, Phase.LIFT, Phase.DECLARE))
"""Lupfen's deal: each phase's legal actions, handler, set-up, and the phases that may follow.

The shove (variation); in a Lupfen round the lift in turn and, after a lift, playing along; a force round
starts with the game on. Once it is on, three Unters are declared (winning at once), else everyone is asked
whether to scrap (dealing again), then the three tricks.
"""
