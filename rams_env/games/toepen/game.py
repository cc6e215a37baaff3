"""Toepen (and Siwweschrööm): the rules engine. Source: 004_1647bc5d8766b13d.txt.

A deal runs: dirty-hand claims and challenges -> announcements -> the poverty raise
(option) -> four tricks with knocks, stays and folds -> settlement in lives.

This module is the Game: declarations, the deal, what is hidden, and PHASE_TABLE (at the end):
the table of the deal's phases, each with its legal actions, its handler and the phases that
may follow. The handlers live in openings.py (dirty hands, challenges, announcements, poverty)
and play.py (knocks, stays and folds, tricks, settlement in lives); each returns the phase that
follows, so a move goes apply_action -> handler -> the next phase's ``enter``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rams_env.core.actions import ActionLayout, Segment, play_segment
from rams_env.core.cards import PIQUET_32, SUITS, Pack, RankOrder
from rams_env.core.game import DealSpec, Game, OptionError, redeal_unseen
from rams_env.core.global_state import Place
from rams_env.core.observation import ObservationLayout
from rams_env.core.phases import END, PhaseTable, Step, offer
from rams_env.core.private_choice import PrivateChoice
from rams_env.core.seating import next_seat
from rams_env.core.tricks import TrickOrder
from rams_env.games.toepen import observe, openings, play
from rams_env.games.toepen.openings import DIRTY_RANKS
from rams_env.games.toepen.rules import ToepenRules
from rams_env.games.toepen.state import HAND_SIZE, TRICKS, Act, Phase, Signal, ToepenState

__all__ = ["DIRTY_RANKS", "HAND_SIZE", "RANKS", "TRICKS", "Toepen"]  # imported from here elsewhere

RANKS = RankOrder.parse("10 9 8 7 A K Q J")
"""Toepen's rank order, highest first ("Players and cards")."""


