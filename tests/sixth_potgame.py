"""A sixth pot game written by docs/architecture.md's recipe, to show the pot-game base carries the rest.

"Dreiblatt" (made up for the test): the dealer antes three chips, everyone gets three cards of the
20-card pack; from forehand each taps or passes; nobody: the pot stays; one: she takes it; else three
tricks, follow suit, no trumps; a third of the pot per trick, the pot as a bête without a trick.
Rules, State, Game with its PHASE_TABLE, and observer below are all a game writes; the base does session,
ledger, scores, settlement, end of deal, conservation and the observer calls; the table dispatches each
action. tests/test_potgame.py plays it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar

import numpy as np

from rams_env.core import observation_core as core
from rams_env.core import observation_seats as seats
from rams_env.core.actions import ActionLayout, ActionName, Segment, play_segment
from rams_env.core.cards import LUPFEN_20, RankOrder
from rams_env.core.game import StateEnum, redeal_unseen
from rams_env.core.observation_core import Observation
from rams_env.core.phases import END, Next, PhaseTable, Step, offer
from rams_env.core.potgame import PotGame, PotState
from rams_env.core.rules import Rules
from rams_env.core.seating import next_seat, seats_from
from rams_env.core.trickplay import play_card
from rams_env.core.tricks import PlayRules, TrickOrder
from rams_env.core.turns import ask_in_turn, ask_next

TRICKS = 3
ORDER = TrickOrder(RankOrder.parse("A 10 K Q J"))


@dataclass(frozen=True)
class DreiblattRules(Rules):
    stake: int = 3
    bankroll: int = 100
    session_deals: int = 5
    PRESETS: ClassVar[dict[str, dict]] = {"standard": {}}

    def pack(self):
        return LUPFEN_20

    def player_range(self) -> tuple[int, int]:
        return 3, 5

    def share_per_trick(self, pot: int) -> int:
        return pot // TRICKS

    @staticmethod
    def bete_for(pot: int, tricks: int) -> int:
        return pot if tricks == 0 else 0


class Phase(StateEnum):
    """Tap or pass, then the tricks."""

    BID = "bid"
    PLAY = "play"


class Act(ActionName):
    PLAY = "play"
    TAP = "tap"
    PASS = "pass"


class Bid(StateEnum):
    NONE, PASS, TAP = 0, 1, 2


@dataclass
class DreiblattState(PotState):
    """Only the game's own fields: ledger, bids, queue, tricks, pot at play, breakdown are the bases'."""

    NO_BID = Bid.NONE
    phase: Phase = Phase.BID

    def active(self, seat: int) -> bool:
        return self.bids[seat] is Bid.TAP


def _layout(n: int) -> Observation:
    """The core's parts: hand, table, per-player block, position and phase, pot, trick number, bids."""
    block = seats.SeatBlock([*seats.play_markers(Phase.PLAY), seats.playing_field("1 if she taps", n),
                             seats.tricks_won_field(TRICKS), seats.net_field(200, "200")], n)
    parts = [core.hand(), *core.around_the_table(block, list(Phase)), *core.pot_game_end(100, "100", TRICKS)]
    return Observation(parts, n, LUPFEN_20)


def _render(game: Dreiblatt, state: DreiblattState, seat: int | None = None) -> str:
    return f"Dreiblatt pot {state.ledger.pot} phase {state.phase.value}"


class Dreiblatt(PotGame):
    name = "dreiblatt"
    rules_type = DreiblattRules
    state_type = DreiblattState
    play_phase = Phase.PLAY
    observer = SimpleNamespace(encode=core.encode, view=core.view, render=_render)
    default_players = 3

    def build_actions(self) -> ActionLayout:
        return ActionLayout([play_segment(self.pack()), Segment(Act.TAP), Segment(Act.PASS)], names=Act)

    def build_observation(self) -> Observation:
        return _layout(self.num_players)

    def start_deal(self, state: DreiblattState, deal) -> None:
        state.clear_deal()
        state.ledger.pay_in(state.dealer, self.rules.stake)
        state.hands, _ = self.complete_deal(state, deal, TRICKS)
        PHASE_TABLE.start(self, state, Phase.BID)
        self.update_scores(state)

    def begin_bidding(self, state: DreiblattState) -> Next:
        ask_in_turn(state, seats_from(self.num_players, state.dealer + 1))
        return None

    def bid(self, state: DreiblattState, seat: int, name: Act, item: int) -> Next:
        state.bids[seat] = Bid.TAP if name is Act.TAP else Bid.PASS
        if ask_next(state):
            return None
        active = [s for s in range(self.num_players) if state.active(s)]
        if len(active) == 1:
            state.ledger.take_out(active[0], state.ledger.pot)
        if len(active) <= 1:
            self.end_deal(state, "lone_player" if active else "all_passed")
            return END
        return Phase.PLAY

    def enter_play(self, state: DreiblattState) -> Next:
        self.begin_play(state, next_seat(self.num_players, state.dealer, state.active))
        return None

    def legal_play(self, state: DreiblattState) -> list[int]:
        trick = [c for _, c in state.trick]
        return self.actions.card_actions(Act.PLAY, ORDER.legal_plays(state.hands[state.to_act], trick,
                                                                     PlayRules(follow=True)))

    def play(self, state: DreiblattState, seat: int, name: Act, card: int) -> Next:
        if play_card(state, seat, card, ORDER, state.active) and state.tricks_played == TRICKS:
            self.settle(state)
            self.end_deal(state, "played")
            return END
        return None

    def seat_bete(self, state: DreiblattState, seat: int, pot: int) -> int:
        return self.rules.bete_for(pot, state.tricks_won[seat])

    def card_places_now(self, state: DreiblattState) -> list[list[int]]:
        dealt = {c for place in (*state.hands, *state.played) for c in place}
        return [*state.hands, *state.played, [c for c in LUPFEN_20.cards if c not in dealt]]

    def shuffle_unseen(self, state: DreiblattState, seat: int, rng: np.random.Generator) -> DreiblattState:
        clone = state.clone()
        redeal_unseen([clone.hands[s] for s in range(self.num_players) if s != seat], rng)
        return clone


PHASE_TABLE = PhaseTable({
    Phase.BID: Step(offer(Act.TAP, Act.PASS), Dreiblatt.bid, then=(Phase.PLAY, END), enter=Dreiblatt.begin_bidding),
    Phase.PLAY: Step(Dreiblatt.legal_play, Dreiblatt.play, then=(END,), enter=Dreiblatt.enter_play),
}, first=(Phase.BID,))
"""Dreiblatt's deal: tap or pass in turn (fewer than two end it), then the three tricks."""
Dreiblatt.phase_table = PHASE_TABLE
