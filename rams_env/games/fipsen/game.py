"""Fipsen: the rules engine for all four regional games. Source: 001_f2515c7741548cc2.txt.

Thedinghausen: five players, a turned trump, an optional "fipsen" call, follow and
overtake, else trump and overtrump; tricks count toward a race to ten. The Holstein
and Mecklenburg games: an auction on a ladder of contracts (data in contracts.py), the
declarer picks up skat, Kieker cards or Dutt and discards, names trumps, and plays
alone against the others (follow suit, else any card); the score sheet records the result.

This module is the Game: declarations, the deal, and PHASE_TABLE (at the end): the table of the
deal's phases, each with its legal actions, its handler and the phases that may follow. The
handlers live in auction.py (bidding, the declarer's pick-up, discards, trumps) and play.py
(the fipsen call, card play); each returns the phase that follows, so a move goes
apply_action -> handler -> the next phase's ``enter``. settle.py scores the race and the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import sub
from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import NATURAL_ORDER, SUITS, Pack, suit_of
from rams_env.core.game import DealSpec, Game, OptionError, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.phases import END, Next, PhaseTable, Step, offer
from rams_env.core.potgame import ledger_from_carry
from rams_env.core.tricks import TrickOrder
from rams_env.games.fipsen import auction, observe, play, settle
from rams_env.games.fipsen.contracts import Contract
from rams_env.games.fipsen.rules import FipsenRules, Variant
from rams_env.games.fipsen.state import HAND_SIZE, Act, FipsenState, Phase


class Fipsen(Game):
    """Fipsen in its four regional forms; see docs/rules/fipsen.md."""

    name = "fipsen"
    rules_type = FipsenRules
    default_players = 4
    carry_options = ("sheet", "race", "pot", "bankrolls")
    preset_aliases = ("variant",)
    observer = observe
    card_places = {"hands": Place.SEATS, "face_down": Place.SEATS, "skat": Place.PILE, "aside": Place.PILE}
    rules: FipsenRules

    def __init__(self, num_players: int | None = None, rules: FipsenRules | None = None, *, session=False):
        rules = rules if rules is not None else FipsenRules()
        super().__init__(num_players if num_players is not None else rules.spec.players, rules, session=session)
        self.spec = self.rules.spec
        self.ladder: tuple[Contract, ...] = self.spec.ladder
        self.trick_orders = tuple(TrickOrder(NATURAL_ORDER, trump=t) for t in range(len(SUITS)))
        self.preference = SUITS.index(self.spec.preference)
        self.suits = sorted({suit_of(c) for c in self.pack().cards})
        self.thedinghausen = self.rules.variant is Variant.THEDINGHAUSEN

    def order(self, state: FipsenState) -> TrickOrder:
        """Card strengths with this deal's trump (built once per suit)."""
        return self.trick_orders[state.trump]

    # ------------------------------------------------------------ declarations
    def player_range(self) -> tuple[int, int]:
        return self.rules.spec.players, self.rules.spec.players

    def pack(self) -> Pack:
        return self.rules.spec.pack

    def build_actions(self) -> ActionLayout:
        bids = tuple(c.label.removeprefix("bid ") for c in self.rules.spec.ladder) or ("none",)
        return ActionLayout([
            play_segment(self.pack()),
            Segment.cards(Act.DISCARD, self.pack(), doc="declarer: discard this card after picking up",
                          seen_by_others="discards a card"),
            Segment(Act.BID, bids, doc="bid this contract (the variant's ladder, lowest first)"),
            Segment(Act.HOLD, doc="Prisdorf: hold the later player's bid"),
            Segment(Act.PASS, doc="pass (auction, fipsen call)"),
            Segment(Act.TRUMP, SUITS, doc="declarer: name trumps"),
            Segment(Act.FIPSEN, doc="Thedinghausen: undertake all five tricks"),
            Segment(Act.CONCEDE, doc="Grossenaspe Kieker: fold, conceding five points"),
            Segment(Act.PLAY_KIEKER, doc="Grossenaspe Kieker: play it"),
            Segment(Act.PLAY_ON, doc="Grossenaspe: bid made, play on for a Durch"),
            Segment(Act.STOP, doc="Grossenaspe: bid made, stop and score it"),
        ], names=Act)

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players, self.pack(), len(self.rules.spec.ladder), self.rules.race_to)

    # ------------------------------------------------------------ session/deal
    def new_session(self, rng: np.random.Generator, dealer: int, carry: Mapping[str, Any]) -> FipsenState:
        n = self.num_players
        ledger = ledger_from_carry(carry, n, self.rules.bankroll)
        sheet = carry.get("sheet", [0] * n)
        race = carry.get("race", [0] * n)
        for name, values in (("sheet", sheet), ("race", race)):
            if not isinstance(values, (list, tuple)) or len(values) != n or not all(
                    isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
                raise OptionError(f"option {name!r} must be {n} whole numbers, got {values!r}")
        if any(r < 0 or r >= self.rules.race_to for r in race):
            raise OptionError(f"option 'race': tricks from 0 to {self.rules.race_to - 1}")
        return FipsenState(num_players=n, rng=rng, dealer=dealer, ledger=ledger, race=[int(r) for r in race],
                           session_start=list(ledger.bankrolls), sheet=[int(s) for s in sheet],
                           sheet_start=[int(s) for s in sheet],
                           race_won="race" not in carry)  # a fresh race starts with everyone's ante

    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        if self.thedinghausen:
            return {"race": [int(x) for x in rng.integers(0, self.rules.race_to, self.num_players)],
                    "pot": self.num_players}
        return {}

    @property
    def measured_mid_session(self) -> bool:
        """At Thedinghausen: a race to ten tricks spans deals, and its first deal pays only on a fipsen call."""
        return self.thedinghausen

    def check_deal(self, hands, extra) -> None:
        del hands, extra  # the stock carries skat, aside cards and the turn-up, top first

    def session_over(self, state: FipsenState) -> bool:
        if self.thedinghausen and state.race_won:
            return True
        return state.deals_played >= self.rules.session_deals

    def start_deal(self, state: FipsenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.clear_deal()
        if self.thedinghausen and state.race_won:  # a new race: everyone antes a hedewig
            state.race, state.race_won = [0] * n, False
            for seat in range(n):
                state.ledger.pay_in(seat, 1)
        PHASE_TABLE.start(self, state, self.deal_cards(state, deal))
        self.update_scores(state)

    def deal_cards(self, state: FipsenState, deal: DealSpec | None) -> Next:
        """Deal (again, after an all-pass); the first decision: the fipsen call, or the auction."""
        state.hands, stock = self.complete_deal(state, deal, HAND_SIZE)
        if self.thedinghausen:
            state.turned, state.skat, state.aside = stock[0], [], stock[1:]
            state.trump = suit_of(state.turned)
            return Phase.CALL
        state.skat, state.aside = stock[:self.spec.skat], stock[self.spec.skat:]
        return Phase.AUCTION

    # ------------------------------------------------------------- bookkeeping
    def update_scores(self, state: FipsenState) -> None:
        """Hedewigs won in Thedinghausen, points on the sheet elsewhere, since the session began."""
        if self.thedinghausen:
            state.scores = state.net_results()
        else:
            state.scores = list(map(sub, state.sheet, state.sheet_start))  # after every move: a loop in C

    def deal_facts(self, state: FipsenState) -> dict[str, Any]:
        return {"tricks_won": list(state.tricks_won), "race": list(state.race), "sheet": list(state.sheet)}

    # ------------------------------------------------------------- rule queries
    def eligible(self, state: FipsenState, seat: int, contract: Contract) -> bool:
        """Whether ``seat`` holds what ``contract`` needs (see auction.eligible)."""
        return auction.eligible(state, seat, contract)

    def contract_value(self, state: FipsenState, level: int) -> int:
        """The points of the contract at ``level`` of the ladder (see settle.contract_value)."""
        return settle.contract_value(self, state, level)

    # ------------------------------------------------------------- observation
    def shuffle_unseen(self, state: FipsenState, seat: int, rng: np.random.Generator) -> FipsenState:
        clone = state.clone()
        groups = [clone.hands[s] for s in range(self.num_players) if s != seat]
        groups += [clone.face_down[s] for s in range(self.num_players) if s != seat] + [clone.skat, clone.aside]
        redeal_unseen(groups, rng)
        return clone

    def conserved(self, state: FipsenState) -> dict[str, Any]:
        places = [*state.hands, *state.face_down, *state.played, state.skat, state.aside]
        if state.turned is not None:
            places.append([state.turned])
        return {"cards": sorted(c for place in places for c in place), "chips": state.ledger.total}


PHASE_TABLE = PhaseTable({
    Phase.CALL: Step(offer(Act.PASS, Act.FIPSEN), play.call, then=(Phase.PLAY,), enter=play.begin_call),
    Phase.AUCTION: Step(auction.legal, auction.step, enter=auction.begin,
                        then=(Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.PLAY, END)),
    Phase.DISCARD: Step(auction.legal_discard, auction.discard, then=(Phase.KIEKER, Phase.TRUMP, Phase.PLAY)),
    Phase.KIEKER: Step(offer(Act.CONCEDE, Act.PLAY_KIEKER), auction.kieker, then=(Phase.TRUMP, END)),
    Phase.TRUMP: Step(auction.legal_trump, auction.name_trumps, then=(Phase.PLAY,)),
    Phase.PLAY: Step(play.legal, play.play_card, then=(Phase.PLAY_ON, END), enter=play.begin_play),
    Phase.PLAY_ON: Step(offer(Act.PLAY_ON, Act.STOP), play.play_on, then=(Phase.PLAY, END)),
}, first=(Phase.CALL, Phase.AUCTION))
"""Fipsen's deal: each phase's legal actions, handler, set-up, and the phases that may follow.

Thedinghausen: the fipsen call, then play. The other games: the auction (an all-pass deals again), the
declarer's discards after picking up (a Kieker always discards seven, then concedes or plays, naming
trumps), trumps named unless the contract fixes them, play; Grossenaspe asks whether to play on once the
bid is made.
"""
Fipsen.phase_table = PHASE_TABLE
