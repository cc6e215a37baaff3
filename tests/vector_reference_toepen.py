"""Toepen's cross-check (tests/vector_crosscheck.py): deals queued, lives, dealers and settlements compared.

Every deal the reference starts is queued into the batched slot (with its dealer and carried-over
lives when it starts an episode). Before every step the batched dealer and lives must equal the
reference's, after a settled deal its winner, stake and reason.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import numpy as np

import rams_env
from rams_env.core.cards import PIQUET_32, rank_of
from rams_env.core.seating import seats_from
from rams_env.games.toepen import openings
from rams_env.games.toepen.game import Toepen
from rams_env.games.toepen.state import Phase, Signal
from rams_env.vector.toepen.state import REASON_ALL_FOLDED, REASON_LAST_TRICK
from tests.vector_crosscheck import Slot

REASONS = {"last_trick": REASON_LAST_TRICK, "all_folded": REASON_ALL_FOLDED}


# ------------------------------------------------- the announcement rule of issue 14
def _asks_everyone() -> bool:
    """Whether the reference already asks every seat in the announcement phase (the fix of issue 14)."""
    game = rams_env.make_game("toepen", 3, dirty_hands=False)
    deal = {"hands": [["7c", "8c", "9c", "Ac"], ["7s", "8s", "9s", "As"], ["7h", "8h", "9h", "Ah"]]}
    state = game.new_state(np.random.default_rng(0), {"deal": deal, "dealer": 0})
    return state.phase is Phase.ANNOUNCE


def _begin_announce(game: Toepen, state) -> None:
    """Issue 14's rule: tens announced at once, then every seat still in asked from forehand."""
    state.queue = []
    if game.rules.announcements:
        for seat in seats_from(game.num_players, state.leader, state.in_play):
            tens = sum(rank_of(c) == "10" for c in state.hands[seat])
            if tens >= 3:
                state.signals[seat] = Signal.STAND if tens == 4 else Signal.WHISTLE
            state.queue.append(seat)
    if state.queue:
        state.phase, state.to_act = Phase.ANNOUNCE, state.queue[0]
    else:
        openings._begin_poverty(game, state)


def _legal_actions(original):
    def legal(game: Toepen, state) -> list[int]:
        if state.terminal or state.phase is not Phase.ANNOUNCE:
            return original(game, state)
        hand = state.hands[state.to_act]
        jacks, tens = (sum(rank_of(c) == r for c in hand) for r in ("J", "10"))
        ids = game.ids
        return sorted([ids["announce"], ids["silent"]]) if jacks >= 3 and tens < 3 else [ids["silent"]]
    return legal


@contextlib.contextmanager
def announce_rule() -> Iterator[None]:
    """The reference with issue 14's announcement phase (patched only while it does not have it yet)."""
    if _asks_everyone():
        yield
        return
    saved = openings._begin_announce, Toepen.legal_actions
    openings._begin_announce, Toepen.legal_actions = _begin_announce, _legal_actions(Toepen.legal_actions)
    try:
        yield
    finally:
        openings._begin_announce, Toepen.legal_actions = saved


# ------------------------------------------------------------------- cross-check
def deal_order(state) -> np.ndarray:
    """The pack permutation the reference dealt: hands seat by seat, then the stock top first."""
    cards = [c for hand in state.hands for c in hand] + list(state.stock)
    return np.array([PIQUET_32.index[c] for c in cards], np.int64)


class ToepenSlot(Slot):
    game_name = "toepen"
    reference_rules = staticmethod(announce_rule)

    def start_episode(self):
        state = self.game.new_state(self.rng, None, random_carry=self.random_carry)
        self.env.queue_deals([self.b], deal_order(state), [state.dealer], [state.lives_lost])
        return state

    def queue_started(self, before, breakdown) -> None:
        if breakdown is not None:
            self.env.queue_deals([self.b], deal_order(self.state))

    def compare_record(self, record) -> None:
        n, b = self.game.num_players, self.b
        assert record["lives_lost"][:n].tolist() == self.state.lives_lost, f"deal {b}: lives differ"
        assert record["dealer"] == self.state.dealer, f"deal {b}: dealer differs"

    def compare_settlement(self, record, breakdown) -> None:
        got = (int(record["winner"]), int(record["result_stake"]), int(record["reason"]))
        want = (breakdown["winner"], breakdown["stake"], REASONS[breakdown["reason"]])
        assert got == want, f"deal {self.b}: settlement {got} != {want}"
