"""Toepen (and Siwweschrööm): the rules engine. Source: 004_1647bc5d8766b13d.txt.

A deal runs: dirty-hand claims and challenges -> announcements -> the poverty raise
(option) -> four tricks with knocks, stays and folds -> settlement in lives. Legal
actions are chosen by phase; every transition lives in one small method.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rams_env.actions import ActionLayout, Segment
from rams_env.cards import PIQUET_32, SUITS, Pack, RankOrder, rank_of
from rams_env.game import DealSpec, Game, OptionError, redeal_unseen
from rams_env.games.toepen import observe
from rams_env.games.toepen.rules import FoldedWinner, KnockTiming, ToepenRules
from rams_env.games.toepen.state import Phase, Signal, ToepenState
from rams_env.observation import ObservationLayout
from rams_env.seating import next_seat, seats_from
from rams_env.tricks import PlayRules, TrickOrder, winner_with_precedence

HAND_SIZE = 4
TRICKS = HAND_SIZE
RANKS = RankOrder.parse("10 9 8 7 A K Q J")
"""Toepen's rank order, highest first ("Players and cards")."""
DIRTY_RANKS = frozenset({"A", "K", "Q", "J"})
"""A hand of only these ranks may be discarded honestly ("Deal")."""
FOLLOW_SUIT = PlayRules(follow=True)
"""Must follow suit, else any card; no trumps ("Play of the cards")."""


