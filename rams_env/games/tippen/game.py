"""Tippen (Dreiblatt, Drei Karten, Loup): the rules engine. Source: 000_87480ce3960bd8a6.txt.

One engine for five rule sets: the dealer antes the basic stake and deals three cards
(Loup six) around a trump; the dealer's privileges (knock, sniff) and robbing come
first; then play or pass (forced while the pot holds only the basic stake, where the
rule set says so); a lone player takes the pot; exchanges (modern); tricks under the
rule set's obligations; shares per trick, bêtes for trickless players.

This module is the Game: declarations, the deal (hop and jump, shoving), what is hidden, and
PHASE_TABLE (at the end): the table of the deal's phases, each with its legal actions, its handler and
the phases that may follow. The handlers live in privileges.py (knock, sniff, rob, drop),
bidding.py (tap or pass, the exchange) and play.py (tricks and settlement); each returns the
phase that follows, so a move goes apply_action -> handler -> the next phase's ``enter``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import NATURAL_ORDER, SUITS, rank_of, suit_of
from rams_env.core.exchange import TalonExchange, exchange_segments
from rams_env.core.game import DealSpec, OptionError, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.phases import END, Next, PhaseTable, Step, dealer_acts, offer
from rams_env.core.potgame import PotGame, shove_segments
from rams_env.core.private_choice import PrivateChoice
from rams_env.core.tricks import PlayRules, TrickOrder
from rams_env.games.tippen import bidding, observe, play, privileges
from rams_env.games.tippen.rules import DealerOption, PlayMode, TippenRules, TrumpFrom
from rams_env.games.tippen.state import DEALER, Act, Phase, TippenState

PLAY_RULES = {
    PlayMode.HEAD: PlayRules(follow=True, trump_when_void=True, head=True),
    PlayMode.TRUMP: PlayRules(follow=True, trump_when_void=True),
    PlayMode.FREE_TRUMP: PlayRules(follow=True),
}
"""Each rule set's obligations ("Play" sections of the source)."""
HOP_RANKS = ("A", "7")
"""Hop and jump: a cut showing an ace or a seven passes the deal on."""