class Toepen(Game):
    """Toepen for 3 to 8 players; see docs/rules/toepen.md."""

    name = "toepen"
    rules_type = ToepenRules
    score_unit = "lives"
    default_players = 4
    carry_options = ("lives_lost",)
    observer = observe
    card_places = {"hands": Place.SEATS, "face_down": Place.SEATS, "stock": Place.PILE, "claim": Place.PILE}
    rules: ToepenRules

    def __init__(self, num_players: int | None = None, rules: ToepenRules | None = None, *, session: bool = False):
        super().__init__(num_players, rules, session=session)
        self.order = TrickOrder(RANKS)
        self.trick_orders = (self.order,)
        self.precedence = [SUITS.index(s) for s in self.rules.suit_precedence]
        self.jack_announcement = PrivateChoice((self.ids[Act.ANNOUNCE], self.ids[Act.SILENT]), self.ids[Act.SILENT],
                                               openings.may_announce_jacks)
        """Every player still in is asked; only three or four jacks may whistle or stand up."""

    # ------------------------------------------------------------ declarations
    def player_range(self) -> tuple[int, int]:
        return 3, 8

    def pack(self) -> Pack:
        return PIQUET_32

    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            play_segment(PIQUET_32),
            Segment(Act.KNOCK, doc="raise the stake by one life"),
            Segment(Act.PASS, doc="do not knock now (any-time knock window)"),
            Segment(Act.STAY, doc="stay in after a knock (or the poverty raise)"),
            Segment(Act.FOLD, doc="fold: lose the stake before the knock, take no further part"),
            Segment(Act.DIRTY, doc="discard the hand as dirty and take four new cards (may be a bluff)"),
            Segment(Act.KEEP, doc="keep the hand"),
            Segment(Act.CHALLENGE, doc="turn the dirty-hand claim face up"),
            Segment(Act.ACCEPT, doc="let the dirty-hand claim stand"),
            Segment(Act.ANNOUNCE, doc="whistle (three jacks) or stand up (four jacks)"),
            Segment(Act.SILENT, doc="make no announcement (the only answer without three or four jacks)"),
        ], names=Act)

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players, self.rules.lives)

    # ------------------------------------------------------------ session/deal
    def new_session(self, rng: np.random.Generator, dealer: int, carry: Mapping[str, Any]) -> ToepenState:
        n, lives = self.num_players, self.rules.lives
        lost = carry.get("lives_lost", [0] * n)
        if (not isinstance(lost, (list, tuple)) or len(lost) != n
                or any(isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0 for x in lost)):
            raise OptionError(f"option 'lives_lost' must be {n} whole numbers >= 0, got {lost!r}")
        lost = [int(x) for x in lost]
        out = [x >= lives for x in lost]
        if not self.rules.play_on and any(out):
            raise OptionError(f"option 'lives_lost': someone has lost all {lives} lives; the session is over")
        if sum(not o for o in out) < 2:
            raise OptionError("option 'lives_lost': fewer than two players are left in the session")
        return ToepenState(num_players=n, rng=rng, dealer=dealer, lives_lost=lost, out=out)

    def random_carry(self, rng: np.random.Generator) -> dict[str, Any]:
        return {"lives_lost": [int(x) for x in rng.integers(0, self.rules.lives, self.num_players)]}

    def start_deal(self, state: ToepenState, deal: DealSpec | None) -> None:
        n = self.num_players
        state.clear_deal()
        if state.out[state.dealer]:
            state.dealer = next_seat(n, state.dealer, lambda s: not state.out[s])
        sizes = [0 if state.out[s] else HAND_SIZE for s in range(n)]
        state.hands, state.stock = self.complete_deal(state, deal, sizes)
        state.leader = next_seat(n, state.dealer, lambda s: not state.out[s])
        PHASE_TABLE.start(self, state, openings.begin_dirty(self, state))

    def session_over(self, state: ToepenState) -> bool:
        if self.rules.play_on:
            return sum(not o for o in state.out) <= 1
        return any(x >= self.rules.lives for x in state.lives_lost)

    def can_knock(self, state: ToepenState, seat: int) -> bool:
        """Knocking rules ("Knocking", "Endgame", "Variations": poverty).

        Not twice in a row; and only with lives enough to cover the raised stake:
        nine lives lost forbid any knock, eight the second, and so on.
        """
        return (state.in_play(seat) and seat != state.last_knocker
                and state.lives_left(seat, self.rules.lives) >= state.stake + 1
                and sum(state.in_play(s) for s in range(self.num_players)) > 1)

    # ----------------------------------------------------------- observation
    def shuffle_unseen(self, state: ToepenState, seat: int, rng: np.random.Generator) -> ToepenState:
        clone = state.clone()
        others = [s for s in range(self.num_players) if s != seat]
        groups = [clone.hands[s] for s in others] + [clone.face_down[s] for s in others] + [clone.stock]
        if clone.claimant is not None and clone.claimant != seat:
            groups.append(clone.claim)
        redeal_unseen(groups, rng)
        return clone

    def compulsory_reveals(self, state: ToepenState) -> list[Signal]:
        """Three tens must whistle, four must stand up (the signals; jacks are a choice, made by an action)."""
        return list(state.signals)

    def conserved(self, state: ToepenState) -> dict[str, Any]:
        """Every card is somewhere exactly once; lives lost equal minus the scores."""
        places = [*state.hands, *state.face_down, *state.played, state.stock, state.revealed, state.claim]
        return {
            "cards": sorted(c for place in places for c in place),
            "lives": sum(state.lives_lost) + sum(state.scores),
        }


PHASE_TABLE = PhaseTable({
    Phase.DIRTY: Step(offer(Act.DIRTY, Act.KEEP), openings.dirty_decision, enter=openings.continue_dirty,
                      then=(Phase.DIRTY, Phase.CHALLENGE, Phase.ANNOUNCE)),
    Phase.CHALLENGE: Step(offer(Act.CHALLENGE, Act.ACCEPT), openings.challenge_decision, then=(Phase.DIRTY,)),
    Phase.ANNOUNCE: Step(openings.legal_announce, openings.announce_decision, enter=openings.begin_announce,
                         then=(Phase.RESPOND, Phase.WINDOW, Phase.PLAY)),
    Phase.RESPOND: Step(offer(Act.STAY, Act.FOLD), play.respond, then=(Phase.WINDOW, Phase.PLAY, END)),
    Phase.WINDOW: Step(offer(Act.KNOCK, Act.PASS), play.window, enter=play.continue_window,
                       then=(Phase.WINDOW, Phase.RESPOND, Phase.PLAY)),
    Phase.PLAY: Step(play.legal, play.play, enter=play.resume_play,
                     then=(Phase.PLAY, Phase.WINDOW, Phase.RESPOND, END)),
}, first=(Phase.DIRTY,))
"""Toepen's deal: each phase's legal actions, handler, set-up, and the phases that may follow.

Dirty-hand claims in turn (each claim open to challenge; skipped without the rule or the stock), the jack
announcements (skipped without the rule), the poverty raise's stays and folds, then trick play: a knock, on
one's turn or in the any-time window after each card, asks everyone still in to stay or fold, and play
resumes where it was (``state.resume``). A deal ends when all but one fold or the fourth trick is played.
"""
Toepen.phase_table = PHASE_TABLE