class Toepen(Game):
    """Toepen for 3 to 8 players; see docs/rules/toepen.md."""

    name = "toepen"
    rules_type = ToepenRules
    default_players = 4
    carry_options = ("lives_lost",)
    rules: ToepenRules

    def __init__(self, num_players: int | None = None, rules: ToepenRules | None = None, *, session: bool = False):
        super().__init__(num_players, rules, session=session)
        self.order = TrickOrder(RANKS)
        self.precedence = [SUITS.index(s) for s in self.rules.suit_precedence]
        self.play_ids = [self.actions.id("play", i) for i in range(len(PIQUET_32))]
        self.ids = self.actions.singles

    # ------------------------------------------------------------ declarations
    def player_range(self) -> tuple[int, int]:
        return 3, 8

    def pack(self) -> Pack:
        return PIQUET_32

    def build_actions(self) -> ActionLayout:
        return ActionLayout([
            Segment("play", PIQUET_32.codes, bare=True, doc="play this card"),
            Segment("knock", doc="raise the stake by one life"),
            Segment("pass", doc="do not knock now (any-time knock window)"),
            Segment("stay", doc="stay in after a knock (or the poverty raise)"),
            Segment("fold", doc="fold: lose the stake before the knock, take no further part"),
            Segment("dirty", doc="discard the hand as dirty and take four new cards (may be a bluff)"),
            Segment("keep", doc="keep the hand"),
            Segment("challenge", doc="turn the dirty-hand claim face up"),
            Segment("accept", doc="let the dirty-hand claim stand"),
            Segment("announce", doc="whistle (three jacks) or stand up (four jacks)"),
            Segment("silent", doc="make no announcement with three or four jacks"),
        ])

    def build_observation(self) -> ObservationLayout:
        return observe.layout(self.num_players)

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
        state.folded = [False] * n
        state.deal_lost = [0] * n
        state.stake, state.knocks, state.last_knocker = 1, 0, None
        state.knocked_by, state.redraws, state.tricks_won = [0] * n, [0] * n, [0] * n
        state.signals = [Signal.NONE] * n
        state.played = [[] for _ in range(n)]
        state.face_down = [[] for _ in range(n)]
        state.revealed, state.trick = [], []
        state.claimant, state.claim, state.queue = None, [], []
        state.tricks_played, state.last_trick_winner, state.breakdown = 0, None, {}
        if state.out[state.dealer]:
            state.dealer = self._next_in(state, state.dealer, lambda s: not state.out[s])
        sizes = [0 if state.out[s] else HAND_SIZE for s in range(n)]
        state.hands, state.stock = self.complete_deal(state, deal, sizes)
        state.leader = self._next_in(state, state.dealer, lambda s: not state.out[s])
        self._begin_dirty(state)

    def session_over(self, state: ToepenState) -> bool:
        if self.rules.play_on:
            return sum(not o for o in state.out) <= 1
        return any(x >= self.rules.lives for x in state.lives_lost)

    # ------------------------------------------------------------------ legal
    def legal_actions(self, state: ToepenState) -> list[int]:
        if state.terminal:
            return []
        ids, phase = self.ids, state.phase
        if phase is Phase.PLAY:
            return self._legal_play(state)
        if phase is Phase.RESPOND:
            return [ids["stay"], ids["fold"]]
        if phase is Phase.WINDOW:
            return [ids["knock"], ids["pass"]]
        if phase is Phase.DIRTY:
            return [ids["dirty"], ids["keep"]]
        if phase is Phase.CHALLENGE:
            return [ids["challenge"], ids["accept"]]
        return [ids["announce"], ids["silent"]]

    def _legal_play(self, state: ToepenState) -> list[int]:
        seat = state.to_act
        cards = self.order.legal_plays(state.hands[seat], [c for _, c in state.trick], FOLLOW_SUIT)
        index = PIQUET_32.index
        legal = sorted(self.play_ids[index[c]] for c in cards)
        if self.rules.knock_timing is KnockTiming.BEFORE_PLAY and self.can_knock(state, seat):
            legal.append(self.ids["knock"])
        return legal

    def can_knock(self, state: ToepenState, seat: int) -> bool:
        """Knocking rules ("Knocking", "Endgame", "Variations": poverty).

        Not twice in a row; and only with lives enough to cover the raised stake:
        nine lives lost forbid any knock, eight the second, and so on.
        """
        return (state.in_play(seat) and seat != state.last_knocker
                and state.lives_left(seat, self.rules.lives) >= state.stake + 1
                and sum(state.in_play(s) for s in range(self.num_players)) > 1)

    # ------------------------------------------------------------------ apply
    def apply_action(self, state: ToepenState, action: int) -> None:
        seat = state.to_act
        name, item = self.actions.segment(action)
        if name == "play":
            self._play_card(state, seat, PIQUET_32.cards[item])
        elif name == "knock":
            self._knock(state, seat)
        elif name == "pass":
            state.queue.pop(0)
            self._continue_window(state)
        elif name in ("stay", "fold"):
            self._respond(state, seat, fold=name == "fold")
        elif name in ("dirty", "keep"):
            self._dirty_decision(state, seat, discard=name == "dirty")
        elif name in ("challenge", "accept"):
            self._challenge_decision(state, seat, challenge=name == "challenge")
        else:
            self._announce_decision(state, seat, announce=name == "announce")

    # ------------------------------------------------------ dirty hands ("Deal")
    def _begin_dirty(self, state: ToepenState) -> None:
        if self.rules.dirty_hands and len(state.stock) >= HAND_SIZE:
            state.queue = self._seats_from(state, state.leader, state.in_play)
            state.phase = Phase.DIRTY
            state.to_act = state.queue[0]
        else:
            self._begin_announce(state)

    def _dirty_decision(self, state: ToepenState, seat: int, discard: bool) -> None:
        if not discard:
            state.queue.pop(0)
            self._continue_dirty(state)
            return
        state.claim, state.claimant = state.hands[seat], seat
        state.hands[seat], state.stock = state.stock[:HAND_SIZE], state.stock[HAND_SIZE:]
        state.redraws[seat] += 1
        state.phase = Phase.CHALLENGE
        state.challengers = self._seats_from(state, seat + 1, lambda s: state.in_play(s) and s != seat)
        state.to_act = state.challengers[0]

    def _challenge_decision(self, state: ToepenState, seat: int, challenge: bool) -> None:
        claimant = state.claimant
        if challenge:
            honest = all(rank_of(c) in DIRTY_RANKS for c in state.claim)
            self._lose(state, seat if honest else claimant, 1)
            state.revealed.extend(state.claim)
            state.breakdown.setdefault("challenges", []).append(
                {"claimant": claimant, "challenger": seat, "honest": honest})
            state.challengers = []
        else:
            state.challengers.pop(0)
            if state.challengers:
                state.to_act = state.challengers[0]
                return
            state.face_down[claimant].extend(state.claim)
        state.claim, state.claimant = [], None
        self._continue_dirty(state)

    def _continue_dirty(self, state: ToepenState) -> None:
        if state.queue and len(state.stock) >= HAND_SIZE:
            state.phase = Phase.DIRTY
            state.to_act = state.queue[0]
        else:
            self._begin_announce(state)

    # ------------------------------------------ announcements ("Announcing tens...")
    def _begin_announce(self, state: ToepenState) -> None:
        state.queue = []
        if self.rules.announcements:
            for seat in self._seats_from(state, state.leader, state.in_play):
                tens = sum(rank_of(c) == "10" for c in state.hands[seat])
                jacks = sum(rank_of(c) == "J" for c in state.hands[seat])
                if tens >= 3:
                    state.signals[seat] = Signal.STAND if tens == 4 else Signal.WHISTLE
                elif jacks >= 3:
                    state.queue.append(seat)
        if state.queue:
            state.phase, state.to_act = Phase.ANNOUNCE, state.queue[0]
        else:
            self._begin_poverty(state)

    def _announce_decision(self, state: ToepenState, seat: int, announce: bool) -> None:
        if announce:
            jacks = sum(rank_of(c) == "J" for c in state.hands[seat])
            state.signals[seat] = Signal.STAND if jacks == 4 else Signal.WHISTLE
        state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
        else:
            self._begin_poverty(state)

    # --------------------------------------------------- poverty ("Variations")
    def _poor(self, state: ToepenState, seat: int) -> bool:
        return state.lives_left(seat, self.rules.lives) == 1

    def _begin_poverty(self, state: ToepenState) -> None:
        in_play = self._seats_from(state, state.leader, state.in_play)
        if self.rules.poverty and any(self._poor(state, s) for s in in_play):
            state.stake = 2
            state.breakdown["poverty"] = True
            responders = [s for s in in_play if not self._poor(state, s)]
            if responders:
                self._ask_responses(state, responders, resume=None)
                return
        self._begin_trick_play(state)

    # ------------------------------------------------------ knocking ("Knocking")
    def _knock(self, state: ToepenState, seat: int) -> None:
        state.stake += 1
        state.knocks += 1
        state.knocked_by[seat] += 1
        state.last_knocker = seat
        resume = state.phase
        if resume is Phase.WINDOW:
            state.queue.pop(0)
        others = self._seats_from(state, seat + 1, lambda s: state.in_play(s) and s != seat)
        self._ask_responses(state, others, resume)

    def _ask_responses(self, state: ToepenState, responders: list[int], resume: Phase | None) -> None:
        state.responders, state.resume = responders, resume
        state.phase, state.to_act = Phase.RESPOND, responders[0]

    def _respond(self, state: ToepenState, seat: int, fold: bool) -> None:
        """Folding costs the stake as it was before the knock ("Knocking")."""
        if fold:
            state.folded[seat] = True
            self._lose(state, seat, state.stake - 1)
            state.face_down[seat].extend(state.hands[seat])
            state.hands[seat] = []
        state.responders.pop(0)
        if state.responders:
            state.to_act = state.responders[0]
            return
        still_in = [s for s in range(self.num_players) if state.in_play(s)]
        if len(still_in) == 1:
            self._settle(state, winner=still_in[0], reason="all_folded")
        elif state.resume is None:
            self._begin_trick_play(state)
        elif state.resume is Phase.WINDOW:
            state.phase = Phase.WINDOW
            self._continue_window(state)
        else:
            self._resume_play(state)

    def _open_window(self, state: ToepenState) -> None:
        """Any-time knocking: each player still in, from the one to play on, may knock once."""
        state.phase = Phase.WINDOW
        state.queue = self._seats_from(state, self._next_to_play(state), state.in_play)
        self._continue_window(state)

    def _continue_window(self, state: ToepenState) -> None:
        while state.queue and not self.can_knock(state, state.queue[0]):
            state.queue.pop(0)
        if state.queue:
            state.to_act = state.queue[0]
        else:
            self._resume_play(state)

    # --------------------------------------------------- tricks ("Play of the cards")
    def _begin_trick_play(self, state: ToepenState) -> None:
        if self.rules.knock_timing is KnockTiming.ANY_TIME:
            self._open_window(state)
        else:
            self._resume_play(state)

    def _resume_play(self, state: ToepenState) -> None:
        """Back to card play; a trick whose last player to act has folded is complete."""
        state.phase = Phase.PLAY
        state.to_act = self._next_to_play(state)
        if state.to_act is None:
            self._finish_trick(state)

    def _next_to_play(self, state: ToepenState) -> int | None:
        """Leader (or the next player still in, if the leader folded), then clockwise."""
        if not state.trick:
            return self._next_in(state, state.leader - 1, state.in_play)
        done = {s for s, _ in state.trick}
        seat = self._next_in(state, state.trick[-1][0], lambda s: state.in_play(s) and s not in done)
        return seat

    def _play_card(self, state: ToepenState, seat: int, card: int) -> None:
        state.hands[seat].remove(card)
        state.trick.append((seat, card))
        state.played[seat].append(card)
        if self._next_to_play(state) is None:
            self._finish_trick(state)
        elif self.rules.knock_timing is KnockTiming.ANY_TIME:
            self._open_window(state)
        else:
            state.to_act = self._next_to_play(state)

    def _trick_winner(self, state: ToepenState) -> int:
        if self.rules.folded_winner is FoldedWinner.KEEPS_TRICK:
            return state.trick[self.order.winning_index([c for _, c in state.trick])][0]
        eligible = [state.in_play(s) for s in range(self.num_players)]
        return winner_with_precedence(self.order, state.trick, eligible, self.precedence)

    def _finish_trick(self, state: ToepenState) -> None:
        winner = self._trick_winner(state)
        state.tricks_won[winner] += 1
        state.tricks_played += 1
        state.leader, state.trick = winner, []
        if state.tricks_played == TRICKS:
            state.last_trick_winner = winner
            self._settle(state, winner, reason="last_trick")
        else:
            self._begin_trick_play(state)

    # ------------------------------------------------------------- settlement
    def _lose(self, state: ToepenState, seat: int, lives: int) -> None:
        state.lives_lost[seat] += lives
        state.deal_lost[seat] += lives
        state.scores[seat] -= lives

    def _settle(self, state: ToepenState, winner: int, reason: str) -> None:
        """Everyone still in except the winner loses the stake; a folded winner saves no one."""
        for seat in range(self.num_players):
            if state.in_play(seat) and (seat != winner or state.folded[winner]):
                self._lose(state, seat, state.stake)
        state.breakdown.update({
            "reason": reason, "winner": winner, "stake": state.stake, "knocks": state.knocks,
            "folded": list(state.folded), "lives_lost": list(state.deal_lost),
        })
        if self.rules.play_on:
            state.out = [x >= self.rules.lives for x in state.lives_lost]
        state.dealer = winner  # "The winner of the fourth and last trick will deal the next hand"
        state.deal_over, state.to_act, state.queue = True, None, []

    # ---------------------------------------------------------------- seating
    def _next_in(self, state: ToepenState, after: int, ok) -> int | None:
        return next_seat(self.num_players, after, ok)

    def _seats_from(self, state: ToepenState, first: int, ok) -> list[int]:
        return seats_from(self.num_players, first, ok)

    # ----------------------------------------------------------- observation
    def encode(self, state: ToepenState, seat: int, out: np.ndarray) -> None:
        observe.encode(self, state, seat, out)

    def view(self, state: ToepenState, seat: int) -> dict[str, Any]:
        return observe.view(self, state, seat)

    def render(self, state: ToepenState, seat: int | None = None) -> str:
        return observe.render(self, state, seat)

    def shuffle_unseen(self, state: ToepenState, seat: int, rng: np.random.Generator) -> ToepenState:
        clone = state.clone()
        others = [s for s in range(self.num_players) if s != seat]
        groups = [clone.hands[s] for s in others] + [clone.face_down[s] for s in others] + [clone.stock]
        if clone.claimant is not None and clone.claimant != seat:
            groups.append(clone.claim)
        redeal_unseen(groups, rng)
        return clone

    def conserved(self, state: ToepenState) -> dict[str, Any]:
        """Every card is somewhere exactly once; lives lost equal minus the scores."""
        places = [*state.hands, *state.face_down, *state.played, state.stock, state.revealed, state.claim]
        return {
            "cards": sorted(c for place in places for c in place),
            "lives": sum(state.lives_lost) + sum(state.scores),
        }
