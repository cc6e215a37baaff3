"""Lupfen: the rules engine. Source: 002_2dae4dad0cbb3ec9.txt.

A deal is a force round when the pot is empty (everyone antes, the top card is turned
for trump, everyone plays) and a Lupfen round otherwise (players lift the trump or pass,
the others then play along or pass). Three tricks, follow suit else trump; each trick
earns a third of the pot and a trickless player pays the pot. Three Unters win at once,
scrap calls the deal off, a Ständer is announced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import LUPFEN_20, SUITS, RankOrder, rank_of, suit_of
from rams_env.core.game import DealSpec, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.potgame import PotGame, shove_segments
from rams_env.core.private_choice import PrivateChoice
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.trickplay import play_card
from rams_env.core.tricks import PlayRules, TrickOrder
from rams_env.core.turns import ask_in_turn, ask_next
from rams_env.games.lupfen import observe
from rams_env.games.lupfen.rules import HAND_SIZE, TRICKS, LupfenRules, SessionEnd
from rams_env.games.lupfen.state import Bid, LupfenState, Phase, Round

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
        self._orders = [TrickOrder(RANKS, trump=t) for t in range(len(SUITS))]
        self.scrap_offer = PrivateChoice((self.ids["scrap"], self.ids["keep"]), self.ids["keep"],
                                         lambda state, seat: scrap_hand(state.hands[seat]))
        """Every player in the game is asked; only a holder of two Unters and an Ober may scrap."""

    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            play_segment(LUPFEN_20),
            Segment("lift", doc="turn the top card of the stock for trump and play"),
            Segment("mit", doc="play along after a lift, undertaking a trick"),
            Segment("pass", doc="drop out of this deal"),
            Segment("blind", doc="lift before looking at the hand (blind Lupf)"),
            Segment("look", doc="look at the hand (no blind lift)"),
            Segment("scrap", doc="two Unters and an Ober: call the deal off"),
            Segment("declare", doc="declare three Unters (wins the deal)"),
            Segment("keep", doc="do not call scrap (the only answer without two Unters and an Ober)"),
            *shove_segments("fee"),
        ])

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players)

    # ------------------------------------------------------------ session/deal
    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"pot": int(3 * rng.integers(0, 12))}

    def start_deal(self, state: LupfenState, deal: DealSpec | None) -> None:
        n = self.num_players
        self._clear_deal(state, redeal=False)
        state.round = Round.FORCE if state.ledger.pot == 0 else Round.LUPFEN
        state.pending_deal = deal
        if self.rules.dealer_fee:
            state.ledger.pay_in(state.dealer, self.rules.dealer_fee)
        if self.rules.shoving:
            state.phase, state.to_act = Phase.SHOVE, state.dealer
            state.hands, state.stock = [[] for _ in range(n)], list(LUPFEN_20.cards)  # not dealt yet
        else:
            self._deal(state)
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

    def _deal(self, state: LupfenState) -> None:
        """Deal three cards each; a force round antes, turns the trump and starts play."""
        self._clear_deal(state, redeal=True)
        state.hands, state.stock = self.complete_deal(state, state.pending_deal, HAND_SIZE)
        state.pending_deal = None
        if self.rules.staender:
            state.staender = [len({suit_of(c) for c in h}) == 1 for h in state.hands]
        if state.round is Round.FORCE:
            self._begin_force(state)
        else:
            state.phase = Phase.LIFT
            ask_in_turn(state, seats_from(self.num_players, state.dealer + 1))

    def _begin_force(self, state: LupfenState) -> None:
        if state.redeals == 0:
            for seat in range(self.num_players):
                state.ledger.pay_in(seat, self.rules.ante)
        state.bids = [Bid.FORCED] * self.num_players
        state.looked = [True] * self.num_players  # nothing to lift blind in a force round
        self._turn_trump(state)
        self._declare_or_continue(state)

    def _turn_trump(self, state: LupfenState) -> None:
        state.turned = state.stock[0]
        state.trump = suit_of(state.turned)

    # ------------------------------------------------------------------ legal
    def legal_actions(self, state: LupfenState) -> list[int]:
        if state.terminal:
            return []
        ids, phase, seat = self.ids, state.phase, state.to_act
        if phase is Phase.PLAY:
            hand_cards = self._orders[state.trump].legal_plays(state.hands[seat], [c for _, c in state.trick],
                                                               PLAY_RULES)
            return self.actions.card_actions("play", hand_cards)
        if phase is Phase.LIFT:
            if not state.looked[seat]:
                return [ids["blind"], ids["look"]]
            if self.rules.compulsory_lift and sum(rank_of(c) == "A" for c in state.hands[seat]) >= 2:
                return [ids["lift"]]
            return [ids["lift"], ids["pass"]]
        if phase is Phase.JOIN:
            if self.rules.compulsory_hearts and state.trump == HEARTS:
                return [ids["mit"]]
            return [ids["mit"], ids["pass"]]
        if phase is Phase.SCRAP:
            return self.scrap_offer.legal(state)
        if phase is Phase.DECLARE:
            return [ids["declare"]]
        return self.shove_actions(state)

    # ------------------------------------------------------------------ apply
    def apply_action(self, state: LupfenState, action: int) -> None:
        seat = state.to_act
        name, item = self.actions.segment(action)
        if name == "play":
            self._play_card(state, seat, self.actions.card(action))
        elif name in ("deal", "shove"):
            self._shove_decision(state, seat, shove=name == "shove")
        elif name == "look":
            state.looked[seat] = True
        elif name in ("lift", "blind"):
            self._lift(state, seat, blind=name == "blind")
        elif name == "pass" and state.phase is Phase.LIFT:
            self._lift_pass(state, seat)
        elif name in ("mit", "pass"):
            self._join_decision(state, seat, join=name == "mit")
        elif name == "declare":
            self._three_unters_win(state, seat)
        else:
            self._scrap_decision(state, seat, scrap=name == "scrap")
        self.update_scores(state)

    def _shove_decision(self, state: LupfenState, seat: int, shove: bool) -> None:
        """Shoving: the fee stays in the pot and the next player deals, paying a fee too.

        Each player may shove once per deal, so a deal always happens.
        """
        if shove:
            self.shove(state, seat, self.rules.dealer_fee)
            state.round = Round.FORCE if state.ledger.pot == 0 else Round.LUPFEN
            return
        self._deal(state)

    # ----------------------------------------------------------- Lupfen round
    def _lift(self, state: LupfenState, seat: int, blind: bool) -> None:
        state.bids[seat], state.lifter, state.blind = Bid.LIFT, seat, blind
        state.looked[seat] = True
        self._turn_trump(state)
        state.phase = Phase.JOIN
        self._next_decider(state)

    def _lift_pass(self, state: LupfenState, seat: int) -> None:
        state.bids[seat] = Bid.PASS
        if not ask_next(state):  # nobody lifts: thrown in, the pot stays
            self.end_deal(state, "nobody_lifted")

    def _join_decision(self, state: LupfenState, seat: int, join: bool) -> None:
        state.bids[seat] = Bid.JOIN if join else Bid.PASS
        self._next_decider(state)

    def _next_decider(self, state: LupfenState) -> None:
        """The seat to act has lifted, joined or passed: the next one decides, or the game is on (or not)."""
        if ask_next(state):
            state.looked[state.to_act] = True  # the lift is on the table: everybody looks now
            return
        if not any(state.bids[s] is Bid.JOIN for s in range(self.num_players)):
            state.ledger.take_out(state.lifter, state.ledger.pot)  # nobody plays: the lifter wins the pot
            self.end_deal(state, "lifter_alone")
            return
        self._declare_or_continue(state)

    # ------------------------------------------------------ special combinations
    def _three_unters_holder(self, state: LupfenState) -> int | None:
        if not self.rules.three_unters:
            return None
        return next((s for s in range(self.num_players) if state.active(s) and three_unters(state.hands[s])), None)

    def _declare_or_continue(self, state: LupfenState) -> None:
        """Three Unters are declared once the game is on (the holder's only action), else play."""
        holder = self._three_unters_holder(state)
        if holder is not None:
            state.phase, state.to_act = Phase.DECLARE, holder
        else:
            self._begin_scrap_or_play(state)

    def _three_unters_win(self, state: LupfenState, holder: int) -> None:
        """The holder takes the pot; every other player in the game pays the pot ("Three Unters")."""
        pot = state.ledger.pot
        state.ledger.take_out(holder, pot)
        for s in range(self.num_players):
            if s != holder and state.active(s):
                state.ledger.pay_in(s, pot)
        state.breakdown["three_unters"] = holder
        self.end_deal(state, "three_unters")

    def _begin_scrap_or_play(self, state: LupfenState) -> None:
        """Just before play every player in the game is asked in turn: scrap or keep (keep alone without
        the combination), so that nobody learns who holds it from being asked."""
        seats = seats_from(self.num_players, state.dealer + 1, state.active) if self.rules.scrap else []
        if self.scrap_offer.begin(state, seats):
            state.phase = Phase.SCRAP
        else:
            self._begin_play(state)

    def _scrap_decision(self, state: LupfenState, seat: int, scrap: bool) -> None:
        if scrap:  # the deal starts again: same dealer, no payment ("Scrap")
            state.redeals += 1
            state.breakdown.setdefault("scrapped_by", []).append(seat)
            self._deal(state)
            return
        if not self.scrap_offer.ask_next(state):
            self._begin_play(state)

    # ------------------------------------------------------------------ tricks
    def _begin_play(self, state: LupfenState) -> None:
        self.begin_play(state, next_seat(self.num_players, state.dealer, state.active))

    def _play_card(self, state: LupfenState, seat: int, card_id: int) -> None:
        trick = play_card(state, seat, card_id, self._orders[state.trump], state.active)
        if trick is not None and state.tricks_played == TRICKS:
            self.settle(state)  # a third of the pot per trick; a trickless player pays the pot (double when blind)
            self.end_deal(state, "played")

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
