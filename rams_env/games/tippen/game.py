"""Tippen (Dreiblatt, Drei Karten, Loup): the rules engine. Source: 000_87480ce3960bd8a6.txt.

One engine for five rule sets: the dealer antes the basic stake and deals three cards
(Loup six) around a trump; the dealer's privileges (knock, sniff) and robbing come
first; then play or pass (forced while the pot holds only the basic stake, where the
rule set says so); a lone player takes the pot; exchanges (modern); tricks under the
rule set's obligations; shares per trick, bêtes for trickless players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rams_env.actions import ActionLayout, Segment
from rams_env.cards import NATURAL_ORDER, SUITS, Pack, rank_of, suit_of
from rams_env.game import DealSpec, Game, OptionError, redeal_unseen
from rams_env.games.tippen import observe
from rams_env.games.tippen.rules import Bete, DealerOption, PlayMode, TippenRules, TrickPays, TrumpFrom
from rams_env.games.tippen.state import Bid, Phase, TippenState
from rams_env.observation import ObservationLayout
from rams_env.potgame import POT_CARRY_OPTIONS, ledger_from_carry, net_results
from rams_env.seating import next_seat, seats_from
from rams_env.trickplay import play_card
from rams_env.tricks import Lead, PlayRules, TrickOrder

PLAY_RULES = {
    PlayMode.HEAD: PlayRules(follow=True, trump_when_void=True, head=True),
    PlayMode.TRUMP: PlayRules(follow=True, trump_when_void=True),
    PlayMode.FREE_TRUMP: PlayRules(follow=True),
}
"""Each rule set's obligations ("Play" sections of the source)."""
HOP_RANKS = ("A", "7")
"""Hop and jump: a cut showing an ace or a seven passes the deal on."""


