"""Mauscheln's cross-check (tests/vector_crosscheck.py): deals queued, dealers, bankrolls, pots, settlements.

A new episode's dealer, carried-over pot (the reference's ``random_carry``) and cards are drawn
by the test and given to both engines (the reference as reset options, the batched one through
``queue_deals``); a session's next deal, which the reference shuffles inside ``apply``, is
recovered from a copy of its generator and queued into the batched slot before the step that
starts it. Before every step the batched dealer, bankrolls and pot must equal the reference's;
rewards are score changes since the last reward, counted from 0 at reset, as the AEC env pays
them; settlements are compared by reason, pot, paid in, shares and bêtes.
"""

from __future__ import annotations

import copy

from rams_env.vector.mauscheln.state import REASONS
from tests.vector_crosscheck import Slot


class MauschelnSlot(Slot):
    game_name = "mauscheln"
    antes_rewarded = True

    def start_episode(self):
        """The reference's new episode with a dealer, pot and cards drawn here, queued in the slot too."""
        game, rng = self.game, self.rng
        carry = game.random_carry(rng) if self.random_carry else {}
        dealer = int(rng.integers(game.num_players))
        order = rng.permutation(len(game.pack()))
        state = game.new_state(rng, {"deal": _as_deal(game, order), "dealer": dealer, **carry})
        self.env.queue_deals([self.b], order, [dealer], pots=[carry.get("pot", 0)], bankrolls=[state.session_start])
        return state

    def remember(self):
        return copy.deepcopy(self.state.rng)

    def queue_started(self, probe, breakdown) -> None:
        """The session's next deal, shuffled inside ``apply``: the same draw from the copied generator."""
        if breakdown is not None:
            game = self.game
            order = probe.permutation(len(game.pack()))
            assert game.pack().cards[order[4 * game.num_players]] == self.state.turned, "the reference's draw moved"
            self.env.queue_deals([self.b], order)

    def compare_record(self, record) -> None:
        state, n, b = self.state, self.game.num_players, self.b
        assert record["bankrolls"][:n].tolist() == state.ledger.bankrolls, f"deal {b}: bankrolls differ"
        assert (record["pot"], record["dealer"]) == (state.ledger.pot, state.dealer), f"deal {b}: pot or dealer"

    def compare_settlement(self, record, breakdown) -> None:
        n, b = self.game.num_players, self.b
        got = (REASONS[record["reason"]], int(record["result_pot"]), record["result_paid_in"][:n].tolist())
        assert got == (breakdown["reason"], breakdown["pot"], breakdown["paid_in"]), f"deal {b}: {got} {breakdown}"
        if breakdown["reason"] == "played":
            for name in ("shares", "betes"):
                want = [breakdown[name].get(s, 0) for s in range(n)]
                assert record[name][:n].tolist() == want, f"deal {b}: {name} {record[name][:n]} != {want}"


def _as_deal(game, order) -> dict:
    """The reset option ``deal`` for a pack permutation: hands seat by seat, then the stock (turned first)."""
    codes = [game.pack().codes[i] for i in order]
    hands = [codes[4 * s:4 * s + 4] for s in range(game.num_players)]
    return {"hands": hands, "stock": codes[4 * game.num_players:]}