class Tippen(PotGame):
    """Tippen in all its rule sets; see docs/rules/tippen.md."""

    name = "tippen"
    rules_type = TippenRules
    state_type = TippenState
    play_phase = Phase.PLAY
    observer = observe
    default_players = 4
    deal_options = ("hands", "stock", "turned")
    preset_aliases = ("ruleset",)
    card_places = {"hands": Place.SEATS, "face_down": Place.SEATS, "talon": Place.PILE, "trump_card": Place.CARD}
    rules: TippenRules

    def __init__(self, num_players: int | None = None, rules: TippenRules | None = None, *, session=False):
        super().__init__(num_players, rules, session=session)
        self.trick_orders = tuple(TrickOrder(NATURAL_ORDER, trump=t) for t in range(len(SUITS)))
        self.robbing = PrivateChoice((self.ids[Act.DECLINE], self.ids[Act.ROB]), self.ids[Act.DECLINE],
                                     privileges.holds_trump_seven)
        """Every player is asked; only the holder of the trump seven may rob the upcard."""
        self.play_rules = PLAY_RULES[self.rules.play_mode]
        self.trump_stays = self.rules.trump_from is TrumpFrom.DEALER_LAST
        """The dealer's last card shows trumps and stays in her hand (read at every observation)."""
        self.exchange = TalonExchange(self.actions, lambda state, seat: bidding.exchange_limit(state, self.rules))
        """Modern rules: the players in the game exchange up to three cards with the talon."""

    def order(self, state: TippenState) -> TrickOrder:
        """Card strengths with this deal's trump (built once per suit)."""
        return self.trick_orders[state.trump]

    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            play_segment(self.pack()),
            *exchange_segments(self.pack(), "discard this card (exchange; after a knock, sniff or rob)"),
            Segment(Act.TAP, doc="play this deal (tippen), undertaking a trick"),
            Segment(Act.PASS, doc="drop out of this deal"),
            Segment(Act.KNOCK, doc="dealer: knock on the unseen trump before looking at the hand"),
            Segment(Act.SNIFF, doc="dealer: sniff (take the trump card, discard one)"),
            Segment(Act.DECLINE,
                    doc="do not use the privilege (knock, sniff, rob); without the trump 7 the only answer"),
            Segment(Act.ROB, doc="holder of the trump 7: take the upcard, discard one"),
            Segment(Act.DROP, doc="sniffing dealer (1859): drop out, paying a simple bête"),
            *shove_segments("ante"),
        ], names=Act)

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players, self.pack(), self.rules.hand_size, self.rules.stake)

    # ------------------------------------------------------------ session/deal
    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"pot": int(self.rules.stake * rng.integers(0, 8))}

    def check_deal(self, hands, extra) -> None:
        if "turned" in extra and (len(extra["turned"]) != 1 or self.rules.trump_from is not TrumpFrom.TURNED):
            raise OptionError("option 'deal': 'turned' is one card, for rule sets that turn a trump")

    def start_deal(self, state: TippenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.clear_deal()
        state.pending_deal = deal
        state.ledger.pay_in(state.dealer, self.rules.stake)
        if self.rules.max_bete:  # play for at most the maximum; the rest waits for later deals
            state.ledger.release_set_aside()
            state.ledger.cap_pot(self.rules.max_bete)
        if self.rules.hop_and_jump and deal is None:
            self._hop_and_jump(state)
        if self.rules.shoving:
            state.hands, state.talon = [[] for _ in range(n)], list(self.pack().cards)  # not dealt yet
            PHASE_TABLE.start(self, state, Phase.SHOVE)
        else:
            PHASE_TABLE.start(self, state, self._deal(state))
        self.update_scores(state)

    def _hop_and_jump(self, state: TippenState) -> None:
        """While the cut shows an ace or a seven the deal passes on and the new dealer antes too."""
        pack = self.pack().cards
        while state.hops < self.num_players - 1 and rank_of(pack[state.rng.integers(len(pack))]) in HOP_RANKS:
            state.hops += 1
            state.dealer = (state.dealer + 1) % self.num_players
            state.ledger.pay_in(state.dealer, self.rules.stake)

    def _deal(self, state: TippenState) -> Next:
        """Deal and turn the trump; the first decision: the dealer's privilege, else the robbing offer."""
        rules, deal = self.rules, state.pending_deal
        state.hands, stock = self.complete_deal(state, deal, rules.hand_size)
        if rules.trump_from is TrumpFrom.DEALER_LAST:
            state.trump_card = state.hands[state.dealer][-1]  # shows trumps, stays in the dealer's hand
        else:
            turned = deal.extra.get("turned") if deal is not None else None
            state.trump_card = turned[0] if turned else stock.pop(0)
        state.talon, state.trump, state.pending_deal = stock, suit_of(state.trump_card), None
        state.forced = (rules.forced_with_basic_stake and not rules.hop_and_jump
                        and state.ledger.pot == rules.stake)
        return Phase.ROB if rules.dealer_option is DealerOption.NONE else Phase.DEALER

    def shove_decision(self, state: TippenState, seat: int, name: Act, item: int) -> Next:
        """Shoving: the next player antes too and deals; each may shove once, so a deal happens."""
        if name is Act.SHOVE:
            self.shove(state, seat, self.rules.stake)
            return None
        return self._deal(state)

    # ------------------------------------------------------------- observation
    def hand_is_hidden(self, state: TippenState, seat: int) -> bool:
        """A knocking dealer decides before looking at the hand ("Knocking")."""
        return (state.phase is DEALER and seat == state.dealer
                and self.rules.dealer_option is DealerOption.KNOCK)

    def shuffle_unseen(self, state: TippenState, seat: int, rng: np.random.Generator) -> TippenState:
        clone = state.clone()
        known = observe.known_cards(self, state)  # cards whose place every player knows
        groups = [clone.talon]
        for s in range(self.num_players):
            if s != seat:
                groups.append(clone.face_down[s])
            if s != seat or self.hand_is_hidden(state, seat):
                groups.append(clone.hands[s])
        upcard = [clone.trump_card] if self._upcard_on_table(state) and clone.trump_card not in known else []
        groups.append(upcard)
        free = [[c for c in g if c not in known] for g in groups]
        redeal_unseen(free, rng)
        for g, f in zip(groups, free, strict=True):
            g[:] = [c for c in g if c in known] + f
        if upcard:
            clone.trump_card, clone.trump = upcard[0], suit_of(upcard[0])
        return clone

    def _upcard_on_table(self, state: TippenState) -> bool:
        """The turned trump card lies apart from every hand (not yet taken)."""
        return (self.rules.trump_from is TrumpFrom.TURNED and state.upcard_taken_by is None
                and state.phase is not Phase.SHOVE)

    def compulsory_reveals(self, state: TippenState) -> int | None:
        """The trump suit once the dealer's privilege is settled: announced even when a knocking or (Grupp)
        sniffing dealer takes the trump card unseen ("Variations")."""
        return state.trump if observe.trump_known(self, state) else None

    def deal_facts(self, state: TippenState) -> dict[str, Any]:
        return {**super().deal_facts(state), "privileged": state.privileged, "set_aside": state.ledger.set_aside}

    def seat_bete(self, state: TippenState, seat: int, pot: int) -> int:
        return self.rules.bete_for(pot, state.tricks_won[seat], privileged=seat == state.privileged)

    def card_places_now(self, state: TippenState) -> list[list[int]]:
        upcard = [[state.trump_card]] if self._upcard_on_table(state) else []
        return [*state.hands, *state.face_down, *state.played, state.talon, *upcard]


PHASE_TABLE = PhaseTable({
    Phase.SHOVE: Step(Tippen.shove_actions, Tippen.shove_decision, then=(Phase.DEALER, Phase.ROB), enter=dealer_acts),
    Phase.DEALER: Step(privileges.legal_dealer, privileges.dealer_decision, then=(Phase.DISCARD, Phase.ROB),
                       enter=dealer_acts),
    Phase.DISCARD: Step(privileges.legal_discard, privileges.discard, then=(Phase.DROP, Phase.ROB, Phase.BID)),
    Phase.DROP: Step(offer(Act.TAP, Act.DROP), privileges.drop_decision, then=(Phase.ROB,)),
    Phase.ROB: Step(privileges.legal_rob, privileges.rob_decision, then=(Phase.DISCARD, Phase.BID),
                    enter=privileges.offer_robbing),
    Phase.BID: Step(offer(Act.TAP, Act.PASS), bidding.bid, then=(Phase.EXCHANGE, Phase.PLAY, END),
                    enter=bidding.begin_bidding),
    Phase.EXCHANGE: Step(bidding.legal_exchange, bidding.exchange, then=(Phase.PLAY,), enter=bidding.begin_exchange),
    Phase.PLAY: Step(play.legal, play.play_card, then=(END,), enter=play.begin_play),
}, first=(Phase.SHOVE, Phase.DEALER, Phase.ROB))
"""Tippen's deal: each phase's legal actions, handler, set-up, and the phases that may follow.

A deal opens with the shove (modern variation), the dealer's knock or sniff, or the robbing offer; a
knocker, sniffer or robber discards for the upcard (an Alvensleben sniffer may then drop out); bidding
(skipped while play is forced) ends the deal when fewer than two play, else the exchange (modern) and play.
"""
Tippen.phase_table = PHASE_TABLE