class Tippen(Game):
    """Tippen in all its rule sets; see docs/rules/tippen.md."""

    name = "tippen"
    rules_type = TippenRules
    default_players = 4
    carry_options = POT_CARRY_OPTIONS
    deal_options = ("hands", "stock", "turned")
    preset_aliases = ("ruleset",)
    rules: TippenRules

    def __init__(self, num_players: int | None = None, rules: TippenRules | None = None, *, session=False):
        super().__init__(num_players, rules, session=session)
        self.ids = self.actions.singles
        self._orders = [TrickOrder(NATURAL_ORDER, trump=t) for t in range(len(SUITS))]
        self.play_rules = PLAY_RULES[self.rules.play_mode]

    def player_range(self) -> tuple[int, int]:
        return self.rules.player_range()

    def pack(self) -> Pack:
        return self.rules.pack()

    def build_actions(self) -> ActionLayout:
        codes_ = self.pack().codes
        return ActionLayout([
            Segment("play", codes_, bare=True, doc="play this card"),
            Segment("discard", codes_, doc="discard this card (exchange; after a knock, sniff or rob)"),
            Segment("done", doc="end the exchange: receive as many cards from the talon"),
            Segment("tap", doc="play this deal (tippen), undertaking a trick"),
            Segment("pass", doc="drop out of this deal"),
            Segment("knock", doc="dealer: knock on the unseen trump before looking at the hand"),
            Segment("sniff", doc="dealer: sniff (take the trump card, discard one)"),
            Segment("decline", doc="do not use the privilege (knock, sniff, rob)"),
            Segment("rob", doc="holder of the trump 7: take the upcard, discard one"),
            Segment("drop", doc="sniffing dealer (1859): drop out, paying a simple bête"),
            Segment("deal", doc="dealer: deal"),
            Segment("shove", doc="dealer: leave the ante in the pot and pass the deal on"),
        ])

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players, self.pack(), self.rules.hand_size)

    # ------------------------------------------------------------ session/deal
    def new_session(self, rng: np.random.Generator, dealer: int, carry: Mapping[str, Any]) -> TippenState:
        ledger = ledger_from_carry(carry, self.num_players, self.rules.bankroll)
        return TippenState(num_players=self.num_players, rng=rng, dealer=dealer, ledger=ledger,
                           session_start=list(ledger.bankrolls))

    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"pot": int(self.rules.stake * rng.integers(0, 8))}

    def check_deal(self, hands, extra) -> None:
        if "turned" in extra and (len(extra["turned"]) != 1 or self.rules.trump_from is not TrumpFrom.TURNED):
            raise OptionError("option 'deal': 'turned' is one card, for rule sets that turn a trump")

    def session_over(self, state: TippenState) -> bool:
        return state.deals_played >= self.rules.session_deals

    def start_deal(self, state: TippenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.ledger.paid_in = [0] * n
        state.shoves, state.hops, state.breakdown, state.pending_deal = 0, 0, {}, deal
        state.ledger.pay_in(state.dealer, self.rules.stake)
        if self.rules.max_bete:  # play for at most the maximum; the rest waits for later deals
            state.ledger.release_set_aside()
            state.ledger.cap_pot(self.rules.max_bete)
        if self.rules.hop_and_jump and deal is None:
            self._hop_and_jump(state)
        self._clear_deal(state)
        if self.rules.shoving:
            state.hands, state.talon = [[] for _ in range(n)], list(self.pack().cards)  # not dealt yet
            state.phase, state.to_act = Phase.SHOVE, state.dealer
        else:
            self._deal(state)
        self._update_scores(state)

    def _hop_and_jump(self, state: TippenState) -> None:
        """While the cut shows an ace or a seven the deal passes on and the new dealer antes too."""
        pack = self.pack().cards
        while state.hops < self.num_players - 1 and rank_of(pack[state.rng.integers(len(pack))]) in HOP_RANKS:
            state.hops += 1
            state.dealer = (state.dealer + 1) % self.num_players
            state.ledger.pay_in(state.dealer, self.rules.stake)

    def _clear_deal(self, state: TippenState) -> None:
        n = self.num_players
        state.bids, state.exchanged, state.tricks_won = [Bid.NONE] * n, [0] * n, [0] * n
        state.face_down, state.played = [[] for _ in range(n)], [[] for _ in range(n)]
        state.privileged, state.dropped, state.upcard_public, state.upcard_taken_by = None, False, True, None
        state.queue, state.trick, state.tricks_played, state.pending = [], [], 0, 0
        state.first_trick_winner, state.pot_at_play, state.trump_card = None, 0, -1

    def _deal(self, state: TippenState) -> None:
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
        if rules.dealer_option is not DealerOption.NONE:
            state.phase, state.to_act = Phase.DEALER, state.dealer
        else:
            self._offer_robbing(state)

    # ------------------------------------------------------------------ legal
    def legal_actions(self, state: TippenState) -> list[int]:
        if state.terminal:
            return []
        ids, phase = self.ids, state.phase
        if phase is Phase.PLAY:
            return self._legal_play(state)
        if phase is Phase.EXCHANGE:
            return self._legal_exchange(state)
        if phase is Phase.DISCARD:
            start, index = self.actions.start["discard"], self.pack().index
            return sorted(start + index[c] for c in state.hands[state.to_act])
        return {
            Phase.BID: [ids["tap"], ids["pass"]],
            Phase.DEALER: [ids["knock" if self.rules.dealer_option is DealerOption.KNOCK else "sniff"],
                           ids["decline"]],
            Phase.DROP: [ids["tap"], ids["drop"]],
            Phase.ROB: [ids["decline"], ids["rob"]],
            Phase.SHOVE: [ids["deal"], ids["shove"]] if state.shoves < self.num_players - 1 else [ids["deal"]],
        }[phase]

    def _legal_play(self, state: TippenState) -> list[int]:
        seat, start, index = state.to_act, self.actions.start["play"], self.pack().index
        order = self._orders[state.trump]
        hand, lead = state.hands[seat], Lead.ANY
        active = sum(state.active(s) for s in range(self.num_players))
        if not state.trick and state.tricks_played == 0 and self.rules.first_lead_trump and active >= 3:
            lead = Lead.TRUMP_IF_ABLE  # 1859: "the first must lead a trump"
        ace = next((c for c in hand if rank_of(c) == "A" and suit_of(c) == state.trump), None)
        if (not state.trick and state.tricks_played == 1 and self.rules.ace_to_second_trick
                and seat == state.first_trick_winner and ace is not None):
            return [start + index[ace]]  # 1859: the first trick's winner leads the trump ace
        cards_ = order.legal_plays(hand, [c for _, c in state.trick], self.play_rules, lead)
        return sorted(start + index[c] for c in cards_)

    def _legal_exchange(self, state: TippenState) -> list[int]:
        seat, limit = state.to_act, self._exchange_limit(state)
        legal = []
        if state.pending < limit:
            start, index = self.actions.start["discard"], self.pack().index
            legal = sorted(start + index[c] for c in state.hands[seat])
        return legal + [self.ids["done"]]

    def _exchange_limit(self, state: TippenState) -> int:
        return min(self.rules.exchange, len(state.talon))

    # ------------------------------------------------------------------ apply
    def apply_action(self, state: TippenState, action: int) -> None:
        seat = state.to_act
        name, item = self.actions.segment(action)
        card_id = self.pack().cards[item] if name in ("play", "discard") else None
        if name == "play":
            self._play_card(state, seat, card_id)
        elif name == "discard":
            self._discard(state, seat, card_id)
        elif name == "done":
            self._finish_exchange(state, seat)
        elif name in ("deal", "shove"):
            self._shove_decision(state, seat, shove=name == "shove")
        elif state.phase is Phase.DEALER:
            self._dealer_decision(state, seat, use=name != "decline")
        elif state.phase is Phase.DROP:
            self._drop_decision(state, seat, drop=name == "drop")
        elif state.phase is Phase.ROB:
            self._rob_decision(state, seat, rob=name == "rob")
        else:
            self._bid(state, seat, play=name == "tap")
        self._update_scores(state)

    def _shove_decision(self, state: TippenState, seat: int, shove: bool) -> None:
        """Shoving: the next player antes too and deals; each may shove once, so a deal happens."""
        if shove:
            state.shoves += 1
            state.dealer = (seat + 1) % self.num_players
            state.ledger.pay_in(state.dealer, self.rules.stake)
            state.to_act = state.dealer
        else:
            self._deal(state)

    # ---------------------------------------------- dealer's privileges, robbing
    def _dealer_decision(self, state: TippenState, seat: int, use: bool) -> None:
        if not use:
            self._offer_robbing(state)
            return
        state.privileged, state.bids[seat] = seat, Bid.PRIVILEGED
        state.hands[seat].append(state.trump_card)
        state.upcard_taken_by = seat
        state.upcard_public = self.rules.dealer_option is DealerOption.SNIFF_ALVENSLEBEN  # else taken unseen
        state.phase = Phase.DISCARD

    def _offer_robbing(self, state: TippenState) -> None:
        seven = next((s for s in range(self.num_players) for c in state.hands[s]
                      if rank_of(c) == "7" and suit_of(c) == state.trump), None)
        if self.rules.robbing and state.upcard_taken_by is None and seven is not None:
            state.phase, state.to_act = Phase.ROB, seven
        else:
            self._begin_bidding(state)

    def _rob_decision(self, state: TippenState, seat: int, rob: bool) -> None:
        if not rob:
            self._begin_bidding(state)
            return
        state.hands[seat].append(state.trump_card)
        state.upcard_taken_by = seat
        state.phase = Phase.DISCARD

    def _discard(self, state: TippenState, seat: int, card_id: int) -> None:
        state.hands[seat].remove(card_id)
        state.face_down[seat].append(card_id)
        if state.phase is Phase.EXCHANGE:
            state.pending += 1
            if state.pending == self._exchange_limit(state):
                self._finish_exchange(state, seat)
        elif seat == state.privileged and self.rules.dealer_option is DealerOption.SNIFF_ALVENSLEBEN:
            state.phase = Phase.DROP  # play, or drop out paying a simple bête
        elif seat == state.privileged:
            self._offer_robbing(state)
        else:
            self._begin_bidding(state)

    def _drop_decision(self, state: TippenState, seat: int, drop: bool) -> None:
        if drop:  # "drop out and pay a simple bête i.e. a single stake"
            state.ledger.pay_in(seat, self.rules.stake)
            state.bids[seat], state.privileged, state.dropped = Bid.PASS, None, True
        self._offer_robbing(state)

    # ------------------------------------------------------------------ bidding
    def _begin_bidding(self, state: TippenState) -> None:
        undecided = [s for s in seats_from(self.num_players, state.dealer + 1) if state.bids[s] is Bid.NONE]
        if state.forced:
            for s in undecided:
                state.bids[s] = Bid.FORCED
            self._after_bidding(state)
            return
        state.phase, state.queue = Phase.BID, undecided
        state.to_act = undecided[0]

    def _bid(self, state: TippenState, seat: int, play: bool) -> None:
        state.bids[seat] = Bid.PLAY if play else Bid.PASS
        state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
        else:
            self._after_bidding(state)

    def _after_bidding(self, state: TippenState) -> None:
        active = [s for s in range(self.num_players) if state.active(s)]
        if not active:  # all pass: the next dealer antes too and deals
            self._end_deal(state, "all_passed")
        elif len(active) == 1:  # a lone player wins the pot
            state.ledger.take_out(active[0], state.ledger.pot)
            self._end_deal(state, "lone_player")
        elif self.rules.exchange:
            state.phase = Phase.EXCHANGE
            state.queue = seats_from(self.num_players, state.dealer + 1, state.active)
            self._next_exchanger(state)
        else:
            self._begin_play(state)

    def _next_exchanger(self, state: TippenState) -> None:
        if state.queue and self._exchange_limit(state) > 0:
            state.to_act, state.pending = state.queue[0], 0
        else:
            self._begin_play(state)

    def _finish_exchange(self, state: TippenState, seat: int) -> None:
        state.hands[seat].extend(state.talon[:state.pending])
        state.talon = state.talon[state.pending:]
        state.exchanged[seat] = state.pending
        state.queue.pop(0)
        self._next_exchanger(state)

    # ------------------------------------------------------------------ tricks
    def _begin_play(self, state: TippenState) -> None:
        state.phase, state.pending = Phase.PLAY, 0
        state.pot_at_play = state.ledger.pot
        state.leader = state.to_act = next_seat(self.num_players, state.dealer, state.active)

    def _play_card(self, state: TippenState, seat: int, card_id: int) -> None:
        if play_card(state, seat, card_id, self._orders[state.trump], state.active) is None:
            return
        if state.tricks_played == 1:
            state.first_trick_winner = state.leader
        if state.tricks_played == self.rules.hand_size:
            self._settle(state)

    def _per_trick(self, pot: int) -> int:
        pays, stake = self.rules.trick_pays, self.rules.stake
        if pays is TrickPays.COUNTER or (pays is TrickPays.COUNTER_THEN_THIRD and pot == stake):
            return 1
        return pot // 3

    def _bete(self, state: TippenState, pot: int) -> int:
        return pot if self.rules.bete is Bete.POT else self.rules.stake

    def _penalty(self, state: TippenState, seat: int, pot: int) -> int:
        """What a player pays after play: the bête, or the privileged dealer's own scale."""
        tricks, bete, option = state.tricks_won[seat], self._bete(state, pot), self.rules.dealer_option
        if seat != state.privileged:
            return bete if tricks == 0 else 0
        if option is DealerOption.KNOCK:  # "double stake" with no trick, "single stake" with one
            return self.rules.stake * max(0, 2 - tricks)
        if option is DealerOption.SNIFF_GRUPP:  # must take two tricks: single bête for one, double for none
            return bete * max(0, 2 - tricks)
        return 2 * bete if tricks == 0 else 0  # Alvensleben: a sniffer without a trick pays a double bête

    def _settle(self, state: TippenState) -> None:
        ledger, pot = state.ledger, state.pot_at_play
        active = [s for s in range(self.num_players) if state.active(s)]
        per_trick = self._per_trick(pot)
        shares = {s: per_trick * state.tricks_won[s] for s in active}
        penalties = {s: self._penalty(state, s, pot) for s in active}
        for s in active:
            ledger.take_out(s, shares[s])
        for s in active:
            ledger.pay_in(s, penalties[s])
        state.breakdown.update({"shares": shares, "betes": penalties, "pot_at_play": pot,
                                "tricks_won": list(state.tricks_won)})
        self._end_deal(state, "played")

    def _end_deal(self, state: TippenState, reason: str) -> None:
        state.breakdown.update({"reason": reason, "privileged": state.privileged, "pot": state.ledger.pot,
                                "set_aside": state.ledger.set_aside, "paid_in": list(state.ledger.paid_in)})
        state.dealer = (state.dealer + 1) % self.num_players
        state.deal_over, state.to_act, state.queue = True, None, []

    def _update_scores(self, state: TippenState) -> None:
        state.scores = net_results(state.ledger, state.session_start)

    # ------------------------------------------------------------- observation
    def hand_is_hidden(self, state: TippenState, seat: int) -> bool:
        """A knocking dealer decides before looking at the hand ("Knocking")."""
        return (state.phase is Phase.DEALER and seat == state.dealer
                and self.rules.dealer_option is DealerOption.KNOCK)

    def encode(self, state: TippenState, seat: int, out: np.ndarray) -> None:
        observe.encode(self, state, seat, out)

    def view(self, state: TippenState, seat: int) -> dict[str, Any]:
        return observe.view(self, state, seat)

    def render(self, state: TippenState, seat: int | None = None) -> str:
        return observe.render(self, state, seat)

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

    def conserved(self, state: TippenState) -> dict[str, Any]:
        places = [*state.hands, *state.face_down, *state.played, state.talon]
        if self._upcard_on_table(state):
            places.append([state.trump_card])
        return {"cards": sorted(c for place in places for c in place), "chips": state.ledger.total}
