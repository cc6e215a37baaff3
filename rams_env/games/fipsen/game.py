"""Fipsen: the rules engine for all four regional games. Source: 001_f2515c7741548cc2.txt.

Thedinghausen: five players, a turned trump, an optional "fipsen" call, follow and
overtake, else trump and overtrump; tricks count toward a race to ten. The Holstein
and Mecklenburg games: an auction on a ladder of contracts (data in contracts.py), the
declarer picks up skat, Kieker cards or Dutt and discards, names trumps, and plays
alone against the others (follow suit, else any card); the score sheet records the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rams_env.actions import ActionLayout, Segment
from rams_env.cards import NATURAL_ORDER, SUITS, Pack, card, rank_of, suit_of
from rams_env.game import DealSpec, Game, OptionError, redeal_unseen
from rams_env.games.fipsen import observe
from rams_env.games.fipsen.contracts import Contract, Talon, Trumps
from rams_env.games.fipsen.rules import Auction, FipsenRules, Variant
from rams_env.games.fipsen.state import FipsenState, Phase
from rams_env.observation import ObservationLayout
from rams_env.potgame import ledger_from_carry, net_results
from rams_env.seating import next_seat, seats_from
from rams_env.trickplay import play_card
from rams_env.tricks import PlayRules, TrickOrder

HAND_SIZE = TRICKS = 5
HOLSTEIN_PLAY = PlayRules(follow=True)  # "follow suit if able, otherwise may discard"
THEDINGHAUSEN_PLAY = PlayRules(follow=True, trump_when_void=True, head=True)  # overtake; trump and overtrump
COURTS = ("K", "Q", "J")
TALON_DISCARDS = {Talon.NONE: 0, Talon.SKAT: 2, Talon.KIEKER: 5, Talon.KIEKER_ALL: 7, Talon.DUTT: 5}
KIEKER_CONCESSION = 5  # Grossenaspe: "the declarer may fold and concede 5 points"


class Fipsen(Game):
    """Fipsen in its four regional forms; see docs/rules/fipsen.md."""

    name = "fipsen"
    rules_type = FipsenRules
    default_players = 4
    carry_options = ("sheet", "race", "pot", "bankrolls")
    preset_aliases = ("variant",)
    rules: FipsenRules

    def __init__(self, num_players: int | None = None, rules: FipsenRules | None = None, *, session=False):
        rules = rules if rules is not None else FipsenRules()
        super().__init__(num_players if num_players is not None else rules.spec.players, rules, session=session)
        self.spec = self.rules.spec
        self.ladder: tuple[Contract, ...] = self.spec.ladder
        self.ids = self.actions.singles
        self._orders = [TrickOrder(NATURAL_ORDER, trump=t) for t in range(len(SUITS))]
        self.preference = SUITS.index(self.spec.preference)
        self.suits = sorted({suit_of(c) for c in self.pack().cards})
        self.thedinghausen = self.rules.variant is Variant.THEDINGHAUSEN

    # ------------------------------------------------------------ declarations
    def player_range(self) -> tuple[int, int]:
        return self.rules.spec.players, self.rules.spec.players

    def pack(self) -> Pack:
        return self.rules.spec.pack

    def build_actions(self) -> ActionLayout:
        codes_ = self.pack().codes
        bids = tuple(c.label.removeprefix("bid ") for c in self.rules.spec.ladder) or ("none",)
        return ActionLayout([
            Segment("play", codes_, bare=True, doc="play this card"),
            Segment("discard", codes_, doc="declarer: discard this card after picking up"),
            Segment("bid", bids, doc="bid this contract (the variant's ladder, lowest first)"),
            Segment("hold", doc="Prisdorf: hold the later player's bid"),
            Segment("pass", doc="pass (auction, fipsen call)"),
            Segment("trump", SUITS, doc="declarer: name trumps"),
            Segment("fipsen", doc="Thedinghausen: undertake all five tricks"),
            Segment("concede", doc="Grossenaspe Kieker: fold, conceding five points"),
            Segment("play_kieker", doc="Grossenaspe Kieker: play it"),
            Segment("play_on", doc="Grossenaspe: bid made, play on for a Durch"),
            Segment("stop", doc="Grossenaspe: bid made, stop and score it"),
        ])

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players, self.pack(), len(self.rules.spec.ladder))

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

    def check_deal(self, hands, extra) -> None:
        del hands, extra  # the stock carries skat, aside cards and the turn-up, top first

    def session_over(self, state: FipsenState) -> bool:
        if self.thedinghausen and state.race_won:
            return True
        return state.deals_played >= self.rules.session_deals

    def start_deal(self, state: FipsenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.ledger.paid_in = [0] * n
        if self.thedinghausen and state.race_won:  # a new race: everyone antes a hedewig
            state.race, state.race_won = [0] * n, False
            for seat in range(n):
                state.ledger.pay_in(seat, 1)
        self._deal(state, deal)
        self._update_scores(state)

    def _deal(self, state: FipsenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.hands, stock = self.complete_deal(state, deal, HAND_SIZE)
        state.face_down, state.played = [[] for _ in range(n)], [[] for _ in range(n)]
        state.tricks_won, state.passed, state.trick, state.tricks_played = [0] * n, [False] * n, [], 0
        state.declarer = state.contract = state.highest = state.highest_bidder = state.fipsen = None
        state.holder = state.challenger = None
        state.holder_to_answer, state.playing_on, state.to_discard, state.breakdown = False, False, 0, {}
        state.trump = state.turned = None
        forehand = (state.dealer + 1) % n
        if self.thedinghausen:
            state.turned, state.skat, state.aside = stock[0], [], stock[1:]
            state.trump = suit_of(state.turned)
            state.phase, state.queue, state.to_act = Phase.CALL, seats_from(n, forehand), forehand
            return
        state.skat, state.aside = stock[:self.spec.skat], stock[self.spec.skat:]
        self._begin_auction(state, forehand)

    # ------------------------------------------------------------------ legal
    def legal_actions(self, state: FipsenState) -> list[int]:
        if state.terminal:
            return []
        ids, phase, seat = self.ids, state.phase, state.to_act
        if phase is Phase.PLAY:
            start, index = self.actions.start["play"], self.pack().index
            rules = THEDINGHAUSEN_PLAY if self.thedinghausen else HOLSTEIN_PLAY
            cards_ = self._orders[state.trump].legal_plays(state.hands[seat], [c for _, c in state.trick], rules)
            return sorted(start + index[c] for c in cards_)
        if phase is Phase.AUCTION:
            return self._legal_auction(state, seat)
        if phase is Phase.DISCARD:
            start, index = self.actions.start["discard"], self.pack().index
            return sorted(start + index[c] for c in state.hands[seat])
        if phase is Phase.TRUMP:
            return [self.actions.id("trump", s) for s in self._trump_choices()]
        return {Phase.CALL: [ids["pass"], ids["fipsen"]], Phase.KIEKER: [ids["concede"], ids["play_kieker"]],
                Phase.PLAY_ON: [ids["play_on"], ids["stop"]]}[phase]

    def _trump_choices(self) -> list[int]:
        """Any suit of the pack; in Mecklenburg diamonds (the Rutenas alone) is a bid of its own."""
        if self.rules.variant in (Variant.ANSEGGERFIPS, Variant.DUTTFIPS):
            return [s for s in self.suits if s != self.preference]
        return list(self.suits)

    def eligible(self, state: FipsenState, seat: int, contract: Contract) -> bool:
        hand, needs = state.hands[seat], contract.needs
        if needs == "no_courts":
            return not any(rank_of(c) in COURTS for c in hand)
        if needs == "rutenas":
            return card("Ad") in hand
        if needs == "siebener":
            return sum(rank_of(c) == "7" for c in hand) == 4 and any(rank_of(c) == "A" for c in hand)
        return True

    def _bids_above(self, state: FipsenState, seat: int, level: int | None) -> list[int]:
        start = self.actions.start["bid"]
        low = -1 if level is None else level
        return [start + i for i, c in enumerate(self.ladder) if i > low and self.eligible(state, seat, c)]

    def _legal_auction(self, state: FipsenState, seat: int) -> list[int]:
        ids, auction = self.ids, self.spec.auction
        bids = self._bids_above(state, seat, state.highest)
        if auction is Auction.SINGLE_ROUND and state.highest is None:
            return bids  # Duttfips: forehand may not pass
        if auction is Auction.HOLD and state.holder_to_answer:
            return sorted([ids["hold"], ids["pass"], *bids])
        return sorted([ids["pass"], *bids])

    # ------------------------------------------------------------------ apply
    def apply_action(self, state: FipsenState, action: int) -> None:
        seat = state.to_act
        name, item = self.actions.segment(action)
        if name == "play":
            self._play_card(state, seat, self.pack().cards[item])
        elif name == "discard":
            self._discard(state, seat, self.pack().cards[item])
        elif name == "trump":
            state.trump = item
            self._begin_play(state)
        elif name in ("fipsen", "pass") and state.phase is Phase.CALL:
            self._call(state, seat, fipsen=name == "fipsen")
        elif name in ("bid", "hold", "pass"):
            self._auction_step(state, seat, name, item)
        elif name in ("concede", "play_kieker"):
            self._kieker(state, seat, concede=name == "concede")
        else:
            self._play_on(state, seat, on=name == "play_on")
        self._update_scores(state)

    # ---------------------------------------------------- Thedinghausen's call
    def _call(self, state: FipsenState, seat: int, fipsen: bool) -> None:
        state.queue.pop(0)
        if fipsen:
            state.fipsen = seat
        if fipsen or not state.queue:
            self._begin_play(state)
        else:
            state.to_act = state.queue[0]

    # ---------------------------------------------------------------- auctions
    def _begin_auction(self, state: FipsenState, forehand: int) -> None:
        n, auction = self.num_players, self.spec.auction
        state.phase = Phase.AUCTION
        if auction is Auction.HOLD:  # "Beginning with forehand": she opens (bid or pass), nobody holds yet
            state.holder, state.challenger = None, forehand
            state.queue = [(forehand + i) % n for i in range(1, n)]
            state.to_act = forehand
        else:
            state.queue = seats_from(n, forehand)
            state.to_act = forehand

    def _auction_step(self, state: FipsenState, seat: int, name: str, level: int) -> None:
        if name == "bid":
            state.highest, state.highest_bidder = level, seat
            if self.ladder[level].needs == "siebener":  # wins without play
                self._award(state, seat, level, made=True, reason="siebener_fips")
                return
        elif name == "pass":
            state.passed[seat] = True
        if self.spec.auction is Auction.HOLD:
            self._hold_step(state, seat, name)
        elif self.spec.auction is Auction.SINGLE_ROUND:
            state.queue.pop(0)
            self._next_bidder(state, state.queue[0] if state.queue else None)
        else:
            self._open_step(state, seat)

    def _open_step(self, state: FipsenState, seat: int) -> None:
        """In turn: bid higher or pass (for good) until one bidder is left."""
        n = self.num_players
        nxt = next_seat(n, seat, lambda s: not state.passed[s] and s != state.highest_bidder)
        if state.highest is None and all(state.passed):
            nxt = None
        self._next_bidder(state, nxt)

    def _hold_step(self, state: FipsenState, seat: int, name: str) -> None:
        """Prisdorf: players enter in turn from forehand; the earlier of the bidding pair holds, bids higher or
        passes on each higher bid of the later one; whoever of the pair passes makes way for the next player."""
        if state.holder is None:  # nobody has bid yet: the entering player opened or passed
            if name == "bid":
                state.holder = seat
            self._next_challenger(state)
            return
        if seat == state.challenger and name == "bid":
            state.holder_to_answer, state.to_act = True, state.holder
            return
        if seat == state.holder and name != "pass":  # hold (same level) or bid higher still
            if name == "hold":
                state.highest_bidder = state.holder
            state.holder_to_answer, state.to_act = False, state.challenger
            return
        if seat == state.holder:  # the holder passes: the challenger's bid stands and she holds from now on
            state.holder = state.challenger
        state.holder_to_answer = False
        self._next_challenger(state)

    def _next_challenger(self, state: FipsenState) -> None:
        """The next player in turn enters the auction; when none is left it ends (declarer, or a redeal)."""
        state.challenger = state.queue.pop(0) if state.queue else None
        if state.challenger is not None:
            state.to_act = state.challenger
        else:
            self._next_bidder(state, None)

    def _next_bidder(self, state: FipsenState, seat: int | None) -> None:
        if seat is not None:
            state.to_act = seat
        elif state.highest is None:  # all pass: the same dealer deals again
            state.redeals += 1
            if state.redeals > 50:
                self._end_deal(state, "all_passed")
                return
            self._deal(state, None)
        else:
            self._won_auction(state)

    # -------------------------------------------------------- the declarer
    def _won_auction(self, state: FipsenState) -> None:
        seat, contract = state.highest_bidder, self.ladder[state.highest]
        state.declarer, state.contract, state.to_act = seat, state.highest, seat
        talon = contract.talon
        if talon is Talon.KIEKER_ALL:
            state.face_down[seat].extend(state.hands[seat])
            state.hands[seat] = []
        if talon in (Talon.SKAT, Talon.DUTT, Talon.KIEKER, Talon.KIEKER_ALL):
            state.hands[seat].extend(state.skat)
            state.skat = []
        if talon in (Talon.KIEKER, Talon.KIEKER_ALL):
            state.hands[seat].extend(state.aside)
            state.aside = []
        state.to_discard = TALON_DISCARDS[talon]
        if state.to_discard:
            state.phase = Phase.DISCARD
        else:
            self._after_discards(state)

    def _discard(self, state: FipsenState, seat: int, card_id: int) -> None:
        state.hands[seat].remove(card_id)
        state.face_down[seat].append(card_id)
        state.to_discard -= 1
        if state.to_discard == 0:
            self._after_discards(state)

    def _after_discards(self, state: FipsenState) -> None:
        contract = self.ladder[state.contract]
        if contract.talon is Talon.KIEKER_ALL:
            state.phase = Phase.KIEKER
        else:
            self._choose_trumps(state)

    def _kieker(self, state: FipsenState, seat: int, concede: bool) -> None:
        if concede:
            self._record(state, seat, -KIEKER_CONCESSION, "kieker_conceded")
        else:
            self._choose_trumps(state)

    def _choose_trumps(self, state: FipsenState) -> None:
        if self.ladder[state.contract].trumps is Trumps.PREFERENCE:
            state.trump = self.preference
            self._begin_play(state)
        else:
            state.phase = Phase.TRUMP

    # ------------------------------------------------------------------ tricks
    def _begin_play(self, state: FipsenState) -> None:
        state.phase = Phase.PLAY
        state.leader = state.to_act = (state.dealer + 1) % self.num_players  # forehand leads

    def _play_card(self, state: FipsenState, seat: int, card_id: int) -> None:
        if play_card(state, seat, card_id, self._orders[state.trump], lambda s: True) is None:
            return
        if self.thedinghausen:
            self._race_trick(state, state.leader)
        else:
            self._check_contract(state)

    def _race_trick(self, state: FipsenState, winner: int) -> None:
        if not state.race_won:
            state.race[winner] += 1
            if state.race[winner] >= self.rules.race_to:
                self._win_race(state, winner)
        if state.tricks_played == TRICKS:
            self._settle_fipsen_call(state)

    def _win_race(self, state: FipsenState, winner: int) -> None:
        """The first to ten tricks wins the hedewigs in the pot."""
        state.race_won = True
        state.breakdown["race_winner"] = winner
        state.ledger.take_out(winner, state.ledger.pot)

    def _settle_fipsen_call(self, state: FipsenState) -> None:
        """A made fipsen counts double (ten tricks); a failed one pays five hedewigs into the pot."""
        caller = state.fipsen
        if caller is not None:
            made = state.tricks_won[caller] == TRICKS
            state.breakdown["fipsen"] = {"player": caller, "made": made}
            if not made:
                state.ledger.pay_in(caller, self.rules.prize)
            elif not state.race_won:
                state.race[caller] += TRICKS
                if state.race[caller] >= self.rules.race_to:
                    self._win_race(state, caller)
        self._end_deal(state, "played")

    def _check_contract(self, state: FipsenState) -> None:
        """Grossenaspe ends play once the bid is made or lost; elsewhere all five tricks are played."""
        contract, seat = self.ladder[state.contract], state.declarer
        target = TRICKS if state.playing_on else contract.tricks
        won, lost = state.tricks_won[seat], state.tricks_played - state.tricks_won[seat]
        if self.spec.play_on and lost > TRICKS - target:
            self._award(state, seat, state.contract, made=state.playing_on, reason="failed",
                        failed_durch=state.playing_on)
        elif state.tricks_played == TRICKS:
            self._award(state, seat, state.contract, made=won >= target, reason="played",
                        durch=won == TRICKS)
        elif self.spec.play_on and won >= target and not state.playing_on and target < TRICKS:
            state.phase, state.to_act = Phase.PLAY_ON, seat  # only while tricks remain to play for

    def _play_on(self, state: FipsenState, seat: int, on: bool) -> None:
        if on:
            state.playing_on, state.phase = True, Phase.PLAY
            state.to_act = state.leader
        else:
            self._award(state, seat, state.contract, made=True, reason="stopped")

    # ---------------------------------------------------------------- scoring
    def contract_value(self, state: FipsenState, level: int) -> int:
        contract = self.ladder[level]
        doubled = (self.spec.preference_doubles and contract.trumps is Trumps.CHOSEN and not contract.fixed
                   and state.trump == self.preference)
        return contract.value * (2 if doubled else 1)

    def _award(self, state: FipsenState, seat: int, level: int, made: bool, reason: str,
               durch: bool = False, failed_durch: bool = False) -> None:
        state.contract = level
        value = self.contract_value(state, level)
        if failed_durch:
            points = -value  # the bid was made, the Durch was not
        elif made:
            points = value * (2 if (durch and self.spec.durch_doubles) or state.playing_on else 1)
        else:
            points = -value * (2 if self.spec.durch_doubles else 1)
        self._record(state, seat, points, reason)

    def _record(self, state: FipsenState, seat: int, points: int, reason: str) -> None:
        state.sheet[seat] += points
        state.breakdown.update({"declarer": seat, "points": points,
                                "contract": self.ladder[state.contract].label if state.contract is not None
                                else None})
        self._end_deal(state, reason)

    def _end_deal(self, state: FipsenState, reason: str) -> None:
        state.breakdown.update({"reason": reason, "tricks_won": list(state.tricks_won), "race": list(state.race),
                                "sheet": list(state.sheet)})
        state.dealer = (state.dealer + 1) % self.num_players
        state.redeals = 0
        state.deal_over, state.to_act, state.queue = True, None, []

    def _update_scores(self, state: FipsenState) -> None:
        if self.thedinghausen:
            state.scores = net_results(state.ledger, state.session_start)
        else:
            state.scores = [a - b for a, b in zip(state.sheet, state.sheet_start, strict=True)]

    # ------------------------------------------------------------- observation
    def encode(self, state: FipsenState, seat: int, out: np.ndarray) -> None:
        observe.encode(self, state, seat, out)

    def view(self, state: FipsenState, seat: int) -> dict[str, Any]:
        return observe.view(self, state, seat)

    def render(self, state: FipsenState, seat: int | None = None) -> str:
        return observe.render(self, state, seat)

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
