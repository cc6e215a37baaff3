"""Tippen's cross-check (tests/vector_crosscheck.py): deals queued, dealers, pots, net chips, settlements.

Every deal the reference starts is queued into the batched slot (with its dealer, carried-over
pot and hops when it starts an episode) before the step that starts it there; a shoving
dealer's deal once the reference has dealt it. Before every step the batched dealer, pot and
net chips must equal the reference's; a settlement is compared by its reason, the pot and the
chips set aside after it, and each player's share and bête.
"""

from __future__ import annotations

import numpy as np

from rams_env.games.tippen.rules import TrumpFrom
from rams_env.games.tippen.state import Phase
from rams_env.vector.tippen.state import REASONS
from tests.vector_crosscheck import Slot


def deal_order(game, state) -> np.ndarray:
    """The pack permutation the reference dealt: hands seat by seat, the turned trump card (if any), the talon."""
    turned = [state.trump_card] if game.rules.trump_from is TrumpFrom.TURNED else []
    cards = [c for hand in state.hands for c in hand] + turned + list(state.talon)
    return np.array([game.pack().index[c] for c in cards], np.int64)


class TippenSlot(Slot):
    game_name = "tippen"

    def start_episode(self):
        game = self.game
        state = game.new_state(self.rng, None, random_carry=self.random_carry)
        antes = game.rules.stake * (1 + state.hops)
        carried = state.ledger.pot + state.ledger.set_aside - antes  # before the antes and the cap
        first_dealer = (state.dealer - state.hops) % game.num_players
        self.env.queue_deals([self.b], self.dealt(state), [first_dealer], [carried], [state.hops])
        return state

    def dealt(self, state) -> np.ndarray:
        """The cards of the deal, or (shoving: not dealt yet) any order, replaced once the reference deals."""
        return np.arange(len(self.game.pack())) if state.phase is Phase.SHOVE else deal_order(self.game, state)

    def remember(self) -> bool:
        return self.state.phase is Phase.SHOVE

    def queue_started(self, shoving, breakdown) -> None:
        state = self.state
        if shoving and state.phase is not Phase.SHOVE and breakdown is None:  # dealt at last
            self.env.queue_deals([self.b], deal_order(self.game, state))
        if breakdown is not None:
            self.env.queue_deals([self.b], self.dealt(state), hops=[state.hops])

    def compare_record(self, record) -> None:
        state, n, b = self.state, self.game.num_players, self.b
        assert record["net"][:n].tolist() == state.scores, f"deal {b}: net chips differ"
        assert (record["dealer"], record["pot"]) == (state.dealer, state.ledger.pot), f"deal {b}: dealer or pot differs"

    def compare_settlement(self, record, breakdown) -> None:
        b = self.b
        assert REASONS[record["reason"]] == breakdown["reason"], f"deal {b}: reason differs"
        got = int(record["settled_pot"]), int(record["settled_set_aside"])
        assert got == (breakdown["pot"], breakdown["set_aside"]), f"deal {b}: pot, set aside after the deal {got}"
        if breakdown["reason"] == "played":
            for name, field in (("shares", "share"), ("betes", "bete")):
                got = {s: int(record[field][s]) for s in breakdown[name]}
                assert got == breakdown[name], f"deal {b}: {name} {got} != {breakdown[name]}"
