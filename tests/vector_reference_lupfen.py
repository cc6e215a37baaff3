"""Lupfen's cross-check (tests/vector_crosscheck.py): deals queued, dealers, pots, net results, settlements.

Lupfen deals its cards at the start of a deal, when a shoving dealer deals, and again after a
scrap: whenever the reference has dealt, the cards are queued into the batched slot before the
step that deals them there; a new episode's dealer and carried-over pot are queued likewise.
Before every step the batched dealer, pot and every seat's net result must equal the
reference's; rewards are the AEC env's (score changes not yet paid, from 0 at each episode's
start); a settlement is compared by its reason, each seat's result of the deal, the pot left and
the holder of three Unters.
"""

from __future__ import annotations

from collections import Counter

from rams_env.core.cards import LUPFEN_20
from rams_env.vector.lupfen.state import REASONS
from tests.vector_crosscheck import Slot

DEALT = len(LUPFEN_20)


class LupfenSlot(Slot):
    game_name = "lupfen"
    antes_rewarded = True

    def start_episode(self):
        self.state = self.game.new_state(self.rng, None, random_carry=self.random_carry)
        ledger = self.state.ledger
        carried = ledger.pot - sum(ledger.paid_in)  # the pot before this deal's fee and antes
        self.env.queue_deals([self.b], dealers=[self.state.dealer], pots=[carried])
        self.stock = None
        self.queue_started(None, None)
        return self.state

    def queue_started(self, before, breakdown) -> None:
        """The reference has dealt (a new stock list of the undealt cards): the batched slot deals the same."""
        state = self.state
        if state.stock is not self.stock and len(state.stock) == DEALT - 3 * self.game.num_players:
            cards = [c for hand in state.hands for c in hand] + list(state.stock)
            self.env.queue_deals([self.b], [[LUPFEN_20.index[c] for c in cards]])
        self.stock = state.stock

    def settlement(self, state):
        return {**state.deal_breakdowns[-1], "result": state.deal_results[-1]}

    def compare_record(self, record) -> None:
        state, n, b = self.state, self.game.num_players, self.b
        assert (record["dealer"], record["pot"]) == (state.dealer, state.ledger.pot), f"deal {b}: dealer or pot differs"
        assert record["net"][:n].tolist() == state.scores, f"deal {b}: net results differ"

    def compare_settlement(self, record, breakdown) -> None:
        n = self.game.num_players
        got = (REASONS[record["reason"]], record["result"][:n].tolist(), int(record["result_pot"]),
               int(record["three_unters"]))
        want = (breakdown["reason"], breakdown["result"], breakdown["pot"], breakdown.get("three_unters", -1))
        assert got == want, f"deal {self.b}: settlement {got} != {want}"

    def count(self, counts: Counter, action: int, breakdown) -> None:
        counts["shoves"] += action == self.game.ids["shove"]
        if breakdown is not None:
            counts[breakdown["reason"]] += 1
            counts["scraps"] += len(breakdown.get("scrapped_by", ()))
